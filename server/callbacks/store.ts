// The callback log, in the database. A callback is acknowledged only after its transaction has
// committed. Ids are the event ids of the SSE stream: they are handed out under a transaction lock,
// so they grow in commit order and a client resuming after id N never misses a smaller one that
// committed later. Every instance on the same database hears of new callbacks by NOTIFY.
import { sql, type Selectable, type SelectQueryBuilder } from 'kysely';
import type { CallbackBody } from '../../src/api/schemas';
import type { Database, Db } from '../db/database';
import type { CallbacksTable, Schema } from '../db/schema';
import { escapeLike } from '../db/escape-like';
import { commitGroup } from './group-commit';
import type { AppendResult, StoredCallback } from './log-entry';

/** The file log of earlier versions; imported once at start (see ./import-log.ts). */
export const LOG_FILE = 'callbacks.jsonl';
export const CALLBACKS_CHANNEL = 'console_callbacks';
/**
 * pg_advisory_xact_lock key that orders callback ids by commit (any constant of our own). Built into
 * commit_callbacks by migration 0006 too: changing it takes a new migration.
 */
export const CALLBACK_ID_LOCK = 7_310_001;
/** At most this many callbacks share one transaction, and about this many bytes of them. */
const GROUP_MAX = 200;
const GROUP_MAX_BYTES = 4 * 1024 * 1024;
/**
 * Groups committing at once. The id lock still orders their commits, but while one group waits for
 * its COMMIT the next one's statements travel: with one at a time, half the senders waited for a
 * group they were not in.
 */
const GROUPS_IN_FLIGHT = 2;
/**
 * What one read of the log (a page of /log, a batch of an event stream's catch-up) may load, in
 * bytes of callback JSON: bodies may be 1 MB each, so 500 of them would be 500 MB. Sizes are asked
 * of the database first and rows are loaded only up to this (always at least one).
 */
const READ_MAX_BYTES = 2 * 1024 * 1024;
/** Per row besides its body: the id and receivedAt around it in an answer or an event. */
const ROW_OVERHEAD_BYTES = 80;

/** How many of the queue's first callbacks make the next group (always at least one). */
function groupSize(queue: readonly { text: string }[]): number {
  let bytes = 0;
  let count = 0;
  while (count < Math.min(queue.length, GROUP_MAX)) {
    bytes += queue[count]!.text.length;
    if (count > 0 && bytes > GROUP_MAX_BYTES) break;
    count++;
  }
  return count;
}

function toStoredCallback(row: Selectable<CallbacksTable>): StoredCallback {
  return { id: row.id, receivedAt: row.received_at.toISOString(), body: row.body };
}

interface CallbackStoreOptions {
  /**
   * Stored callbacks also move their tasks on, in the same transaction (the console's store; the
   * rule is in server/db/commit-callbacks.ts). Without it the store keeps the log only.
   */
  moveTasks?: boolean;
}

export class CallbackStore {
  private readonly listeners = new Set<() => void>();
  private readonly inFlight = new Map<string, Promise<StoredCallback[]>>();
  private readonly pending: {
    body: CallbackBody;
    /** The body as JSON, made once: its size bounds a group, and it is what is stored. */
    text: string;
    resolve: (result: AppendResult) => void;
    reject: (error: unknown) => void;
  }[] = [];
  private writing: Promise<void> | undefined;
  private draining = false;
  private readonly ready: Promise<Database>;
  private unlisten: Promise<() => Promise<void>>;
  private closed = false;

  constructor(
    database: Database | Promise<Database>,
    private readonly options: CallbackStoreOptions = {},
  ) {
    this.ready = Promise.resolve(database);
    this.unlisten = this.ready.then((db) => db.listen(CALLBACKS_CHANNEL, () => this.emit()));
    // A failed open is reported by whoever awaits the database; this chain must not be unhandled.
    this.unlisten.catch(() => {});
  }

  private async db(): Promise<Db> {
    if (this.closed) throw new Error('The callback store is closed');
    return (await this.ready).db;
  }

  async lastId(): Promise<number> {
    const db = await this.db();
    const row = await db
      .selectFrom('callbacks')
      .select((eb) => eb.fn.max('id').as('last'))
      .executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  /**
   * Stores the body unless the same callback is already stored; resolves once committed. Callbacks
   * arriving together share one transaction (group commit): one disk flush acknowledges them all,
   * which is what makes thousands a second possible with every reply sent after its commit.
   */
  append(body: CallbackBody): Promise<AppendResult> {
    return new Promise((resolve, reject) => {
      this.pending.push({ body, text: JSON.stringify(body), resolve, reject });
      if (!this.draining) {
        this.draining = true;
        this.writing = this.drain();
      }
    });
  }

  private async drain(): Promise<void> {
    const running = new Set<Promise<void>>();
    for (;;) {
      // Let the requests already received reach the queue first. PGlite runs its queries on this
      // thread, answering within microtasks: without this turn of the event loop every group would
      // be one callback (measured: ~100/s), as the next request is read only after the commit.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.pending.length && running.size < GROUPS_IN_FLIGHT) {
        const group = this.commitBatch(this.pending.splice(0, groupSize(this.pending)));
        running.add(group);
        void group.finally(() => running.delete(group));
      }
      // Cleared in the same step that finds nothing queued or committing: an append arriving after
      // that starts a new drain, never waits on one that is already ending.
      if (!running.size) {
        this.draining = false;
        return;
      }
      // Wait for a group to finish before forming the next: what arrives meanwhile joins it.
      await Promise.race(running);
    }
  }

  /** Settles every caller of the batch; never rejects. */
  private async commitBatch(batch: typeof this.pending): Promise<void> {
    try {
      const results = await this.commit(batch);
      batch.forEach((item, i) => item.resolve(results[i]!));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      // One bad callback must not fail the others: each alone, in its own transaction.
      for (const item of batch)
        await this.commit([item]).then(([result]) => item.resolve(result!), item.reject);
    }
  }

  private async commit(items: { body: CallbackBody; text: string }[]): Promise<AppendResult[]> {
    const results = await commitGroup(await this.db(), items, this.options.moveTasks ?? false);
    if (results.some((result) => !result.duplicate)) this.emit();
    return results;
  }

  /**
   * Up to `limit` callbacks stored after `id`, oldest first. Streams that are level ask the same
   * question when a callback arrives: one query answers all of them.
   */
  since(id: number, limit = 500, maxBytes = READ_MAX_BYTES): Promise<StoredCallback[]> {
    const key = `${id}:${limit}:${maxBytes}`;
    let query = this.inFlight.get(key);
    if (!query) {
      query = this.db()
        .then(async (db) => {
          const ids = await idsWithin(db, (q) => q.where('id', '>', id), 'asc', limit, maxBytes);
          return loadRows(db, ids, 'asc');
        })
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, query);
    }
    return query;
  }

  /**
   * Newest first, `limit` callbacks older than `before` (all when absent) whose task id contains
   * `task`, and no more than about `maxBytes` of them (at least one); `total` counts every match.
   */
  async page(options: { before?: number; limit: number; task?: string; maxBytes?: number }) {
    const db = await this.db();
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

  /** `listener` runs whenever callbacks may have been added, here or by another instance. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    await this.writing?.catch(() => undefined);
    await (
      await this.unlisten.catch(() => async () => {})
    )();
  }

  private emit() {
    for (const listener of this.listeners) listener();
  }
}

type CallbackQuery = SelectQueryBuilder<Schema, 'callbacks', object>;

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
