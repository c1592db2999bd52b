// The callback log, in the database. A callback is acknowledged only after its transaction has
// committed. Ids are the event ids of the SSE stream: they are handed out under a transaction lock,
// so they grow in commit order and a client resuming after id N never misses a smaller one that
// committed later. Every instance on the same database hears of new callbacks by NOTIFY.
import type { CallbackBody } from '../../src/api/schemas';
import type { Database, Db } from '../db/database';
import { callbackCommitQueue } from './commit-queue';
import { commitGroup } from './group-commit';
import type { AppendResult, StoredCallback } from './log-entry';
import { readAfter, readPage } from './log-reads';
import { SharedReads } from './shared-reads';

/** The file log of earlier versions; imported once at start (see ./import-log.ts). */
export const LOG_FILE = 'callbacks.jsonl';
export const CALLBACKS_CHANNEL = 'console_callbacks';
/**
 * pg_advisory_xact_lock key that orders callback ids by commit (any constant of our own). Built into
 * commit_callbacks by migration 0006 too: changing it takes a new migration.
 */
export const CALLBACK_ID_LOCK = 7_310_001;

interface CallbackStoreOptions {
  /**
   * Stored callbacks also move their tasks on, in the same transaction (the console's store; the
   * rule is in server/db/commit-callbacks.ts). Without it the store keeps the log only.
   */
  moveTasks?: boolean;
}

export class CallbackStore {
  private readonly listeners = new Set<() => void>();
  private readonly reads = new SharedReads<StoredCallback[]>();
  private readonly queue = callbackCommitQueue(async (items) => {
    const results = await commitGroup(await this.db(), items, this.options.moveTasks ?? false);
    if (results.some((result) => !result.duplicate)) this.emit();
    return results;
  });
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

  /** The database the log is in (the inbox's sender brake keeps its buckets there too). */
  get database(): Promise<Database> {
    return this.ready;
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
    // Stryker disable next-line LogicalOperator: max() of no rows is null, and Number(null) is 0 already.
    return Number(row?.last ?? 0);
  }

  /** Stores the body unless the same callback is already stored; resolves once committed. */
  append(body: CallbackBody): Promise<AppendResult> {
    return this.queue.add({ body, text: JSON.stringify(body) });
  }

  /**
   * Up to `limit` callbacks stored after `id`, oldest first. Streams that are level ask the same
   * question when a callback arrives: one query answers all of them.
   */
  since(id: number, limit = 500, maxBytes?: number): Promise<StoredCallback[]> {
    return this.reads.read(`${id}:${limit}:${maxBytes}`, () =>
      this.db().then((db) => readAfter(db, id, limit, maxBytes)),
    );
  }

  /** A page of the log, newest first (./log-reads.ts). */
  async page(options: Parameters<typeof readPage>[1]) {
    return readPage(await this.db(), options);
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
    await this.queue.settled();
    await (
      await this.unlisten.catch(() => async () => {})
    )();
  }

  private emit() {
    // Before the listeners ask: a read still in flight from before this news cannot hold it.
    this.reads.changed();
    for (const listener of this.listeners) listener();
  }
}
