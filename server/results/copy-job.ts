// The durable copy job: result files go from the service's links into the team's store. Rows wait
// in result_copies; a worker claims a few at a time (`for update skip locked`, so instances share
// the queue and never take the same row), holds each under a lease it renews while copying, and
// streams the file through the outbound guard, a size cap and a SHA-256 into the store: nothing is
// held in memory but a chunk. A failure is retried with exponential backoff; a row left `copying`
// by a process that died is taken again once its lease runs out. The claim's attempt number
// fences the row: a worker whose lease was taken over can no longer write it.
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { Readable, Transform } from 'node:stream';
import { sql, type Selectable } from 'kysely';
import type { Database, Db } from '../db/database';
import type { ResultCopiesTable } from '../db/schema';
import { BlockedTargetError, isPublicAddress } from '../proxy/outbound';
import { LINK_LIFETIME_MS, queueResultCopies } from './queue';
import { sniff, SNIFF_BYTES } from './sniff';
import { keyFor, RESULT_ROLES, type ResultRole, type ResultStore } from './store';

export type ResultCopyRow = Selectable<ResultCopiesTable>;

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

/** A failure worth another attempt later (the network, a 5xx, a stall) or not (a refused address, a 404). */
class CopyError extends Error {
  constructor(
    message: string,
    readonly final: boolean,
  ) {
    super(message);
  }
}

const isResultRole = (role: string): role is ResultRole => (RESULT_ROLES as readonly string[]).includes(role);

/** Literal loopback, private, link-local (169.254.169.254, the cloud metadata address) and the like. */
function refusedLiteral(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && !isPublicAddress(host);
}

