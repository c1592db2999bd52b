// A bulk re-run (./bulk-bar.tsx), request by request, and what became of each selected task: sent
// again, or not and why. A limit (the service's rate limit, the console's own spending limits: both
// HTTP 429) or an unreachable service stops it there, since the next request would meet the same
// answer; the tasks not sent stay selected, so "Re-run…" again sends those and only those (nothing
// is lost, nothing is paid for twice). Another refusal (a request the service turns down) is that
// request's alone: the others still go.
import { ApiError } from '@/api/errors';
import { LIMIT_REFUSAL_CODE } from '@/api/limits';
import type { TeamTask } from '@/features/tasks/team/team-tasks';

/** One request a re-run sends: the task whose request it is, and the selected tasks it re-runs. */
interface RerunGroup {
  task: TeamTask;
  tasks: TeamTask[];
}

/**
 * The requests a re-run sends: one per translation task (one language each), one per request of
 * the other kinds (its params make all its images or videos again, so its tasks go together).
 */
function rerunGroups(tasks: readonly TeamTask[]): RerunGroup[] {
  const groups = new Map<string, RerunGroup>();
  for (const task of tasks) {
    const key = task.kind === 'video_translate' ? task.id : (task.requestId ?? task.batch?.[0] ?? task.id);
    const group = groups.get(key);
    if (group) group.tasks.push(task);
    else groups.set(key, { task, tasks: [task] });
  }
  return [...groups.values()];
}

export interface NotRerun {
  id: string;
  task?: TeamTask;
  why: string;
}

export interface RerunOutcome {
  /** The selected tasks whose request was sent again. */
  sent: TeamTask[];
  /** How many requests were sent. */
  requests: number;
  notSent: NotRerun[];
  /** What stopped the re-run part-way (a limit, the service unreachable), if anything did. */
  stoppedBy?: string;
}

const seconds = (ms: number) => `${Math.max(1, Math.ceil(ms / 1000)).toLocaleString()} s`;

/** Why a request was not sent, and whether the requests after it would meet the same answer. */
export function refusalOf(error: unknown): { why: string; stop: boolean } {
  if (!(error instanceof ApiError)) return { why: (error as Error).message || String(error), stop: true };
  const later = error.retryAfterMs === undefined ? '' : `; try again in ${seconds(error.retryAfterMs)}`;
  if (error.httpStatus === 429 && error.code === LIMIT_REFUSAL_CODE)
    return { why: `a spending limit of this console: ${error.msg}${later}`, stop: true };
  if (error.httpStatus === 429)
    return {
      why: `the service's rate limit (HTTP 429: ${error.msg || 'too many requests'})${later}`,
      stop: true,
    };
  if (error.isTransient)
    return { why: `the service could not take it (${error.message})${later}`, stop: true };
  return { why: `the service refused it: ${error.message}`, stop: false };
}

/**
 * Sends each group's request with `send`, in order, and says what became of every selected task.
 * `found`: each selected id with the task the screen or the server has for it (none: no record).
 */
export async function rerunSelected(
  found: readonly { id: string; task?: TeamTask }[],
  send: (task: TeamTask) => Promise<unknown>,
): Promise<RerunOutcome> {
  const outcome: RerunOutcome = { sent: [], requests: 0, notSent: [] };
  for (const { id, task } of found)
    if (!task?.params)
      outcome.notSent.push({
        id,
        task,
        why: task
          ? 'this console does not have the request that made it (looked up or heard of by callback)'
          : 'this console has no record of it',
      });
  const groups = rerunGroups(found.flatMap(({ task }) => (task?.params ? [task] : [])));
  for (const group of groups) {
    if (outcome.stoppedBy) {
      outcome.notSent.push(
        ...group.tasks.map((task) => ({ id: task.id, task, why: 'not sent: stopped before it' })),
      );
      continue;
    }
    try {
      await send(group.task);
      outcome.sent.push(...group.tasks);
      outcome.requests++;
    } catch (error) {
      const { why, stop } = refusalOf(error);
      outcome.notSent.push(...group.tasks.map((task) => ({ id: task.id, task, why })));
      if (stop) outcome.stoppedBy = why;
    }
  }
  return outcome;
}
