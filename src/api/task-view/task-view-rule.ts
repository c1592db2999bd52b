// The one rule for "this task belongs to this view of the Tasks screen": which tab a status puts a
// task in, which fields the search covers and how its text is compared, how the kind and creator
// filters apply. Three places use it: the server's SQL (server/tasks/list-filter.ts, built from the pieces
// below; the `phase` and `search` columns of `tasks` are frozen in its migrations and equal
// phaseSql() and searchSql()), the live merge of pushed tasks and the offline view from this
// browser's history (src/features/tasks). src/api/task-view/task-view-rule.test.ts holds all three to it.
import { escapeLike } from '../escape-like';

export const TASK_TABS = ['all', 'running', 'succeeded', 'failed'] as const;
export type TaskTab = (typeof TASK_TABS)[number];
/** Every tab but "all": the tab of a single task. */
export const TASK_PHASES = ['running', 'succeeded', 'failed'] as const;
export type TaskPhase = (typeof TASK_PHASES)[number];

/**
 * The status alone decides the tab: exactly `SUCCEEDED` or `FAILED` end a task, anything else
 * ('' before the first answer, QUEUED, a task the service no longer finds) is still in progress.
 * What a browser knows beyond the status (a 404, a stale answer) shows on the card, not in the tab:
 * the server, which cannot know it, must put the task in the same tab.
 */
const PHASE_BY_STATUS: Readonly<Record<string, Exclude<TaskPhase, 'running'>>> = {
  SUCCEEDED: 'succeeded',
  FAILED: 'failed',
};

export function phaseOf(status: string): TaskPhase {
  return Object.hasOwn(PHASE_BY_STATUS, status) ? PHASE_BY_STATUS[status]! : 'running';
}

/** The phases a tab shows. */
export function tabPhases(tab: TaskTab): readonly TaskPhase[] {
  return tab === 'all' ? TASK_PHASES : [tab];
}

/**
 * The fields the search covers, in this order, joined by one space: so a search may run from the
 * end of one field into the next ("fox den" finds the prompt "red fox" named "den"), as the
 * database's `search` column does. The status is not searched: the tabs are for that.
 */
const SEARCHED_FIELDS = ['id', 'prompt', 'name', 'language', 'creator'] as const satisfies readonly Exclude<
  keyof ViewedTask,
  'kind' | 'status'
>[];

/** What the rule reads of a task. Absent and '' are the same. */
export interface ViewedTask {
  id: string;
  kind: string;
  status: string;
  prompt?: string;
  name?: string;
  language?: string;
  creator?: string;
  /** Epoch ms; the period filter passes a task without it (a record that has none). */
  createdAt?: number;
  /** The failure's code and reason (failureOf), for a failed task. */
  errorCode?: string;
  errorReason?: string;
}

/** The error code filter's value for a failure without a code. */
export const NO_ERROR_CODE = 'none';

/** A failure with no message of its own. */
const NO_REASON = 'No reason given';

/**
 * What a failed task failed with, as the server's SQL reads it (FAILURE_CODE and FAILURE_REASON in
 * server/db/failure-sql.ts): the status answer's error code and message, else the last error's.
 */
export function failureOf(task: { result?: unknown; lastError?: unknown }): {
  code?: string;
  reason: string;
} {
  const field = (value: unknown, key: string) => {
    const found = value && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined;
    return typeof found === 'string' || typeof found === 'number' ? String(found) : undefined;
  };
  const nonEmpty = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);
  const trimmed = (value: string | undefined) => nonEmpty(value?.trim());
  return {
    code:
      nonEmpty(field(task.result, 'error_code')) ??
      nonEmpty(field(task.result, 'code')) ??
      field(task.lastError, 'code'),
    reason:
      trimmed(field(task.result, 'error_message')) ?? trimmed(field(task.lastError, 'msg')) ?? NO_REASON,
  };
}

/**
 * How a view is ordered: newest first, longest running first, failed first, starred (by the person
 * asking) first (then newest).
 */
export const TASK_SORTS = ['newest', 'longest', 'failed', 'starred'] as const;
export type TaskSort = (typeof TASK_SORTS)[number];

/**
 * The view: a tab, and optionally a kind, a search text, a creator (exact, as recorded), a period
 * of creation (`from` inclusive, `to` exclusive, epoch ms), a failure's code or reason (exact, as
 * failureOf gives them: only failed tasks have one) and an order.
 */
export interface TaskViewQuery {
  tab: TaskTab;
  kind?: string;
  q?: string;
  creator?: string;
  from?: number;
  to?: number;
  errorCode?: string;
  errorReason?: string;
  sort?: TaskSort;
}

