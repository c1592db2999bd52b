// A task as the browser gets it (the shape of its own task record), made from a row of `tasks`,
// with where its result files stand, and its timeline's events.
import type { Selectable } from 'kysely';
import type { RequestFile } from '../../src/api/task-detail/request-files';
import type { Db } from '../db/database';
import type { TaskEventsTable, TasksTableRow } from '../db/schema';
import { copiesOf, type TaskCopies } from '../results/routes';
import type { ReviewSummary } from '../../src/api/reviews';
import { addReviews } from '../reviews/summary';
import { taskTitle } from './request-fields';

/** What the browser gets: the shape of its own task record, times in epoch milliseconds. */
export interface TaskView {
  id: string;
  kind: string;
  source: string;
  params?: Record<string, unknown>;
  batch?: string[];
  prompt?: string;
  name?: string;
  language?: string;
  creator?: string;
  /** The signed-in person who created it (absent for a name typed before sign-in identities). */
  creatorId?: string;
  /** The creator's name was typed, not verified (recorded before sign-in identities). */
  creatorUnverified?: boolean;
  status: string;
  result: Record<string, unknown>;
  lastError?: unknown;
  lastSource?: string;
  createdAt: number;
  updatedAt: number;
  finishedAt?: number;
  lastCheckedAt?: number;
  /** Files uploaded through the console into the request, with their names. */
  files?: RequestFile[];
  /** The request that created it (absent for a task looked up or named by a callback). */
  requestId?: string;
  /** What people call it: the request's title (the prompt, else the output name, else the file's name). */
  title?: string;
  /**
   * Its result files in the team's store (server/results): the kept ones by role with their
   * same-origin paths, the ones lost (failed, or expired before they could be copied), the ones
   * waiting. Absent while nothing is queued.
   */
  copies?: TaskCopies;
  /** What the team said of it: decisions and comments counted (server/reviews); absent when none. */
  review?: ReviewSummary;
}

export interface TaskEventView {
  at: number;
  source: string;
  status?: string;
  error?: unknown;
}

const optional = <T>(value: T | null) => (value === null ? undefined : value);

export function toTaskView(row: TasksTableRow): TaskView {
  return {
    id: row.id,
    kind: row.kind,
    source: row.source,
    params: optional(row.params) ?? undefined,
    batch: optional(row.batch) ?? undefined,
    prompt: optional(row.prompt),
    name: optional(row.name),
    language: optional(row.language),
    creator: optional(row.creator),
    creatorId: optional(row.creator_id),
    // A name recorded before identities were verified (typed by whoever made the task).
    ...(row.creator !== null && row.creator_id === null && { creatorUnverified: true }),
    status: row.status,
    result: row.result,
    lastError: optional(row.last_error),
    lastSource: optional(row.last_source),
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
    finishedAt: row.finished_at?.getTime(),
    lastCheckedAt: row.last_checked_at?.getTime(),
    files: optional(row.files) ?? undefined,
    requestId: optional(row.request_id) ?? undefined,
    title: taskTitle(row) ?? undefined,
  };
}

/**
 * Adds where each task's result files stand (`copies`), in one query for all of them, and what the
 * team said of each (`review`): every place that hands out task views goes through here.
 */
export async function addCopies<T extends TaskView>(db: Db, views: T[]): Promise<T[]> {
  const [copies] = await Promise.all([
    copiesOf(
      db,
      views.filter((view) => view.status === 'SUCCEEDED').map((view) => view.id),
    ),
    addReviews(db, views),
  ]);
  for (const view of views) {
    const found = copies.get(view.id);
    if (found) view.copies = found;
  }
  return views;
}

export function toEventView(row: Selectable<TaskEventsTable>): TaskEventView {
  return {
    at: row.at.getTime(),
    source: row.source,
    status: optional(row.status) ?? undefined,
    error: optional(row.error) ?? undefined,
  };
}
