// Polling of task status with TanStack Query: one status query per task, behind the shared
// in-flight cap, writing every answer to the history through applyTaskUpdate (the same path
// callbacks use), with an interval that follows poll-schedule.ts and stops at a terminal status.
import type { TaskType } from '@/api/schemas';
import { queryOptions, type QueryClient, type QueryKey, type QueryState } from '@tanstack/react-query';
import { ApiError, isApiError } from '@/api/errors';
import { fetchTaskStatus, taskKeys, type TaskStatusData } from '@/api/endpoints';
import { isTerminalStatus } from '@/api/status';
import {
  addLookedUpTasks,
  applyTaskUpdate,
  peekTask,
  recordTaskError,
} from '@/features/tasks/history/history';
import { toTaskError, type TaskError } from '@/features/tasks/history/task-record';
import { needsPolling, nextPollDelay, POLL } from '@/api/core/follow-schedule';
import { pollSemaphore } from './poll-semaphore';
import type { Semaphore } from './semaphore';

export interface PollerDeps {
  semaphore: Semaphore;
  fetchStatus: typeof fetchTaskStatus;
  now: () => number;
  isHidden: () => boolean;
  /** Kinds whose query endpoint this backend lacks (404 without a business code), learned per session. */
  unavailableKinds: Set<TaskType>;
}

export { needsPolling, pollSemaphore };

const defaultDeps: PollerDeps = {
  semaphore: pollSemaphore,
  fetchStatus: fetchTaskStatus,
  now: () => Date.now(),
  isHidden: () => typeof document !== 'undefined' && document.visibilityState === 'hidden',
  unavailableKinds: new Set(),
};

/** A failed status request, with how many in a row have failed (the backoff reads it). */
export type PollFailure = ApiError & { readonly streak?: number };

async function pollOnce(
  kind: TaskType,
  id: string,
  deps: PollerDeps,
  { signal, client, queryKey }: { signal?: AbortSignal; client?: QueryClient; queryKey?: QueryKey } = {},
): Promise<TaskStatusData | null> {
  return deps.semaphore.run(async () => {
    // A callback may have finished the task while this request waited for a slot.
    const known = peekTask(id);
    if (known && isTerminalStatus(known.status)) return (known.result as TaskStatusData | undefined) ?? null;
    try {
      if (deps.unavailableKinds.has(kind)) {
        throw new ApiError({
          kind: 'unavailable',
          httpStatus: 404,
          msg: 'No status endpoint for this kind of task here',
        });
      }
      const data = await deps.fetchStatus(kind, id, signal);
      await applyTaskUpdate(id, kind, data, 'poll');
      return data;
    } catch (cause) {
      if (signal?.aborted) throw cause;
      const error = isApiError(cause)
        ? cause
        : new ApiError({ kind: 'malformed', msg: String(cause), cause });
      // The streak lives in the query's own state: the last failure carries it, a success ends it.
      const previous = queryKey && client?.getQueryState<unknown, PollFailure>(queryKey);
      const failedLast = previous?.error && previous.errorUpdatedAt >= previous.dataUpdatedAt;
      const streak = failedLast ? (previous.error?.streak ?? 0) + 1 : 1;
      if (error.kind === 'unavailable') deps.unavailableKinds.add(kind);
      await recordTaskError(id, error);
      throw Object.assign(error, { streak }) as PollFailure;
    }
  }, signal);
}

/**
 * Milliseconds until the next status request, or false to stop, from the query's own state (as in
 * TanStack Query's polling guide): its last answer, its last failure and the task's age.
 */
export function pollInterval(
  state: Pick<
    QueryState<TaskStatusData | null, PollFailure>,
    'data' | 'error' | 'dataUpdatedAt' | 'errorUpdatedAt'
  >,
  createdAt: number,
  deps: Pick<PollerDeps, 'now' | 'isHidden'> = defaultDeps,
): number | false {
  if (isTerminalStatus(state.data?.status ?? '')) return false;
  const failure: PollFailure | undefined =
    state.error && state.errorUpdatedAt >= state.dataUpdatedAt ? state.error : undefined;
  const delay = nextPollDelay({
    ageMs: deps.now() - createdAt,
    errorStreak: failure && (failure.streak ?? 1),
    errorKind: failure?.kind,
    retryAfterMs: failure?.retryAfterMs,
  });
  if (delay === false) return false;
  return deps.isHidden() ? Math.max(delay, POLL.hiddenMs) : delay;
}

/**
 * The status query of one task: the one definition of the key ['tasks', kind, id], used by the
 * poller, the detail page and lookups alike. Every answer goes to the history. `background` keeps
 * polling while the tab is hidden (only when the user asked to be notified); otherwise TanStack
 * Query pauses the interval while hidden.
 */
export function taskStatusQuery(
  kind: TaskType,
  id: string,
  { background = false, deps = defaultDeps, createdAt = peekTask(id)?.createdAt ?? deps.now() } = {},
) {
  // deps is the transport (tests inject one): a task has one cache entry whatever fetches it.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  return queryOptions({
    queryKey: taskKeys.task(kind, id),
    queryFn: (context) => pollOnce(kind, id, deps, context),
    // The schedule handles failures itself (longer waits after 429/5xx); no quick-fire retries.
    retry: false,
    staleTime: 0,
    gcTime: 60_000,
    refetchOnWindowFocus: false,
    refetchOnReconnect: true,
    refetchInterval: (query) => pollInterval(query.state, createdAt, deps),
    refetchIntervalInBackground: background,
    // A poller mounting on a failed request (a lookup's, or another screen's) keeps to the schedule
    // (Retry-After, backoff) instead of asking again at once.
    retryOnMount: false,
  });
}

const lookups = new Map<string, Promise<TaskError | undefined>>();

/**
 * A task opened by its id that this browser does not have: asked once (the status query's first
 * request) before it is recorded, so a task that has finished goes into the history as it is and
 * is never followed: no poller and no callback stream load for it. A running task, or one that
 * could not be asked, is recorded for the poller, which takes over from this answer. An id the
 * service does not know (mistyped, or expired) is recorded nowhere: its error is returned for the
 * page to show.
 */
export function lookUpTask(client: QueryClient, kind: TaskType, id: string): Promise<TaskError | undefined> {
  let lookup = lookups.get(id);
  if (!lookup) {
    lookup = client
      .fetchQuery(taskStatusQuery(kind, id))
      .then(
        // The answer is in the history already (pollOnce), whatever it said.
        () => undefined,
        async (cause: unknown) => {
          if (peekTask(id)) return undefined;
          if (isApiError(cause) && cause.kind === 'not_found') return toTaskError(cause);
          await addLookedUpTasks([
            { id, kind, lastError: isApiError(cause) ? toTaskError(cause) : undefined },
          ]);
          return undefined;
        },
      )
      .finally(() => lookups.delete(id));
    lookups.set(id, lookup);
  }
  return lookup;
}

/** "Check again": forget earlier failures of this task (and its kind's missing endpoint), then ask. */
export function forgetPollFailures(kind: TaskType) {
  defaultDeps.unavailableKinds.delete(kind);
}
