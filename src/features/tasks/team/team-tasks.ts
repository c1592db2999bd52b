// The team's record, as the server answers it (`/__console/tasks`, server/tasks/routes.ts): one
// page of tasks newest first with the tab counts, or one task with its timeline. The answers are
// checked by hand, field by field, so zod stays out of this screen; a malformed item is dropped,
// never shown half-read.
import { isRecord as isObject } from '@/api/core/is-record';
import type { RequestFile } from '@/api/task-detail/request-files';
import { TASK_TYPES, type TaskType } from '@/api/core/rules';
import type { TaskRecord, TaskUpdateSource } from '@/features/tasks/history/task-record';
import type { TaskSort, TaskViewQuery } from '@/api/task-view/task-view-rule';
import type { TaskTab } from '@/features/tasks/shared/task-view';
import { parseCopies } from '@/features/tasks/shared/result-copies';
import { noteServerDate } from '@/features/tasks/shared/server-clock';

/** null: a search's count the server gave up on (`countsUnknown`), shown as "?". */
export type TaskCounts = Record<TaskTab, number | null>;

/** A task on the Tasks screen: the history record's shape plus who created it. */
export type TeamTask = TaskRecord & {
  creator?: string;
  /** The signed-in person who created it: "someone else's task" is decided by this id, not the name. */
  creatorId?: string;
  /** The creator's name was typed by whoever made the task, before sign-in identities were verified. */
  creatorUnverified?: boolean;
  /** The recorded prompt and output name (the server searches them). */
  prompt?: string;
  name?: string;
  batch?: string[];
  /** Files the creation request uploaded: shown with the parameters. */
  files?: RequestFile[];
  /** The request (one submission) that made it; none for a task looked up or named by a callback. */
  requestId?: string;
  /** The request's title: the prompt, else the output name, else the uploaded file's name. */
  title?: string;
  /** What the team said of it (server/reviews), read by the review badge itself (it loads on first use). */
  review?: unknown;
};

/** One submission (a request) and all its tasks, as the team's record has them. */
export interface TeamRequest {
  id: string;
  kind: TaskType;
  creator?: string;
  /** The creator's name was typed by whoever made the request, before sign-in identities were verified. */
  creatorUnverified?: boolean;
  createdAt: number;
  title?: string;
  params?: Record<string, unknown>;
  tasks: TeamTask[];
  /** "More like this": the request this one made again. */
  parentRequestId?: string;
  /** On a request's own page: the requests made again from it, newest first. */
  madeAgain?: { id: string; createdAt: number; creator?: string; taskCount: number }[];
}

export interface TaskPage {
  items: TeamTask[];
  /**
   * With `group: 'request'`: the requests of `items`, each with all its tasks (those the filters
   * leave out too), for the "By request" gallery.
   */
  requests?: TeamRequest[];
  nextCursor: string | null;
  counts?: TaskCounts;
  /** A search's counts stopped at the server's cap: a count there means "at least". */
  countsCapped?: boolean;
  /**
   * The server's search stopped at its time limit before filling the page: `items` are the matches
   * among the tasks it looked at (maybe none), and `nextCursor` goes on from the last of those.
   */
  cutShort?: boolean;
}

export interface TimelineEvent {
  at: number;
  source: string;
  status?: string;
  error?: { msg?: string; httpStatus?: number; code?: number };
}

export interface TaskDetail {
  task: TeamTask;
  events: TimelineEvent[];
}

/**
 * The server's filters: what the URL holds, with "Mine" already turned into a creator name. The
 * view's own filters (`TaskViewQuery`: tab, search, creator, period, failure), with a known kind and
 * another order than newest first.
 */
export interface TeamQuery extends Omit<TaskViewQuery, 'kind' | 'sort'> {
  kind?: TaskType;
  sort?: Exclude<TaskSort, 'newest'>;
  /** "By request": the page comes with its requests (`requests`), to show one card each. */
  group?: 'request';
  /** With the tasks I hid from my view (else the server leaves them out of the pages and counts). */
  hidden?: 'show';
  /** Only the results I starred (the Starred view). */
  starred?: 'only';
  /** Only the results someone asked changes on. */
  review?: 'changes_requested';
}

export const PAGE_SIZE = 60;

const str = (value: unknown) => (typeof value === 'string' ? value : undefined);
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const SOURCES = new Set(['created', 'lookup', 'callback']);
const LAST_SOURCES = new Set(['poll', 'callback', 'lookup', 'import']);

