// How often a running task is asked for its status. Pure functions, so the schedule is unit tested
// and the benchmark can count requests without a browser.
import { isTerminalStatus } from '../status';

export const POLL = {
  /** First checks come quickly: most image tasks finish within a minute. */
  minMs: 2_000,
  /** Long tasks (translations can take two hours) settle at this interval. */
  maxMs: 30_000,
  /** The interval grows with the task's age: 10 % of it, between minMs and maxMs. */
  ageFactor: 0.1,
  /** The provider asks for about 30 s after a 429 (used when the answer has no Retry-After). */
  rateLimitMs: 30_000,
  /** 5xx: start here and double per consecutive failure. */
  serverErrorMs: 10_000,
  /** Network errors: the normal interval doubled per consecutive failure. */
  errorCapMs: 120_000,
  /** While the tab is hidden (only when notifications are on; otherwise polling pauses). */
  hiddenMs: 30_000,
} as const;

interface PollState {
  /** Time since the task was created (or first looked up). */
  ageMs: number;
  /** Consecutive failed status requests. */
  errorStreak?: number;
  /** ApiError kind of the last failure, when errorStreak > 0. */
  errorKind?: string;
  /** The wait the service asked for with the last failure (Retry-After on 429/503, already bounded). */
  retryAfterMs?: number;
}

/** Kinds of failure after which polling stops: asking again would get the same answer. */
const FINAL_ERROR_KINDS = new Set([
  'not_found',
  'unavailable',
  'auth',
  'malformed',
  'validation',
  'business',
]);

export function isFinalPollError(kind: string | undefined): boolean {
  return kind !== undefined && FINAL_ERROR_KINDS.has(kind);
}

/**
 * Whether the poller should keep a query for this task at all. Here rather than in the poller, so
 * a screen can tell whether it needs the poller before loading it.
 */
export function needsPolling(record: { status: string; lastError?: { kind: string } }): boolean {
  if (isTerminalStatus(record.status)) return false;
  const kind = record.lastError?.kind;
  // 'unavailable' is checked again once per session (the backend may have gained the endpoint).
  return !(kind && kind !== 'unavailable' && isFinalPollError(kind));
}

export function baseInterval(ageMs: number): number {
  return Math.round(Math.min(POLL.maxMs, Math.max(POLL.minMs, ageMs * POLL.ageFactor)));
}

/** Delay before the next status request, or false when polling should stop. */
export function nextPollDelay({
  ageMs,
  errorStreak = 0,
  errorKind,
  retryAfterMs,
}: PollState): number | false {
  const base = baseInterval(ageMs);
  if (errorStreak <= 0 || !errorKind) return base;
  if (isFinalPollError(errorKind)) return false;
  // The service said when to come back: exactly then, neither sooner nor later.
  if (retryAfterMs !== undefined && (errorKind === 'rate_limit' || errorKind === 'server'))
    return retryAfterMs;
  const doubling = 2 ** Math.min(errorStreak - 1, 6);
  // Without Retry-After the provider's own advice holds: about 30 s, every time.
  if (errorKind === 'rate_limit') return Math.max(base, POLL.rateLimitMs);
  if (errorKind === 'server') return Math.min(POLL.errorCapMs, Math.max(base, POLL.serverErrorMs * doubling));
  return Math.min(POLL.errorCapMs, base * 2 * doubling);
}

/**
 * The fewest status requests that can observe a task of `durationMs` under this schedule: the
 * requests at the schedule's own ticks until the first one at or after the end. The benchmark
 * compares the real count with it (equal means no wasted or duplicate request).
 */
export function minimumPolls(durationMs: number, startAgeMs = 0): number {
  let t = startAgeMs;
  let polls = 1; // the first request goes out at once
  while (t < durationMs) {
    t += baseInterval(t);
    polls++;
  }
  return polls;
}
