// What a zip of the Tasks screen's selection is called when its tasks come from more than one
// request (the server names a single request's zip after the request): the view, in words, and
// its days ("Failed tasks, 2026-11-28"; "Tasks, Image generation, Maya Okafor, 2026-11-21 to 2026-11-27").
import { TASK_TYPE_LABELS } from '@/api/query/task-types';
import { ZIP_NAME_MAX } from '@/api/bulk-rules';
import type { TaskTab } from '@/features/tasks/shared/task-view';
import type { TeamQuery } from '@/features/tasks/team/team-tasks';
import { dayString } from './task-url-filters';

const TAB_WORDS: Record<TaskTab, string> = {
  all: 'Tasks',
  running: 'Tasks in progress',
  succeeded: 'Succeeded tasks',
  failed: 'Failed tasks',
};

/**
 * The period's days in this browser's time zone: the server's `to` is the start of the day after
 * the last one. Without a period, the day of the download.
 */
function daysOf(query: Pick<TeamQuery, 'from' | 'to'>, now: Date): string {
  const first = query.from !== undefined ? dayString(new Date(query.from)) : undefined;
  const last = query.to !== undefined ? dayString(new Date(query.to), -1) : undefined;
  if (first && last) return first === last ? first : `${first} to ${last}`;
  if (first) return `from ${first}`;
  if (last) return `to ${last}`;
  return dayString(now);
}

export function viewZipName(query: TeamQuery, now = new Date()): string {
  const parts = [
    TAB_WORDS[query.tab],
    query.kind && TASK_TYPE_LABELS[query.kind],
    query.creator,
    query.starred === 'only' && 'starred',
    query.errorReason,
    query.errorCode && `code ${query.errorCode}`,
    query.q && `matching ${query.q}`,
    daysOf(query, now),
  ];
  return parts.filter(Boolean).join(', ').slice(0, ZIP_NAME_MAX);
}