/** The server reads at most this much of a search (longer is cut, then trimmed). */
export const SEARCH_MAX_CHARS = 200;

/**
 * Lower case as PostgreSQL's lower() gives it (one character for one, the Unicode simple mapping
 * of a UTF-8 ctype, as PGlite has): JavaScript's toLowerCase() differs only in turning İ into two
 * characters and a word-final Σ into ς.
 */
export function lowerText(text: string): string {
  const simple = /[\u0130\u03a3]/.test(text)
    ? text.replace(/\u0130/g, 'i').replace(/\u03a3/g, '\u03c3')
    : text;
  return simple.toLowerCase();
}

/** The search text as compared: its first SEARCH_MAX_CHARS characters, trimmed, lower-cased; '' is no search. */
export function normaliseSearch(q: string | undefined): string {
  return lowerText((q ?? '').slice(0, SEARCH_MAX_CHARS).trim());
}

/** What a search looks in: the searched fields, '' for a missing one, joined by a space, lower-cased. */
export function searchTextOf(task: ViewedTask): string {
  return lowerText(SEARCHED_FIELDS.map((field) => task[field] ?? '').join(' '));
}

/**
 * The rule itself: the task is shown in this view. `textOf` gives the task's search text (a caller
 * that keeps it per task passes its cache; it must equal searchTextOf).
 */
export function matchesView(
  task: ViewedTask,
  query: TaskViewQuery,
  textOf: (task: ViewedTask) => string = searchTextOf,
): boolean {
  if (query.kind && task.kind !== query.kind) return false;
  if (query.creator && task.creator !== query.creator) return false;
  if (query.tab !== 'all' && phaseOf(task.status) !== query.tab) return false;
  if (task.createdAt !== undefined) {
    if (query.from !== undefined && task.createdAt < query.from) return false;
    if (query.to !== undefined && task.createdAt >= query.to) return false;
  }
  if (query.errorCode !== undefined || query.errorReason !== undefined) {
    if (phaseOf(task.status) !== 'failed') return false;
    if (query.errorCode !== undefined && (task.errorCode ?? NO_ERROR_CODE) !== query.errorCode) return false;
    if (query.errorReason !== undefined && task.errorReason !== query.errorReason) return false;
  }
  const search = normaliseSearch(query.q);
  return !search || textOf(task).includes(search);
}

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
const fieldOf = (value: unknown, key: string) =>
  value && typeof value === 'object' ? text((value as Record<string, unknown>)[key]) : undefined;

/**
 * A browser's record as the rule reads it, with the fields the server records where the record
 * only has the request and the answer: the prompt of the request; the name of the answer, else of
 * the request; the task's language, else the answer's.
 */
export function viewedFields(record: {
  id: string;
  kind: string;
  status: string;
  params?: unknown;
  result?: unknown;
  lastError?: unknown;
  createdAt?: number;
  prompt?: string;
  name?: string;
  language?: string;
  creator?: string;
}): ViewedTask {
  const failure = phaseOf(record.status) === 'failed' ? failureOf(record) : undefined;
  return {
    createdAt: record.createdAt,
    ...(failure && { errorCode: failure.code, errorReason: failure.reason }),
    id: record.id,
    kind: record.kind,
    status: record.status,
    prompt: text(record.prompt) ?? fieldOf(record.params, 'prompt'),
    name: text(record.name) ?? fieldOf(record.result, 'name') ?? fieldOf(record.params, 'name'),
    language: text(record.language) ?? fieldOf(record.result, 'language'),
    creator: text(record.creator),
  };
}

// The SQL side. The database cannot call the rule, so its pieces are derived from it here.

const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** The `phase` column of `tasks`, as generated (migration 0002). A function: the browser never needs it. */
export function phaseSql(): string {
  const cases = Object.entries(PHASE_BY_STATUS).map(
    ([status, phase]) => `when ${quote(status)} then ${quote(phase)}`,
  );
  return `case status ${cases.join(' ')} else 'running' end`;
}

/** The `search` column of `tasks`, as generated (migration 0002). */
export function searchSql(): string {
  const fields = SEARCHED_FIELDS.map((field) => (field === 'id' ? field : `coalesce(${field}, '')`));
  return `lower(${fields.join(" || ' ' || ")})`;
}

/** `search LIKE <this>`: "contains" the normalised search, its %, _ and \ taken literally; none for no search. */
export function searchLikePattern(q: string | undefined): string | undefined {
  const search = normaliseSearch(q);
  return search ? `%${escapeLike(search)}%` : undefined;
}
