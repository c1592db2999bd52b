// Polling of task status with TanStack Query: the status query of src/api/queries.ts, wrapped in the
// shared in-flight cap, writing every answer to the history through applyTaskUpdate (the same path
// callbacks use), with an interval that follows poll-schedule.ts and stops at a terminal status.
import type { TaskType } from '@/api/schemas';
import { queryOptions } from '@tanstack/react-query';
import { ApiError, isApiError } from '@/api/errors';
import { fetchTaskStatus, taskKeys, type TaskStatusData } from '@/api/queries';
import { isTerminalStatus } from '@/api/status';
import { applyTaskUpdate, peekTask, recordTaskError, type TaskRecord } from './history';
import { isFinalPollError, nextPollDelay, POLL } from './poll-schedule';
import { storedConcurrency } from './poll-settings';
import { createSemaphore, type Semaphore } from './semaphore';

export interface PollerDeps {
  semaphore: Semaphore;
  fetchStatus: typeof fetchTaskStatus;
  now: () => number;
  isHidden: () => boolean;
}

export const pollSemaphore = createSemaphore(storedConcurrency());

const defaultDeps: PollerDeps = {
  semaphore: pollSemaphore,
  fetchStatus: fetchTaskStatus,
  now: () => Date.now(),
  isHidden: () => typeof document !== 'undefined' && document.visibilityState === 'hidden',
};

interface Streak {
  count: number;
  kind: string;
}
const streaks = new Map<string, Streak>();
/** Kinds whose query endpoint this backend lacks (404 without a business code), learned per session. */
const unavailableKinds = new Set<TaskType>();

export function resetPollerMemoryForTests() {
  streaks.clear();
  unavailableKinds.clear();
}

/** Whether the poller should keep a query for this task at all. */
export function needsPolling(record: TaskRecord): boolean {
  if (isTerminalStatus(record.status)) return false;
  const kind = record.lastError?.kind;
  // 'unavailable' is checked again once per session (the backend may have gained the endpoint).
  return !(kind && kind !== 'unavailable' && isFinalPollError(kind));
}

async function pollOnce(
  kind: TaskType,
  id: string,
  deps: PollerDeps,
  signal?: AbortSignal,
): Promise<TaskStatusData | null> {
  return deps.semaphore.run(async () => {
    // A callback may have finished the task while this request waited for a slot.
    const known = peekTask(id);
    if (known && isTerminalStatus(known.status)) return (known.result as TaskStatusData | undefined) ?? null;
    try {
      if (unavailableKinds.has(kind)) {
        throw new ApiError({
          kind: 'unavailable',
          httpStatus: 404,
          msg: 'No status endpoint for this kind of task here',
        });
      }
      const data = await deps.fetchStatus(kind, id, signal);
      streaks.delete(id);
      await applyTaskUpdate(id, kind, data, 'poll');
      return data;
    } catch (cause) {
      if (signal?.aborted) throw cause;
      const error = isApiError(cause)
        ? cause
        : new ApiError({ kind: 'malformed', msg: String(cause), cause });
      const previous = streaks.get(id);
      streaks.set(id, { count: (previous?.count ?? 0) + 1, kind: error.kind });
      if (error.kind === 'unavailable') unavailableKinds.add(kind);
      await recordTaskError(id, error);
      throw error;
    }
  }, signal);
}

/** Milliseconds until the next status request of this task, or false to stop. */
export function pollInterval(
  id: string,
  deps: Pick<PollerDeps, 'now' | 'isHidden'> = defaultDeps,
): number | false {
  const record = peekTask(id);
  if (!record || isTerminalStatus(record.status)) return false;
  const streak = streaks.get(id);
  const delay = nextPollDelay({
    ageMs: deps.now() - record.createdAt,
    errorStreak: streak?.count,
    errorKind: streak?.kind,
  });
  if (delay === false) return false;
  return deps.isHidden() ? Math.max(delay, POLL.hiddenMs) : delay;
}

/**
 * The polled status query of one task. `background` keeps polling while the tab is hidden (only
 * when the user asked to be notified); otherwise TanStack Query pauses the interval while hidden.
 */
export function taskPollQuery(kind: TaskType, id: string, { background = false, deps = defaultDeps } = {}) {
  // deps is the transport (tests inject one): a task has one cache entry whatever fetches it.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  return queryOptions({
    queryKey: taskKeys.task(kind, id),
    queryFn: ({ signal }) => pollOnce(kind, id, deps, signal),
    // The schedule handles failures itself (longer waits after 429/5xx); no quick-fire retries.
    retry: false,
    staleTime: 0,
    gcTime: 60_000,
    refetchOnWindowFocus: false,
    refetchOnReconnect: true,
    refetchInterval: () => pollInterval(id, deps),
    refetchIntervalInBackground: background,
  });
}

/** "Check again": forget earlier failures of this task (and its kind's missing endpoint), then ask. */
export function forgetPollFailures(kind: TaskType, id: string) {
  streaks.delete(id);
  unavailableKinds.delete(kind);
}