/** One item of the list or the feed, or undefined when it is not a task. */
export function toTeamTask(value: unknown): TeamTask | undefined {
  if (!isObject(value)) return undefined;
  const { id, kind, status, createdAt, updatedAt } = value;
  if (typeof id !== 'string' || !id || !(TASK_TYPES as readonly string[]).includes(kind as string))
    return undefined;
  if (typeof status !== 'string' || num(createdAt) === undefined) return undefined;
  const lastError = isObject(value.lastError) ? value.lastError : undefined;
  return {
    id,
    kind: kind as TaskType,
    source: SOURCES.has(value.source as string) ? (value.source as TaskRecord['source']) : 'lookup',
    params: isObject(value.params) ? value.params : undefined,
    batch: Array.isArray(value.batch)
      ? value.batch.filter((v): v is string => typeof v === 'string')
      : undefined,
    language: str(value.language),
    prompt: str(value.prompt),
    name: str(value.name),
    creator: str(value.creator),
    creatorId: str(value.creatorId),
    ...(value.creatorUnverified === true && { creatorUnverified: true }),
    requestId: str(value.requestId),
    title: str(value.title),
    copies: parseCopies(value.copies),
    ...(isObject(value.review) && { review: value.review }),
    status,
    result: isObject(value.result) ? value.result : {},
    lastError: lastError && {
      kind: str(lastError.kind) ?? 'status',
      httpStatus: num(lastError.httpStatus) ?? 0,
      code: num(lastError.code),
      msg: str(lastError.msg) ?? '',
      at: num(lastError.at) ?? 0,
    },
    lastSource: LAST_SOURCES.has(value.lastSource as string)
      ? (value.lastSource as TaskUpdateSource)
      : undefined,
    createdAt: createdAt as number,
    updatedAt: num(updatedAt) ?? (createdAt as number),
    finishedAt: num(value.finishedAt),
    lastCheckedAt: num(value.lastCheckedAt),
    files: Array.isArray(value.files)
      ? value.files.filter(
          (f): f is { field: string; url: string; name: string } =>
            isObject(f) &&
            typeof f.field === 'string' &&
            typeof f.url === 'string' &&
            typeof f.name === 'string',
        )
      : undefined,
  };
}

/** A request of the record's answer, checked by hand; undefined when it is not one. */
export function toTeamRequest(data: unknown): TeamRequest | undefined {
  if (!isObject(data) || typeof data.id !== 'string' || num(data.createdAt) === undefined) return undefined;
  const kind = (TASK_TYPES as readonly string[]).includes(data.kind as string)
    ? (data.kind as TaskType)
    : 'image_generate';
  return {
    id: data.id,
    kind,
    creator: str(data.creator),
    ...(data.creatorUnverified === true && { creatorUnverified: true }),
    createdAt: data.createdAt as number,
    title: str(data.title),
    params: isObject(data.params) ? data.params : undefined,
    tasks: (Array.isArray(data.tasks) ? data.tasks : []).map(toTeamTask).filter(defined),
    ...(typeof data.parentRequestId === 'string' && { parentRequestId: data.parentRequestId }),
    ...(Array.isArray(data.madeAgain) && {
      madeAgain: data.madeAgain.flatMap((each: unknown) =>
        isObject(each) && typeof each.id === 'string' && num(each.createdAt) !== undefined
          ? [
              {
                id: each.id,
                createdAt: each.createdAt as number,
                creator: str(each.creator),
                taskCount: num(each.taskCount) ?? 0,
              },
            ]
          : [],
      ),
    }),
  };
}

function toCounts(value: unknown): TaskCounts | undefined {
  if (!isObject(value)) return undefined;
  const counts: TaskCounts = { all: 0, running: 0, succeeded: 0, failed: 0 };
  for (const tab of Object.keys(counts) as TaskTab[]) {
    const n = value[tab] === null ? null : num(value[tab]);
    if (n === undefined) return undefined;
    counts[tab] = n;
  }
  return counts;
}

export function toEvent(value: unknown): TimelineEvent | undefined {
  if (!isObject(value) || num(value.at) === undefined || typeof value.source !== 'string') return undefined;
  return {
    at: value.at as number,
    source: value.source,
    status: str(value.status),
    error: isObject(value.error) ? value.error : undefined,
  };
}

const defined = <T>(value: T | undefined): value is T => value !== undefined;

/**
 * One entry of the team's record (a task, a request): its `data`, or null when the record has none
 * (404). Notes the server's clock from the answer, as every read of the record does.
 */
export async function fetchRecordEntry(path: string, signal?: AbortSignal): Promise<unknown> {
  const sentAt = Date.now();
  const response = await fetch(path, { headers: { accept: 'application/json' }, signal });
  noteServerDate(response.headers.get('date'), sentAt);
  if (response.status === 404) {
    // Read it to the end: an unread (compressed) body keeps the request open in the browser.
    await response.text().catch(() => '');
    return null;
  }
  return readData(response);
}

/** Reads the `{ code, msg, data }` envelope; a non-zero code or a non-JSON answer is an error. */
async function readData(response: Response): Promise<unknown> {
  const body = (await response.json().catch(() => undefined)) as {
    code?: unknown;
    msg?: unknown;
    data?: unknown;
  };
  if (!response.ok || !isObject(body) || body.code !== 0) {
    const msg = isObject(body) && typeof body.msg === 'string' ? body.msg : `HTTP ${response.status}`;
    throw Object.assign(new Error(msg), { status: response.status });
  }
  return body.data;
}

