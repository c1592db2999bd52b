// One group of callbacks in one transaction, in ONE round trip whatever its size: a single call of
// commit_callbacks (server/db/commit-callbacks.ts), sent in autocommit, takes the id lock, skips
// known keys, inserts the rest, moves their tasks on and NOTIFYs; node-postgres resolves only on
// ReadyForQuery, which PostgreSQL sends after the COMMIT, so every reply still follows its commit.
// Round trips, not rows, are what a group costs: each woke PostgreSQL, then Node, on two cores they
// share with the senders (a socket write to PostgreSQL showed ~0.8 ms in profiles). Four a group
// (BEGIN with the lock, the insert, the tasks, COMMIT): 630-1,326/s on PostgreSQL in back-to-back
// runs at load 2.7-6.7; one (with the body read from the Node request, ./read-body.ts):
// 1,440-2,422/s in the same runs (README, "Benchmark"). PostgreSQL's CPU per group of 16, serially:
// ~2.1 ms, against 3.9-6.5 ms rising with the log when the duplicate lookup is planned as a scan of
// the whole table (the planner guesses 100 rows for a group); see the lookups in the function.
import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { CallbackBody } from '../../src/api/schemas';
import { notifyPayloads } from '../tasks/announce';
import { callbackKey, type AppendResult, type StoredCallback } from './log-entry';

interface Row {
  id: number;
  key: string;
  received_at: Date;
  body: CallbackBody;
  fresh: boolean;
}

export async function commitGroup(
  db: Db,
  bodies: { body: CallbackBody; text: string }[],
  moveTasks: boolean,
): Promise<AppendResult[]> {
  const keys = bodies.map(({ body }) => callbackKey(body));
  // The bodies travel as text inside one JSON array; jsonb keeps them as received (unknown fields too).
  // (Concatenated, not String.replace: a replacement string would read "$$" or "$&" in a body.)
  const incoming = `[${bodies
    .map(
      ({ body, text }, i) =>
        `${JSON.stringify({ ord: i, key: keys[i], task_id: body.data.task_id, status: body.data.status }).slice(0, -1)},"body":${text}}`,
    )
    .join(',')}]`;
  // Every task of the group, cut to NOTIFY's size; the function drops those it did not move.
  const notices = moveTasks
    ? notifyPayloads([...new Set(bodies.map(({ body }) => body.data.task_id))].sort())
    : [];
  const { rows } = await sql<Row>`
    select * from commit_callbacks(${incoming}::jsonb, ${moveTasks}, ${notices}::text[])`.execute(db);
  const byKey = new Map(rows.map((row) => [row.key, row]));
  const firsts = new Set(rows.filter((row) => row.fresh).map((row) => row.key));
  return keys.map((key) => {
    const row = byKey.get(key)!;
    return { entry: toEntry(row), duplicate: !firsts.delete(key) };
  });
}

function toEntry(row: Row): StoredCallback {
  return { id: Number(row.id), receivedAt: new Date(row.received_at).toISOString(), body: row.body };
}
