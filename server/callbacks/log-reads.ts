// Reading the callback log for the store: the catch-up of an event stream and the pages of /log,
// each bounded in bytes as well as in rows.
import { sql, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { Db } from '../db/database';
import type { CallbacksTable, Schema } from '../db/schema';
import { escapeLike } from '../db/escape-like';
import type { StoredCallback } from './log-entry';

/**
 * What one read of the log (a page of /log, a batch of an event stream's catch-up) may load, in
 * bytes of callback JSON: bodies may be 1 MB each, so 500 of them would be 500 MB. Sizes are asked
 * of the database first and rows are loaded only up to this (always at least one).
 */
const READ_MAX_BYTES = 2 * 1024 * 1024;
/** Per row besides its body: the id and receivedAt around it in an answer or an event. */
const ROW_OVERHEAD_BYTES = 80;

function toStoredCallback(row: Selectable<CallbacksTable>): StoredCallback {
  return { id: row.id, receivedAt: row.received_at.toISOString(), body: row.body };
}

type CallbackQuery = SelectQueryBuilder<Schema, 'callbacks', object>;

/** Up to `limit` callbacks stored after `id`, oldest first, and no more than about `maxBytes` of them. */
export async function readAfter(db: Db, id: number, limit: number, maxBytes = READ_MAX_BYTES) {
  const ids = await idsWithin(db, (q) => q.where('id', '>', id), 'asc', limit, maxBytes);
  return loadRows(db, ids, 'asc');
}

/**
 * Newest first, `limit` callbacks older than `before` (all when absent) whose task id contains
 * `task`, and no more than about `maxBytes` of them (at least one); `total` counts every match.
 */
export async function readPage(
  db: Db,
  options: { before?: number; limit: number; task?: string; maxBytes?: number },
): Promise<{ items: StoredCallback[]; total: number }> {
  const matching = (query: CallbackQuery): CallbackQuery =>
    options.task ? query.where('task_id', 'like', `%${escapeLike(options.task)}%`) : query;
  const [rows, count] = await Promise.all([
    idsWithin(
      db,
      (q) => (options.before === undefined ? matching(q) : matching(q).where('id', '<', options.before)),
      'desc',
      options.limit,
      options.maxBytes ?? READ_MAX_BYTES,
    ).then((ids) => loadRows(db, ids, 'desc')),
    matching(db.selectFrom('callbacks'))
      .select((eb) => eb.fn.countAll<number>().as('total'))
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows, total: Number(count.total) };
}

/**
 * The ids of the rows `where` picks, in id order `order`, up to `limit` of them and `maxBytes` of
 * their JSON (always the first one). Only ids and sizes come back (octet_length of the body's text,
 * measured by the database row by row), in small steps that grow, so a log of 1 MB callbacks costs
 * a few size reads, never 500 bodies in memory.
 */
async function idsWithin(
  db: Db,
  where: (query: CallbackQuery) => CallbackQuery,
  order: 'asc' | 'desc',
  limit: number,
  maxBytes: number,
): Promise<number[]> {
  const ids: number[] = [];
  let bytes = 0;
  let step = 8;
  for (let after: number | undefined; ids.length < limit; step = Math.min(step * 2, 128)) {
    let query = where(db.selectFrom('callbacks'));
    if (after !== undefined) query = query.where('id', order === 'asc' ? '>' : '<', after);
    const want = Math.min(step, limit - ids.length);
    const rows = await query
      .select(['id', sql<number>`octet_length(body::text)`.as('bytes')])
      .orderBy('id', order)
      .limit(want)
      .execute();
    for (const row of rows) {
      bytes += Number(row.bytes) + ROW_OVERHEAD_BYTES;
      if (ids.length > 0 && bytes > maxBytes) return ids;
      ids.push(row.id);
    }
    if (rows.length < want) return ids;
    after = rows.at(-1)!.id;
  }
  return ids;
}

async function loadRows(db: Db, ids: number[], order: 'asc' | 'desc'): Promise<StoredCallback[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('callbacks')
    .selectAll()
    .where('id', 'in', ids)
    .orderBy('id', order)
    .execute();
  return rows.map(toStoredCallback);
}
