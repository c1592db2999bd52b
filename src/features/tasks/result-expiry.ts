// The service keeps result files for about 7 days. Past that a task's links lead nowhere, so the
// card and the detail say "Result expired" instead of mounting a player or an image that will fail
// (and offer no download). The clock starts when the task finished, or when it was created if the
// finish time is unknown (a task looked up long after).
import type { TaskRecord } from './history';
import { useNow } from './use-now';

export const RESULT_LIFETIME_MS = 7 * 24 * 3600 * 1000;

export function resultExpiresAt(record: Pick<TaskRecord, 'createdAt' | 'finishedAt'>): number {
  return (record.finishedAt ?? record.createdAt) + RESULT_LIFETIME_MS;
}

/** Only a SUCCEEDED task has result links to expire. */
export function isResultExpired(
  record: Pick<TaskRecord, 'status' | 'createdAt' | 'finishedAt'>,
  now: number,
): boolean {
  return record.status === 'SUCCEEDED' && now >= resultExpiresAt(record);
}

/** For components: the clock is read when the card renders, then hourly while it stays on screen. */
export function useResultExpired(record: Pick<TaskRecord, 'status' | 'createdAt' | 'finishedAt'>): boolean {
  const now = useNow(record.status === 'SUCCEEDED', 3_600_000);
  return isResultExpired(record, now);
}
