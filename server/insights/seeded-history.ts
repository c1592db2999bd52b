// A known history of tasks for the insights tests, and the figures they should give computed here in
// plain TypeScript from the same rows (the database's answer is checked against these). Test-only.
import { sql } from 'kysely';
import type { Db } from '../db/database';

export const HISTORY_END = Date.UTC(2026, 2, 10, 0, 0, 0);
const KINDS = ['image_generate', 'video_translate', 'image_to_video'] as const;
const PEOPLE = ['Ana', 'Bo', 'Chen Wei', null] as const;
const REASONS = [
  ['300101', 'Content policy'],
  [null, 'The source video could not be decoded'],
  ['300207', 'Timed out, rendering'],
] as const;
const LANGUAGES = ['English', 'Japanese', 'French'];

export interface SeededTask {
  id: string;
  kind: string;
  creator: string | null;
  status: string;
  phase: 'succeeded' | 'failed' | 'running';
  createdAt: number;
  finishedAt: number | null;
  language: string | null;
  code: string | null;
  reason: string | null;
  duration: number | null;
  /** The person's user id, when recorded by a signed-in person (then `currentName` is their name now). */
  creatorId?: string;
  currentName?: string;
}

/** `count` tasks over the ten days before HISTORY_END, every kind, person and outcome mixed. */
export function seededHistory(count = 240): SeededTask[] {
  return Array.from({ length: count }, (_, i) => {
    const kind = KINDS[i % 3]!;
    const phase = i % 5 === 0 ? 'failed' : i % 7 === 0 ? 'running' : 'succeeded';
    const createdAt = HISTORY_END - ((i * 61 * 60_000 + i * i * 1_000) % (10 * 24 * 3600_000)) - 1000;
    const reason = phase === 'failed' ? REASONS[i % 3]! : null;
    return {
      id: `task-${String(i).padStart(4, '0')}`,
      kind,
      creator: PEOPLE[(i >> 1) % 4]!,
      status: phase === 'failed' ? 'FAILED' : phase === 'running' ? 'PROCESSING' : 'SUCCEEDED',
      phase,
      createdAt,
      finishedAt: phase === 'running' ? null : createdAt + (20 + ((i * 37) % 900)) * 1000,
      language: kind === 'video_translate' ? LANGUAGES[i % 3]! : null,
      code: reason?.[0] ?? null,
      reason: reason?.[1] ?? null,
      duration: kind === 'image_to_video' ? (i % 2 ? 5 : 10) : null,
    };
  });
}

export async function insertHistory(db: Db, tasks: SeededTask[]): Promise<void> {
  for (let start = 0; start < tasks.length; start += 200) {
    const values = tasks.slice(start, start + 200).map((task) => ({
      id: task.id,
      kind: task.kind,
      source: 'created' as const,
      params: JSON.stringify(task.duration ? { duration: task.duration } : {}),
      batch: null,
      prompt: `prompt ${task.id}`,
      name: null,
      language: task.language,
      creator: task.creator,
      creator_id: task.creatorId ?? null,
      status: task.status,
      result: JSON.stringify(
        task.phase === 'failed'
          ? {
              status: task.status,
              error_message: task.reason,
              ...(task.code ? { error_code: task.code } : {}),
            }
          : { status: task.status },
      ),
      created_at: new Date(task.createdAt),
      updated_at: new Date(task.finishedAt ?? task.createdAt),
      finished_at: task.finishedAt === null ? null : new Date(task.finishedAt),
    }));
    await db.insertInto('tasks').values(values).execute();
  }
  await sql`analyze tasks`.execute(db);
}

export const round1 = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);
