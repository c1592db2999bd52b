// The Tasks screen's questions, answered by the database: one page of the team's tasks (newest
// first, keyset-paged so page 500 costs what page 1 does), the tab counts, one task with its timeline.
import type { RequestFile } from '../../src/api/request-files';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { TaskEventsTable, TaskPhase } from '../db/schema';
import { escapeLike } from '../callbacks/store';
import type { TaskRow } from './recorder';

export const TASK_TABS = ['all', 'running', 'succeeded', 'failed'] as const;
export type TaskTab = (typeof TASK_TABS)[number];
export const PAGE_SIZE_MAX = 200;

export interface TaskFilter {
  tab: TaskTab;
  kind?: string;
  /** Contains, case-insensitive, in id, prompt, name, language or creator. */
  q?: string;
  creator?: string;
}

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
}

export interface TaskEventView {
  at: number;
  source: string;
  status?: string;
  error?: unknown;
}

export type TaskCounts = Record<TaskTab, number>;

const optional = <T>(value: T | null) => (value === null ? undefined : value);

export function toTaskView(row: TaskRow): TaskView {
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
    status: row.status,
    result: row.result,
    lastError: optional(row.last_error),
    lastSource: optional(row.last_source),
    createdAt: row.created_at.getTime(),
    updatedAt: row.updated_at.getTime(),
    finishedAt: row.finished_at?.getTime(),
    lastCheckedAt: row.last_checked_at?.getTime(),
    files: optional(row.files) ?? undefined,
  };
}

/** `<created_at ms>.<id>` of the last row of a page: where the next page starts. */
export function encodeCursor(view: Pick<TaskView, 'createdAt' | 'id'>): string {
  return `${view.createdAt}.${view.id}`;
}

function decodeCursor(cursor: string | undefined): { at: Date; id: string } | undefined {
  const match = /^(\d{1,15})\.(.+)$/.exec(cursor ?? '');
  return match ? { at: new Date(Number(match[1])), id: match[2]! } : undefined;
}

function filtered(db: Db, filter: Omit<TaskFilter, 'tab'>) {
  let query = db.selectFrom('tasks');
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.creator) query = query.where('creator', '=', filter.creator);
  const q = filter.q?.trim().toLowerCase();
  // `search` is lower-cased id, prompt, name, language and creator, behind a trigram index.
  if (q) query = query.where('search', 'like', `%${escapeLike(q)}%`);
  return query;
}

export async function listTasks(
  db: Db,
  filter: TaskFilter,
  page: { cursor?: string; limit: number },
): Promise<{ items: TaskView[]; nextCursor: string | null }> {
  let query = filtered(db, filter);
  if (filter.tab !== 'all') query = query.where('phase', '=', filter.tab as TaskPhase);
  const after = decodeCursor(page.cursor);
  if (after) query = query.where(sql<boolean>`(created_at, id) < (${after.at}, ${after.id})`);
  const rows = await query
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const items = rows.slice(0, page.limit).map(toTaskView);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last) : null };
}

/** With a search, a tab's count stops here: the browser shows "1,000+" (`countsCapped`). */
export const COUNT_CAP = 1000;

/**
 * How many tasks each tab holds under the same kind, search and creator. Without a search, exact,
 * from `task_counts` (kept by triggers). With one, each tab is counted up to COUNT_CAP: a common
 * word in a million prompts would otherwise mean counting hundreds of thousands of rows for every
 * keystroke. `capped` says some count reached the cap and means "at least".
 */
export async function countTasks(
  db: Db,
  filter: Omit<TaskFilter, 'tab'>,
): Promise<{ counts: TaskCounts; capped: boolean }> {
  const counts: TaskCounts = { all: 0, running: 0, succeeded: 0, failed: 0 };
  if (!filter.q?.trim()) {
    let query = db.selectFrom('task_counts');
    if (filter.kind) query = query.where('kind', '=', filter.kind);
    if (filter.creator) query = query.where('creator', '=', filter.creator);
    const rows = await query
      .select(['phase', (eb) => eb.fn.sum<number>('n').as('count')])
      .groupBy('phase')
      .execute();
    for (const row of rows) {
      counts[row.phase] = Number(row.count);
      counts.all += Number(row.count);
    }
    return { counts, capped: false };
  }
  // Most searches match fewer: one scan of at most COUNT_CAP rows then gives every tab exactly.
  const sample = await filtered(db, filter).select('phase').limit(COUNT_CAP).execute();
  if (sample.length < COUNT_CAP) {
    for (const row of sample) counts[row.phase]++;
    counts.all = sample.length;
    return { counts, capped: false };
  }
  // Else each tab is one "first COUNT_CAP rows" scan (the list's index walks), all in one query.
  const bounded = (tab: TaskTab) => {
    let query = filtered(db, filter);
    if (tab !== 'all') query = query.where('phase', '=', tab as TaskPhase);
    return db
      .selectFrom(
        query
          .select(sql`1`.as('one'))
          .limit(COUNT_CAP)
          .as('t'),
      )
      .select((eb) => eb.fn.countAll<number>().as('n'));
  };
  const row = await db.selectNoFrom(TASK_TABS.map((tab) => bounded(tab).as(tab))).executeTakeFirstOrThrow();
  for (const tab of TASK_TABS) counts[tab] = Number((row as Record<TaskTab, unknown>)[tab]);
  return { counts, capped: TASK_TABS.some((tab) => counts[tab] >= COUNT_CAP) };
}

function toEventView(row: Selectable<TaskEventsTable>): TaskEventView {
  return {
    at: row.at.getTime(),
    source: row.source,
    status: optional(row.status) ?? undefined,
    error: optional(row.error) ?? undefined,
  };
}

export async function getTask(
  db: Db,
  id: string,
): Promise<{ task: TaskView; events: TaskEventView[] } | undefined> {
  const row = await db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const events = await db
    .selectFrom('task_events')
    .selectAll()
    .where('task_id', '=', id)
    .orderBy('id')
    .execute();
  return { task: toTaskView(row), events: events.map(toEventView) };
}
