// A task as this browser's history keeps it: what it was asked, what the service last said, and
// how the console came to know it.
import type { RequestFile } from '@/api/task-detail/request-files';
import { TASK_TYPES, type TaskType } from '@/api/core/rules';
import type { ResultCopies } from '@/features/tasks/shared/result-copies';

export interface TaskError {
  kind: string;
  httpStatus: number;
  code?: number;
  msg: string;
  at: number;
}

export interface TaskRecord {
  id: string;
  kind: TaskType;
  /** How the console learned of the task. */
  source: 'created' | 'lookup' | 'callback';
  /** The creation request body, when this browser created the task. */
  params?: unknown;
  /** Files uploaded from this browser into the request's fields, with their names (not sent). */
  files?: RequestFile[];
  /** For video translations: the target language of this task. */
  language?: string;
  createdAt: number;
  updatedAt: number;
  /** Last known status, verbatim; '' before the first answer. */
  status: string;
  /** Last successful status response `data` (or callback `data`). */
  result?: Record<string, unknown>;
  lastError?: TaskError;
  /** The task this one re-runs. */
  rerunOf?: string;
  /** The image task whose result is this image-to-video task's start frame (Animate). */
  animatedFrom?: string;
  /** When this console first saw a terminal status. */
  finishedAt?: number;
  /** Last successful answer (poll or callback). */
  lastCheckedAt?: number;
  /** Where the last answer came from. */
  lastSource?: TaskUpdateSource;
  /** Its result files in the team's storage, as the team's record says (./result-copies.ts). */
  copies?: ResultCopies;
}

export type TaskUpdateSource = 'poll' | 'callback' | 'lookup' | 'import';

/** A status response `data` or a callback `data`: `status` plus whatever result fields it carries. */
export type TaskUpdate = { status?: string | null } & Record<string, unknown>;

/** What the history keeps of a failed request (an ApiError's fields), stamped now. */
export function toTaskError(error: {
  kind: string;
  httpStatus: number;
  code?: number;
  msg: string;
}): TaskError {
  return { kind: error.kind, httpStatus: error.httpStatus, code: error.code, msg: error.msg, at: Date.now() };
}

/** A stored value that is a task record (anything else in the database is skipped). */
export function isTaskRecord(value: unknown): value is TaskRecord {
  const r = value as TaskRecord | null;
  return Boolean(
    r &&
    typeof r.id === 'string' &&
    (TASK_TYPES as readonly string[]).includes(r.kind) &&
    typeof r.createdAt === 'number',
  );
}
