// How long a search may spend on what its plan cannot bound, and the time-limited transaction in
// which the trigram indexes drive its query.
import { sql } from 'kysely';
import type { Db } from '../db/database';

/** How long a search may spend on what its plan cannot bound: a tab's count, a sparse page. */
const SEARCH_TIME_LIMIT_MS = 150;

/** Tests only: smaller bounds, a slow query (to see the time limit at work). */
export interface SearchOptions {
  /** Milliseconds from the call; SEARCH_TIME_LIMIT_MS by default. */
  timeLimitMs?: number;
  /** listTasks: rows walked newest first before the trigram index takes over. */
  probeRows?: number;
  /** countTasks: rows of a tab walked newest first before its trigram index takes over. */
  walkRows?: number;
  /** countTasks: the pages first read, then read at most, the matches read at most. */
  firstPages?: number;
  samplePages?: number;
  sampleMatches?: number;
  /** Runs in the time-limited transaction just before its query. */
  beforeIndexQuery?: (trx: Db) => Promise<unknown>;
}

/** When a search called now must be done by (a performance.now() time). */
export const deadlineOf = (options: SearchOptions): number =>
  performance.now() + (options.timeLimitMs ?? SEARCH_TIME_LIMIT_MS);

/**
 * Runs `run` in a transaction where only bitmap scans are planned (the trigram indexes drive: a
 * walk of the newest-first index or of the whole table reads every row of the tab when the search
 * matches few of them, which the planner, guessing from each condition alone, cannot foresee), and
 * cancelled at `deadline` (a performance.now() time): undefined then. PGlite cancels nothing
 * (statement_timeout has no effect there): on it the deadline only keeps a query from starting.
 */
export async function indexDriven<T>(
  db: Db,
  deadline: number,
  options: SearchOptions,
  run: (trx: Db) => Promise<T>,
): Promise<T | undefined> {
  try {
    return await db.transaction().execute(async (trx) => {
      // Measured here, not before: on PGlite (one connection) the other queries ran meanwhile.
      const left = Math.ceil(deadline - performance.now());
      if (left <= 0) return undefined;
      await sql`select set_config('statement_timeout', ${`${left}ms`}, true),
        set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true),
        set_config('enable_indexonlyscan', 'off', true)`.execute(trx);
      await options.beforeIndexQuery?.(trx);
      return await run(trx);
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === '57014') return undefined; // query_canceled
    throw error;
  }
}
