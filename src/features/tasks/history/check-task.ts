// "Check again" and lookups: the server asks the service about a task now and answers with the
// record (server/follow/routes.ts). Apart from the team's list: only a task's page, the look-up
// form and an imported history file use it.
import { isRecord as isObject } from '@/api/core/is-record';
import type { TaskType } from '@/api/core/rules';
import type { TaskError } from './task-record';
import { toEvent, toTeamTask, type TaskDetail } from '@/features/tasks/team/team-tasks';

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const defined = <T>(value: T | undefined): value is T => value !== undefined;

/** What "Check again" or a lookup got: the task as the record now holds it, or why the service could not tell. */
export type CheckedTask = { found: TaskDetail } | { error: TaskError };

/**
 * Asks the server to ask the service about the task now (`POST /__console/tasks/<id>/check`): the
 * server records the answer and answers with the record. `kind` names an id the record lacks.
 */
export async function checkTask(id: string, kind?: TaskType): Promise<CheckedTask> {
  const query = kind ? `?kind=${encodeURIComponent(kind)}` : '';
  let response: Response;
  try {
    response = await fetch(`/__console/tasks/${encodeURIComponent(id)}/check${query}`, {
      method: 'POST',
      headers: { accept: 'application/json' },
    });
  } catch {
    return { error: errorOf('network', 0, undefined, 'The console could not be reached') };
  }
  const body: unknown = await response.json().catch(() => undefined);
  const data = isObject(body) ? body.data : undefined;
  const task = isObject(data) ? toTeamTask(data.task) : undefined;
  if (response.ok && task && isObject(data))
    return {
      found: { task, events: (Array.isArray(data.events) ? data.events : []).map(toEvent).filter(defined) },
    };
  const cause = isObject(body) && isObject(body.error) ? body.error : undefined;
  const msg = str(cause?.msg) ?? (isObject(body) ? str(body.msg) : undefined) ?? `HTTP ${response.status}`;
  const kindOfError =
    str(cause?.kind) ??
    (response.status === 429 ? 'rate_limit' : response.status === 404 ? 'not_found' : 'server');
  return { error: errorOf(kindOfError, num(cause?.httpStatus) ?? response.status, num(cause?.code), msg) };
}

const errorOf = (kind: string, httpStatus: number, code: number | undefined, msg: string): TaskError => ({
  kind,
  httpStatus,
  ...(code !== undefined && { code }),
  msg,
  at: Date.now(),
});
