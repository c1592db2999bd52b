// The durable copy job: result files go from the service's links into the team's store. Rows wait
// in result_copies; a worker claims a few at a time (`for update skip locked`, so instances share
// the queue and never take the same row), holds each under a lease it renews while copying, and
// streams the file through the outbound guard, a size cap and a SHA-256 into the store: nothing is
// held in memory but a chunk. A failure is retried with exponential backoff; a row left `copying`
// by a process that died is taken again once its lease runs out. The claim's attempt number
// fences the row: a worker whose lease was taken over can no longer write it. This module schedules
// the work; one file's fetch is copy-fetch.ts, the rows' SQL copy-rows.ts.
import type { Database, Db } from '../db/database';
import { CopyError, fetchIntoStore } from './copy-fetch';
import {
  claimDueCopies,
  expireStaleCopies,
  markCopyFailed,
  markCopyKept,
  renewCopyLease,
  type ResultCopyRow,
} from './copy-rows';
import { queueResultCopies } from './queue';
import type { ResultStore } from './store';

export interface CopyJobOptions {
  database: Promise<Database>;
  store: Promise<ResultStore>;
  /** The outbound guard (server/proxy/outbound.ts), answering the built-in emulator's media in-process. */
  fetch: typeof fetch;
  /** Largest file copied, in bytes (RESULTS_MAX_MB). */
  maxBytes: number;
  /** Copies at once in this process; default 2. */
  concurrency?: number;
  /** How long a claim holds a row without renewal; default 2 minutes (renewed every third of it). */
  leaseMs?: number;
  /** Attempts before a row is given up as failed; default 8. */
  maxAttempts?: number;
  /** The wait before attempt n+1 after n failed; default 30 s doubling, at most 6 h. */
  backoffMs?: (attempts: number) => number;
  /** A copy that receives nothing for this long is abandoned (and retried); default 60 s. */
  idleMs?: number;
  /** How often an idle worker looks for work (other instances queue too); default 10 s. */
  pollMs?: number;
  /** RESULTS_KEEP_DAYS: kept files older than this are removed from the store; undefined = kept for good. */
  keepDays?: number;
  /** A file was kept or removed: the task's view changed. */
  onKept?: (taskId: string) => void;
  log?: (line: string) => void;
}

export interface CopyJob {
  /** Backfill, then work until closed. */
  start(): void;
  /** Look for work now (a task just succeeded); nothing before start(). */
  wake(): void;
  /** Copies every row that is due, until none is left or running (tests, the backfill). */
  drain(): Promise<void>;
  /** Queues the succeeded tasks whose links still work and have no copy yet; returns how many files. */
  backfill(): Promise<number>;
  /** Removes kept files older than keepDays from the store (their rows say so); returns how many. */
  prune(): Promise<number>;
  /** Stops claiming; copies under way are abandoned and their rows go back to the queue. */
  close(): Promise<void>;
}

/** Why a kept file was removed, as its row's `error` says (read back by copiesOf). */
export const removedReason = (keepDays?: number) =>
  keepDays ? `removed after ${keepDays} days (RESULTS_KEEP_DAYS)` : 'removed by an admin';

/** The retention's days from a removed row's reason; undefined for an admin's removal. */
export function retentionDays(reason: string | null): number | undefined {
  const match = /^removed after (\d+) days \(RESULTS_KEEP_DAYS\)$/.exec(reason ?? '');
  return match ? Number(match[1]) : undefined;
}

/**
 * Removes kept files from the store, then marks their rows `expired` with `reason` (a row is never
 * deleted: the backfill would queue its file again while the service still has it).
 */
export async function removeKept(
  db: Db,
  store: ResultStore,
  rows: { id: number; store_key: string | null }[],
  reason: string,
): Promise<number> {
  let removed = 0;
  for (const row of rows) {
    if (row.store_key) await store.delete(row.store_key);
    await db
      .updateTable('result_copies')
      .set({ state: 'expired', store_key: null, error: reason, lease_until: null, updated_at: new Date() })
      .where('id', '=', row.id)
      .execute();
    removed++;
  }
  return removed;
}

/** 30 s after the first failed attempt, doubling each time, never more than 6 hours. */
export const defaultBackoffMs = (attempts: number) =>
  Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 6 * 3600 * 1000);

/** Kept files older than `keepDays` (500 at a time) removed from the store; their tasks' ids. */
async function removeKeptOlderThan(db: Db, store: ResultStore, keepDays: number) {
  const cutoff = new Date(Date.now() - keepDays * 24 * 3600 * 1000);
  const rows = await db
    .selectFrom('result_copies')
    .select(['id', 'task_id', 'store_key'])
    .where('state', '=', 'kept')
    .where('kept_at', '<', cutoff)
    .limit(500)
    .execute();
  const removed = await removeKept(db, store, rows, removedReason(keepDays));
  return { removed, taskIds: new Set(rows.map((row) => row.task_id)) };
}

/**
 * What a failed attempt means for its row: retried after the backoff, given up (a final error, or
 * the last attempt), or, when the console is closing, given back as it was to be taken again at once.
 */
