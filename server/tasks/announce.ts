// Task changes are announced on TASKS_CHANNEL when their transaction commits. A payload is one task
// id, or a JSON array of ids when a group of callbacks moved many tasks at once: one NOTIFY per
// group instead of one per task. A NOTIFY payload must stay under 8,000 bytes, hence the chunks.
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { TASKS_CHANNEL } from './recorder';

const PAYLOAD_MAX = 7_000;

export async function announceMany(trx: Db, ids: string[]): Promise<void> {
  const payloads: string[] = [];
  let chunk: string[] = [];
  for (const id of ids) {
    if (chunk.length && JSON.stringify([...chunk, id]).length > PAYLOAD_MAX) {
      payloads.push(JSON.stringify(chunk));
      chunk = [];
    }
    chunk.push(id);
  }
  if (chunk.length) payloads.push(JSON.stringify(chunk));
  if (!payloads.length) return;
  const calls = payloads.map((payload) => sql`pg_notify(${TASKS_CHANNEL}, ${payload})`);
  await sql`select ${sql.join(calls)}`.execute(trx);
}

/** The task ids a payload names (an id that merely looks like JSON is still one id). */
export function announcedIds(payload: string): string[] {
  if (payload.startsWith('[')) {
    try {
      const ids: unknown = JSON.parse(payload);
      if (Array.isArray(ids) && ids.every((id) => typeof id === 'string')) return ids as string[];
    } catch {
      // one id
    }
  }
  return payload ? [payload] : [];
}