export function teamQueryParams(query: TeamQuery, page: { cursor?: string; limit?: number } = {}) {
  const params = new URLSearchParams({ tab: query.tab });
  if (query.kind) params.set('kind', query.kind);
  if (query.q) params.set('q', query.q);
  if (query.creator) params.set('creator', query.creator);
  if (query.from !== undefined) params.set('from', String(query.from));
  if (query.to !== undefined) params.set('to', String(query.to));
  if (query.errorCode) params.set('code', query.errorCode);
  if (query.errorReason) params.set('reason', query.errorReason);
  if (query.sort) params.set('sort', query.sort);
  if (query.group) params.set('group', query.group);
  if (query.hidden) params.set('hidden', query.hidden);
  if (query.starred) params.set('starred', query.starred);
  if (query.review) params.set('review', query.review);
  if (page.limit === 0) return params;
  params.set('limit', String(page.limit ?? PAGE_SIZE));
  if (page.cursor) params.set('cursor', page.cursor);
  return params;
}

export async function fetchTaskPage(
  query: TeamQuery,
  page: { cursor?: string; limit?: number; signal?: AbortSignal } = {},
): Promise<TaskPage> {
  const sentAt = Date.now();
  const response = await fetch(`/__console/tasks?${teamQueryParams(query, page).toString()}`, {
    headers: { accept: 'application/json' },
    signal: page.signal,
  });
  noteServerDate(response.headers.get('date'), sentAt);
  const data = await readData(response);
  if (!isObject(data) || !Array.isArray(data.items)) throw new Error('The task list answer is not a list');
  return {
    items: data.items.map(toTeamTask).filter(defined),
    nextCursor: typeof data.nextCursor === 'string' ? data.nextCursor : null,
    counts: toCounts(data.counts),
    ...(query.group && {
      requests: (Array.isArray(data.requests) ? data.requests : []).map(toTeamRequest).filter(defined),
    }),
    ...(data.countsCapped === true ? { countsCapped: true } : {}),
    ...(data.cutShort === true && typeof data.nextCursor === 'string' ? { cutShort: true } : {}),
  };
}

/** One failure of the view: its code (none for a failure without one), its reason, how many failed with it. */
export interface FailureCount {
  code: string | null;
  reason: string;
  count: number;
}

/**
 * The failed tasks of the view (its failure filter left out), grouped by reason and by code with
 * counts: the error filter's choices (`/__console/tasks/errors`).
 */
export async function fetchFailures(
  query: TeamQuery,
  signal?: AbortSignal,
): Promise<{ reasons: FailureCount[]; codes: { code: string | null; count: number }[] }> {
  const params = teamQueryParams({ ...query, tab: 'all', group: undefined }, { limit: 0 });
  const data = await fetchRecordEntry(`/__console/tasks/errors?${params.toString()}`, signal);
  const rows = (value: unknown) => (isObject(data) && Array.isArray(value) ? value.filter(isObject) : []);
  const code = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    reasons: rows(isObject(data) ? data.reasons : undefined).map((row) => ({
      code: code(row.code),
      reason: str(row.reason) ?? '',
      count: num(row.count) ?? 0,
    })),
    codes: rows(isObject(data) ? data.codes : undefined).map((row) => ({
      code: code(row.code),
      count: num(row.count) ?? 0,
    })),
  };
}

/** The names the team's tasks were recorded with: the creator filter's pick list. */
export async function fetchCreators(signal?: AbortSignal): Promise<string[]> {
  const data = await fetchRecordEntry('/__console/tasks/creators', signal);
  const creators = isObject(data) && Array.isArray(data.creators) ? data.creators : [];
  return creators.filter((name): name is string => typeof name === 'string');
}

/** The server's record of one task, or null when it has none (404). */
export async function fetchTaskDetail(id: string, signal?: AbortSignal): Promise<TaskDetail | null> {
  const data = await fetchRecordEntry(`/__console/tasks/${encodeURIComponent(id)}`, signal);
  if (data === null) return null;
  const task = isObject(data) ? toTeamTask(data.task) : undefined;
  if (!task || !isObject(data)) throw new Error('The task answer is not a task');
  return { task, events: (Array.isArray(data.events) ? data.events : []).map(toEvent).filter(defined) };
}

/** Query keys in layers: everything, the lists (any filters), one list, one task. */
export const teamKeys = {
  all: ['team-tasks'] as const,
  lists: () => [...teamKeys.all, 'list'] as const,
  list: (query: TeamQuery) => [...teamKeys.lists(), query] as const,
  detail: (id: string) => [...teamKeys.all, 'detail', id] as const,
  failures: (query: TeamQuery) => [...teamKeys.all, 'failures', query] as const,
  creators: () => [...teamKeys.all, 'creators'] as const,
};
