// One group of callbacks in one transaction, in four round trips whatever its size: BEGIN with the
// id lock, one statement that skips known keys, inserts the rest and NOTIFYs, the caller's work on
// the new entries (server/tasks/record-callbacks.ts: one statement), COMMIT. Round trips, not rows,
// are what a group costs: ten statements a group held intake to ~800/s on a busy 2-core machine.
import { sql } from 'kysely';
import type { Db } from '../db/database';
import type { CallbackBody } from '../../src/api/schemas';
import {
  CALLBACK_ID_LOCK,
  CALLBACKS_CHANNEL,
  callbackKey,
  type AfterInsert,
  type AppendResult,
  type StoredCallback,
} from './store';

interface Row {
  id: number;
  key: string;
  received_at: Date;
  body: CallbackBody;
  fresh: boolean;
}

/**
 * BEGIN and the lock in one simple-protocol query (no parameters, so several statements travel
 * together); the rest in `work`; COMMIT. A failure anywhere rolls back and is thrown.
 */
export async function lockedTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql.raw(`begin; select pg_advisory_xact_lock(${CALLBACK_ID_LOCK})`).execute(conn);
    try {
      const result = await work(conn);
      await sql.raw('commit').execute(conn);
      return result;
    } catch (error) {
      // After a failed COMMIT there is no transaction left: the warning is harmless.
      await sql
        .raw('rollback')
        .execute(conn)
        .catch(() => undefined);
      throw error;
    }
  });
}

export async function commitGroup(
  db: Db,
  bodies: { body: CallbackBody; text: string }[],
  afterInsert?: AfterInsert,
): Promise<AppendResult[]> {
  const keys = bodies.map(({ body }) => callbackKey(body));
  // The bodies travel as text inside one JSON array; jsonb keeps them as received (unknown fields too).
  const incoming = `[${bodies
    .map(({ body, text }, i) =>
      JSON.stringify({ ord: i, key: keys[i], task_id: body.data.task_id, status: body.data.status }).replace(
        /}$/,
        `,"body":${text}}`,
      ),
    )
    .join(',')}]`;
  const rows = await lockedTransaction(db, async (trx) => {
    // Looked up under the lock, so no id is spent on a duplicate delivery. Identical deliveries in
    // one group: the first is stored. Ids are given in arrival order.
    const { rows } = await sql<Row>`
      with incoming as (
        select * from jsonb_to_recordset(${incoming}::jsonb)
          as t(ord int, key text, task_id text, status text, body jsonb)
      ), fresh as (
        select distinct on (key) * from incoming i
        where not exists (select 1 from callbacks c where c.key = i.key)
        order by key, ord
      ), added as (
        insert into callbacks (key, task_id, status, body)
        select key, task_id, status, body from fresh order by ord
        returning id, key, received_at, body
      ), note as (
        -- Delivered at commit, to every instance (this one included).
        select pg_notify(${CALLBACKS_CHANNEL}, max(id)::text) from added having count(*) > 0
      )
      select a.*, true as fresh from added a left join note on true
      union all
      select c.id, c.key, c.received_at, c.body, false from callbacks c
      where c.key in (select key from incoming)`.execute(trx);
    const added = rows
      .filter((row) => row.fresh)
      .sort((a, b) => a.id - b.id)
      .map(toEntry);
    if (added.length) await afterInsert?.(trx, added);
    return rows;
  });
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