export function createCopyJob(options: CopyJobOptions): CopyJob {
  const concurrency = options.concurrency ?? 2;
  const leaseMs = options.leaseMs ?? 120_000;
  const maxAttempts = options.maxAttempts ?? 8;
  const backoffMs = options.backoffMs ?? defaultBackoffMs;
  const idleMs = options.idleMs ?? 60_000;
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

  async function claim(limit: number): Promise<ResultCopyRow[]> {
    const rows = await sql<ResultCopyRow>`
      update result_copies set state = 'copying', attempts = attempts + 1, updated_at = now(),
        lease_until = now() + ${leaseMs} * interval '1 millisecond'
      where id in (
        select id from result_copies
        where (state = 'queued' and next_attempt_at <= now()) or (state = 'copying' and lease_until < now())
        order by next_attempt_at, id
        limit ${limit}
        for update skip locked)
      returning *`.execute(await db());
    return rows.rows;
  }

  /** Links the service no longer keeps: their rows say so instead of being fetched. */
  async function expireStale(): Promise<void> {
    const cutoff = new Date(Date.now() - LINK_LIFETIME_MS);
    await sql`
      update result_copies c set state = 'expired', updated_at = now(), lease_until = null,
        error = coalesce(c.error || '; ', '') || 'the service''s link expired before it could be copied'
      from tasks t
      where t.id = c.task_id and c.state = 'queued' and coalesce(t.finished_at, t.created_at) <= ${cutoff}`.execute(
      await db(),
    );
  }

  /** Writes the outcome only while this claim still holds the row (its attempt number). */
  const fenced = (row: ResultCopyRow) =>
    sql`id = ${row.id} and state = 'copying' and attempts = ${row.attempts}`;

  async function copy(row: ResultCopyRow, abort: AbortController): Promise<void> {
    const renew = setInterval(() => {
      void (async () => {
        const { numAffectedRows } = await sql`
          update result_copies set lease_until = now() + ${leaseMs} * interval '1 millisecond'
          where ${fenced(row)}`.execute(await db());
        if (!numAffectedRows) abort.abort(new CopyError('the lease was taken over', false));
      })().catch(() => undefined);
    }, leaseMs / 3);
    try {
      const kept = await fetchIntoStore(row, abort);
      const { numAffectedRows } = await sql`
        update result_copies set state = 'kept', store_key = ${kept.key}, size = ${kept.size},
          sha256 = ${kept.sha256}, content_type = ${kept.contentType}, error = null, lease_until = null,
          kept_at = now(), updated_at = now()
        where ${fenced(row)}`.execute(await db());
      if (numAffectedRows) options.onKept?.(row.task_id);
    } catch (caught) {
      const error =
        caught instanceof CopyError
          ? caught
          : abort.signal.reason instanceof CopyError
            ? abort.signal.reason
            : new CopyError((caught as Error).message || 'the copy failed', false);
      const final = error.final || row.attempts >= maxAttempts;
      if (!closed || final) log(`[results] ${row.task_id} ${row.role}: ${error.message}`);
      // Closing gives the row back as it was: the next start takes it again at once.
      const next = closed && !error.final ? 0 : backoffMs(row.attempts);
      await sql`
        update result_copies set state = ${final ? 'failed' : 'queued'}, error = ${error.message},
          lease_until = null, updated_at = now(),
          attempts = ${closed && !error.final ? sql`attempts - 1` : sql`attempts`},
          next_attempt_at = now() + ${next} * interval '1 millisecond'
        where ${fenced(row)}`
        .execute(await db())
        .catch(() => undefined);
    } finally {
      clearInterval(renew);
    }
  }

  async function fetchIntoStore(row: ResultCopyRow, abort: AbortController) {
    if (!isResultRole(row.role)) throw new CopyError(`unknown file role ${row.role}`, true);
    let url: URL;
    try {
      url = new URL(row.source_url);
    } catch {
      throw new CopyError('the result link is not a URL', true);
    }
    let response: Response;
    try {
      response = await options.fetch(url, { signal: abort.signal, headers: { accept: '*/*' } });
    } catch (error) {
      if (abort.signal.aborted) throw abort.signal.reason ?? error;
      if (error instanceof BlockedTargetError && refusedLiteral(url))
        throw new CopyError('refused by the outbound guard: not a public address', true);
      throw new CopyError('the file could not be fetched', false);
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel().catch(() => undefined);
      const retry = response.status >= 500 || response.status === 408 || response.status === 429;
      throw new CopyError(`the service answered HTTP ${response.status}`, !retry);
    }
    const declared = Number(response.headers.get('content-length'));
    if (declared > options.maxBytes) {
      await response.body.cancel().catch(() => undefined);
      throw new CopyError(`larger than the ${options.maxBytes}-byte limit`, true);
    }
    const hash = createHash('sha256');
    let size = 0;
    const head: Buffer[] = [];
    let headBytes = 0;
    let idle: NodeJS.Timeout | undefined;
    const stall = () => {
      clearTimeout(idle);
      idle = setTimeout(() => abort.abort(new CopyError('the transfer stalled', false)), idleMs);
    };
    stall();
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        stall();
        size += chunk.length;
        if (size > options.maxBytes)
          return done(new CopyError(`larger than the ${options.maxBytes}-byte limit`, true));
        hash.update(chunk);
        if (headBytes < SNIFF_BYTES) {
          head.push(chunk.subarray(0, SNIFF_BYTES - headBytes));
          headBytes += Math.min(chunk.length, SNIFF_BYTES - headBytes);
        }
        done(null, chunk);
      },
    });
    const source = Readable.fromWeb(response.body as import('node:stream/web').ReadableStream, {
      signal: abort.signal,
    });
    source.on('error', (error) => counted.destroy(error));
    const key = keyFor(row.task_id, row.role, row.idx);
    try {
      await (await options.store).put(key, source.pipe(counted), 'application/octet-stream');
    } catch (error) {
      if (abort.signal.aborted) throw abort.signal.reason ?? error;
      if (error instanceof CopyError) throw error;
      throw new CopyError(`the copy was cut short (${(error as Error).message})`, false);
    } finally {
      clearTimeout(idle);
    }
    if (abort.signal.aborted) throw abort.signal.reason;
    const contentType = sniff(Buffer.concat(head), row.role).type;
    return { key, size, sha256: hash.digest('hex'), contentType };
  }

  function begin(row: ResultCopyRow) {
    const abort = new AbortController();
    const promise = copy(row, abort).finally(() => active.delete(row.id));
    active.set(row.id, { promise, abort });
  }

  async function drain(): Promise<void> {
    await expireStale();
    if (options.keepDays && Date.now() - prunedAt > 3600_000) await prune();
    for (;;) {
      if (closed) return;
      const free = concurrency - active.size;
      const rows = free > 0 ? await claim(free) : [];
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
    const cutoff = new Date(Date.now() - options.keepDays * 24 * 3600 * 1000);
    const rows = await (
      await db()
    )
      .selectFrom('result_copies')
      .select(['id', 'task_id', 'store_key'])
      .where('state', '=', 'kept')
      .where('kept_at', '<', cutoff)
      .limit(500)
      .execute();
    const removed = await removeKept(await db(), await options.store, rows, removedReason(options.keepDays));
    for (const taskId of new Set(rows.map((row) => row.task_id))) options.onKept?.(taskId);
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
