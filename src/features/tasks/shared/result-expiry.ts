// The service keeps result files for about 7 days. Past that a task's links lead nowhere, so the
// card and the detail say "Result expired" instead of mounting a player or an image that will fail
// (and offer no download). The clock starts when the task finished, or when it was created if the
// finish time is unknown (a task looked up long after).
// A result kept in the team's storage (./result-copies.ts) does not expire: the card shows it from
// there, and says where it lives (ResultHome).
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { isResultKept } from './result-copies';
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

/**
 * For components: whether the result can no longer be shown (its service link expired and no copy
 * is kept). The clock is read when the card renders, then hourly while it stays on screen.
 */
export function useResultExpired(
  record: Pick<TaskRecord, 'kind' | 'status' | 'createdAt' | 'finishedAt' | 'copies'>,
): boolean {
  const now = useNow(record.status === 'SUCCEEDED', 3_600_000);
  return !isResultKept(record) && isResultExpired(record, now);
}

/** Whole days left before the service's link expires (at least 1 while it has not). */
export function daysLeft(record: Pick<TaskRecord, 'createdAt' | 'finishedAt'>, now: number): number {
  return Math.max(1, Math.ceil((resultExpiresAt(record) - now) / (24 * 3600 * 1000)));
}