export function attemptFailure(
  row: Pick<ResultCopyRow, 'attempts'>,
  caught: unknown,
  abortReason: unknown,
  job: { closing: boolean; maxAttempts: number; backoffMs: (attempts: number) => number },
) {
  const error =
    caught instanceof CopyError
      ? caught
      : abortReason instanceof CopyError
        ? abortReason
        : new CopyError((caught as Error).message || 'the copy failed', false);
  const givenBack = job.closing && !error.final;
  return {
    message: error.message,
    final: error.final || row.attempts >= job.maxAttempts,
    nextInMs: givenBack ? 0 : job.backoffMs(row.attempts),
    givenBack,
  };
}

/** Renews the row's lease every third of it; aborts the copy once its claim no longer holds the row. */
function renewLeaseWhileCopying(
  db: () => Promise<Db>,
  row: ResultCopyRow,
  leaseMs: number,
  abort: AbortController,
) {
  return setInterval(() => {
    void (async () => {
      if (!(await renewCopyLease(await db(), row, leaseMs)))
        abort.abort(new CopyError('the lease was taken over', false));
    })().catch(() => undefined);
  }, leaseMs / 3);
}

export function createCopyJob(options: CopyJobOptions): CopyJob {
  const concurrency = options.concurrency ?? 2;
  const leaseMs = options.leaseMs ?? 120_000;
  const maxAttempts = options.maxAttempts ?? 8;
  const backoffMs = options.backoffMs ?? defaultBackoffMs;
  const pollMs = options.pollMs ?? 10_000;
  const log = options.log ?? ((line: string) => console.log(line));
  const active = new Map<number, { promise: Promise<void>; abort: AbortController }>();
  let closed = false;
  /** Only a started job works in the background; until then wake() does nothing (tests drain by hand). */
  let started = false;
  let timer: NodeJS.Timeout | undefined;
  let pumping: Promise<void> | undefined;
  /** Woken while pumping: look again as soon as this round ends. */
  let wanted = false;
  const db = async (): Promise<Db> => (await options.database).db;

  const limits = { fetch: options.fetch, maxBytes: options.maxBytes, idleMs: options.idleMs ?? 60_000 };

  /** Copies one claimed row's file, renewing its lease meanwhile, and writes how the attempt ended. */
  async function copy(row: ResultCopyRow, abort: AbortController): Promise<void> {
    const renew = renewLeaseWhileCopying(db, row, leaseMs, abort);
    try {
      const kept = await fetchIntoStore(row, abort, options.store, limits);
      if (await markCopyKept(await db(), row, kept)) options.onKept?.(row.task_id);
    } catch (caught) {
      const job = { closing: closed, maxAttempts, backoffMs };
      const failure = attemptFailure(row, caught, abort.signal.reason, job);
      if (!closed || failure.final) log(`[results] ${row.task_id} ${row.role}: ${failure.message}`);
      await markCopyFailed(await db(), row, failure).catch(() => undefined);
    } finally {
      clearInterval(renew);
    }
  }

  function begin(row: ResultCopyRow) {
    const abort = new AbortController();
    const promise = copy(row, abort).finally(() => active.delete(row.id));
    active.set(row.id, { promise, abort });
  }

  async function drain(): Promise<void> {
    await expireStaleCopies(await db());
    if (options.keepDays && Date.now() - prunedAt > 3600_000) await prune();
    for (;;) {
      if (closed) return;
      const free = concurrency - active.size;
      const rows = free > 0 ? await claimDueCopies(await db(), free, leaseMs) : [];
      for (const row of rows) begin(row);
      if (active.size === 0) return;
      await Promise.race([...active.values()].map((entry) => entry.promise));
    }
  }

  function pump() {
    if (closed || pumping) return;
    clearTimeout(timer);
    wanted = false;
    pumping = drain()
      .catch((error: Error) => log(`[results] ${error.message}`))
      .finally(() => {
        pumping = undefined;
        if (!closed) timer = setTimeout(pump, wanted ? 0 : pollMs);
      });
  }

  let prunedAt = 0;
  async function prune(): Promise<number> {
    if (!options.keepDays) return 0;
    prunedAt = Date.now();
    const { removed, taskIds } = await removeKeptOlderThan(await db(), await options.store, options.keepDays);
    for (const taskId of taskIds) options.onKept?.(taskId);
    if (removed) log(`[results] removed ${removed} kept file(s) older than ${options.keepDays} days`);
    return removed;
  }

  async function backfill() {
    const added = await queueResultCopies(await db());
    if (added) log(`[results] queued ${added} file(s) of earlier tasks to keep`);
    return added;
  }

  return {
    start() {
      started = true;
      void backfill()
        .catch((error: Error) => log(`[results] backfill: ${error.message}`))
        .finally(pump);
    },
    wake() {
      if (!started) return;
      if (pumping) wanted = true;
      else pump();
    },
    drain,
    backfill,
    prune,
    async close() {
      closed = true;
      clearTimeout(timer);
      for (const entry of active.values()) entry.abort.abort(new CopyError('the console is stopping', false));
      await Promise.allSettled([...active.values()].map((entry) => entry.promise));
      await pumping;
    },
  };
}
