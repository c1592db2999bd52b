// The Tasks screen's questions, answered by the database: one page of the team's tasks (newest
// first, keyset-paged so page 500 costs what page 1 does), the tab counts, one task with its timeline.
import type { RequestFile } from '../../src/api/request-files';
import { sql, type RawBuilder, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../db/database';
import type { TaskEventsTable, TaskPhase } from '../db/schema';
import {
  NO_ERROR_CODE,
  searchLikePattern,
  TASK_PHASES,
  TASK_TABS,
  tabPhases,
  type TaskSort,
  type TaskTab,
  type TaskViewQuery,
} from '../../src/api/task-view-rule';
import { FAILURE_CODE, FAILURE_REASON } from '../db/failure-sql';
import { copiesOf, type TaskCopies } from '../results/routes';
import type { TaskRow } from './recorder';
import { taskTitle } from './request-fields';

export { TASK_TABS, type TaskTab };
export const PAGE_SIZE_MAX = 200;

/**
 * The view asked for, by the one rule of src/api/task-view-rule.ts: the tab's phases, the kind,
 * the creator, and "contains" over the searched fields (the `search` column); and, for a person
 * (`hiddenBy`, their user id), without the tasks they hid from their view (`hidden_tasks`).
 */
export type TaskFilter = TaskViewQuery & { hiddenBy?: string };

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
}

export interface TaskEventView {
  at: number;
  source: string;
  status?: string;
  error?: unknown;
}

/** null: not counted (a search's count that the time limit cut short). */
export type TaskCounts = Record<TaskTab, number | null>;

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

/** Adds where each task's result files stand (`copies`), in one query for all of them. */
export async function addCopies<T extends TaskView>(db: Db, views: T[]): Promise<T[]> {
  const copies = await copiesOf(
    db,
    views.filter((view) => view.status === 'SUCCEEDED').map((view) => view.id),
  );
  for (const view of views) {
    const found = copies.get(view.id);
    if (found) view.copies = found;
  }
  return views;
}

/**
 * `<created_at ms>.<id>` of the last row of a page: where the next page starts. Another order than
 * newest first puts its sort key first: `<key>~<created_at ms>.<id>`.
 */
function encodeCursor(view: Pick<TaskView, 'createdAt' | 'id'>, key?: number): string {
  return `${key === undefined ? '' : `${key}~`}${view.createdAt}.${view.id}`;
}

function decodeCursor(cursor: string | undefined): { key?: number; at: Date; id: string } | undefined {
  const match = /^(?:(-?\d{1,15}(?:\.\d{1,20})?)~)?(\d{1,15})\.(.+)$/.exec(cursor ?? '');
  if (!match) return undefined;
  return {
    ...(match[1] !== undefined && { key: Number(match[1]) }),
    at: new Date(Number(match[2])),
    id: match[3]!,
  };
}

/**
 * The sort key of an order other than newest first (before created_at and id, all descending):
 * seconds from creation to the end (a task still running has none: -1, last), or 1 for a failed
 * task (first), 0 for the others.
 */
const SORT_KEYS: Record<Exclude<TaskSort, 'newest'>, RawBuilder<number>> = {
  longest: sql<number>`coalesce(extract(epoch from finished_at - created_at), -1)::float8`,
  failed: sql<number>`(case when phase = 'failed' then 1 else 0 end)::float8`,
};

const sortKeyOf = (sort: TaskSort | undefined) => (sort && sort !== 'newest' ? SORT_KEYS[sort] : undefined);

/** The phases, one per tab but "all": the trigram indexes are one per phase (migration 0005). */
const PHASES = TASK_PHASES satisfies readonly TaskPhase[];

/** `%text%` for LIKE on `search` (the rule's searched fields, lower-cased), or none. */
const searchPattern = searchLikePattern;

/**
 * Whether the trigram indexes can find the search: pg_trgm takes trigrams from runs of letters and
 * digits, so "bo" or "--" give it none, and the index would be read whole.
 */
function indexable(q: string | undefined): boolean {
  return /[\p{L}\p{N}]{3}/u.test(q ?? '');
}

/**
 * Not among the tasks this person hid: one look-up in hidden_tasks' primary key per row, so a page
 * is filled with rows the person sees (keyset paging walks past the hidden ones) and the counts
 * leave them out.
 */
export const notHiddenBy = (userId: string) =>
  sql<SqlBool>`not exists (select 1 from hidden_tasks h where h.user_id = ${userId} and h.task_id = tasks.id)`;

/**
 * The filter's conditions, unqualified (for `tasks` or a subquery of it). `phase`: one tab's, none
 * (`undefined`), or `every`: with a search, the three named, so that a search of every tab can use
 * the three per-phase trigram indexes together (a BitmapOr); the planner would not split an IN.
 */
function conditions(
  filter: Omit<TaskFilter, 'tab'>,
  phase: TaskPhase | 'every' | undefined,
): RawBuilder<SqlBool> {
  const terms: RawBuilder<unknown>[] = [];
  if (filter.kind) terms.push(sql`kind = ${filter.kind}`);
  if (filter.creator) terms.push(sql`creator = ${filter.creator}`);
  if (filter.from !== undefined)
    terms.push(sql`created_at >= ${new Date(filter.from).toISOString()}::timestamptz`);
  if (filter.to !== undefined)
    terms.push(sql`created_at < ${new Date(filter.to).toISOString()}::timestamptz`);
  if (filter.errorCode !== undefined || filter.errorReason !== undefined)
    terms.push(sql`phase = ${sql.lit('failed')}`);
  if (filter.errorCode === NO_ERROR_CODE) terms.push(sql`${FAILURE_CODE} is null`);
  else if (filter.errorCode !== undefined) terms.push(sql`${FAILURE_CODE} = ${filter.errorCode}`);
  if (filter.errorReason !== undefined) terms.push(sql`${FAILURE_REASON} = ${filter.errorReason}`);
  if (filter.hiddenBy !== undefined) terms.push(notHiddenBy(filter.hiddenBy));
  const pattern = searchPattern(filter.q);
  if (pattern) terms.push(sql`search like ${pattern}`);
  // Phases as literals: a partial index's predicate is matched against constants.
  if (phase === 'every') {
    if (pattern)
      terms.push(
        sql`(${sql.join(
          PHASES.map((each) => sql`phase = ${sql.lit(each)}`),
          sql` or `,
        )})`,
      );
  } else if (phase) terms.push(sql`phase = ${sql.lit(phase)}`);
  return terms.length ? sql<SqlBool>`${sql.join(terms, sql` and `)}` : sql<SqlBool>`true`;
}

/** How long a search may spend on what its plan cannot bound: a tab's count, a sparse page. */
const SEARCH_TIME_LIMIT_MS = 150;

/** Tests only: smaller bounds, a slow query (to see the time limit at work). */
export interface SearchOptions {
  /** Milliseconds from the call; SEARCH_TIME_LIMIT_MS by default. */
  timeLimitMs?: number;
  /** listTasks: rows walked newest first before the trigram index takes over. */
  probeRows?: number;
  /** countTasks: the pages first read, then read at most, the matches read at most. */
  firstPages?: number;
  samplePages?: number;
  sampleMatches?: number;
  /** Runs in the time-limited transaction just before its query. */
  beforeIndexQuery?: (trx: Db) => Promise<unknown>;
}

/**
 * Runs `run` in a transaction where only bitmap scans are planned (the trigram indexes drive: a
 * walk of the newest-first index or of the whole table reads every row of the tab when the search
 * matches few of them, which the planner, guessing from each condition alone, cannot foresee), and
 * cancelled at `deadline` (a performance.now() time): undefined then. PGlite cancels nothing
 * (statement_timeout has no effect there): on it the deadline only keeps a query from starting.
 */
async function indexDriven<T>(
  db: Db,
  deadline: number,
  options: SearchOptions,
  run: (trx: Db) => Promise<T>,
): Promise<T | undefined> {
  try {
    return await db.transaction().execute(async (trx) => {
      // Measured here, not before: on PGlite (one connection) the other queries ran meanwhile.
      const left = Math.ceil(deadline - performance.now());
      if (left <= 0) return undefined;
      await sql`select set_config('statement_timeout', ${`${left}ms`}, true),
        set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true),
        set_config('enable_indexonlyscan', 'off', true)`.execute(trx);
      await options.beforeIndexQuery?.(trx);
      return await run(trx);
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === '57014') return undefined; // query_canceled
    throw error;
  }
}

/** A search page walks at most this many of the newest rows before the index takes over. */
const PROBE_ROWS = 5000;

export interface TaskPage {
  items: TaskView[];
  nextCursor: string | null;
  /**
   * The search stopped at the time limit: `items` are the matches among the rows it looked at
   * (maybe none), and `nextCursor` goes on after the last of those rows.
   */
  cutShort?: true;
}

/**
 * Rows after `task` in newest-first order. The task is read again for its created_at to the
 * microsecond (a cursor holds milliseconds: tasks of one request share a created_at, and a
 * millisecond holds many): compared with the millisecond, the rest of it would be skipped. `at`
 * serves only if that task is gone.
 */
function olderThan(task: { id: string; at: Date }): RawBuilder<SqlBool> {
  return sql<SqlBool>`(created_at, id) < (coalesce((select c.created_at from tasks c where c.id = ${task.id}), ${task.at}), ${task.id})`;
}

/**
 * A page in another order than newest first: by the sort key, then newest first, keyset-paged on
 * all three. The cursor's task is read again for its key and created_at (as olderThan does); the
 * cursor's own values serve only if it is gone. A search here is a plain condition (no walk of the
 * newest rows first: that bound is for the newest-first order).
 */
async function listSorted(
  db: Db,
  filter: TaskFilter,
  phase: TaskPhase | undefined,
  sortKey: RawBuilder<number>,
  after: ReturnType<typeof decodeCursor>,
  limit: number,
): Promise<TaskPage> {
  const afterCursor = after
    ? sql<SqlBool>`(${sortKey}, created_at, id) < (
        coalesce((select ${sortKey} from tasks c where c.id = ${after.id}), ${after.key ?? 0}::float8),
        coalesce((select c.created_at from tasks c where c.id = ${after.id}), ${after.at}::timestamptz),
        ${after.id})`
    : sql<SqlBool>`true`;
  const rows = (await db
    .selectFrom('tasks')
    .selectAll()
    .select(sql<number>`${sortKey}`.as('sort_key'))
    .where(conditions(filter, phase))
    .where(afterCursor)
    .orderBy(sql`${sortKey}`, 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()) as (TaskRow & { sort_key: number | string })[];
  const items = rows.slice(0, limit).map(toTaskView);
  const last = rows[limit - 1];
  return {
    items,
    nextCursor:
      rows.length > limit && last
        ? encodeCursor({ createdAt: last.created_at.getTime(), id: last.id }, Number(last.sort_key))
        : null,
  };
}

export async function listTasks(
  db: Db,
  filter: TaskFilter,
  page: { cursor?: string; limit: number },
  options: SearchOptions = {},
): Promise<TaskPage> {
  const deadline = performance.now() + (options.timeLimitMs ?? SEARCH_TIME_LIMIT_MS);
  const phases = tabPhases(filter.tab);
  const phase = phases.length === 1 ? phases[0] : undefined;
  const after = decodeCursor(page.cursor);
  const afterCursor = after ? olderThan(after) : sql<SqlBool>`true`;
  const toPage = (rows: TaskRow[]): TaskPage => {
    const items = rows.slice(0, page.limit).map(toTaskView);
    const last = items.at(-1);
    return { items, nextCursor: rows.length > page.limit && last ? encodeCursor(last) : null };
  };
  const want = page.limit + 1;
  const sortKey = sortKeyOf(filter.sort);
  if (sortKey) return listSorted(db, filter, phase, sortKey, after, page.limit);
  if (!searchPattern(filter.q)) {
    const rows = await db
      .selectFrom('tasks')
      .selectAll()
      .where(conditions(filter, phase))
      .where(afterCursor)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(want)
      .execute();
    return toPage(rows);
  }
  // A search. First the newest probeRows rows (whatever their tab): a common word fills the page
  // within a few hundred. The walk is bounded here rather than left to the plan: the planner
  // guesses the matches from each condition alone, and a search whose matches were all in other
  // tabs (or of other kinds or creators) walked the whole tab to find none (~1 s at 1M tasks).
  const probeRows = options.probeRows ?? PROBE_ROWS;
  // One statement, so one snapshot: the matches among the newest probeRows rows and the last row
  // the walk looked at (the boundary; none when the table ended before it). Read apart, a task
  // created between them moved the boundary, and the index query below found rows the probe had.
  const walked = (await db
    .selectFrom(
      db
        .selectFrom('tasks')
        .selectAll()
        .select([
          sql<boolean>`${conditions(filter, phase)}`.as('hit'),
          sql<number>`row_number() over (order by created_at desc, id desc)`.as('walked'),
        ])
        .where(afterCursor)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(probeRows)
        .as('newest'),
    )
    .selectAll()
    .where(sql<SqlBool>`hit or walked = ${probeRows}`)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(want + 1)
    .execute()) as (TaskRow & { hit: boolean; walked: number | string })[];
  const probe = walked.filter((row) => row.hit).slice(0, want);
  if (probe.length === want) return toPage(probe);
  const boundary = walked.find((row) => Number(row.walked) === probeRows);
  if (!boundary) return toPage(probe);
  // Fewer than a page among the newest probeRows: the search is sparse, so the tab's trigram index
  // finds the rest (the cost grows with the tab's matches, not with the tab), then a sort. A search
  // too short for the index stops here, cut short.
  const rest = indexable(filter.q)
    ? await indexDriven(db, deadline, options, (trx) =>
        trx
          .selectFrom('tasks')
          .selectAll()
          .where(conditions(filter, phase ?? 'every'))
          .where(olderThan({ id: boundary.id, at: boundary.created_at }))
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(want - probe.length)
          .execute(),
      )
    : undefined;
  if (rest) return toPage([...probe, ...rest]);
  const lookedAt = { createdAt: boundary.created_at.getTime(), id: boundary.id };
  return { items: probe.map(toTaskView), nextCursor: encodeCursor(lookedAt), cutShort: true };
}

/** The filter has what task_counts cannot answer: a period or a failure. */
const narrowerThanCounts = (filter: Omit<TaskFilter, 'tab'>) =>
  filter.from !== undefined ||
  filter.to !== undefined ||
  filter.errorCode !== undefined ||
  filter.errorReason !== undefined;

/** One failure of the view, with how many failed tasks share it. */
export interface FailureCount {
  code: string | null;
  reason: string;
  count: number;
}

/** At most this many reasons are listed (the most common). */
const FAILURES_MAX = 50;

/**
 * The failed tasks of the view, grouped by their failure: the reasons (code and message) and the
 * codes alone, each with its count, most common first. The view's own failure filter is left out,
 * so the list still offers the other failures once one is chosen.
 */
export async function countFailures(
  db: Db,
  filter: Omit<TaskFilter, 'tab' | 'sort'>,
): Promise<{ reasons: FailureCount[]; codes: { code: string | null; count: number }[] }> {
  const where = conditions({ ...filter, errorCode: undefined, errorReason: undefined }, 'failed');
  const [reasons, codes] = await Promise.all([
    sql<FailureCount>`
      select ${FAILURE_CODE} as code, ${FAILURE_REASON} as reason, count(*) as count
      from tasks where ${where} group by 1, 2 order by 3 desc, 2 limit ${FAILURES_MAX}`.execute(db),
    sql<{ code: string | null; count: number }>`
      select ${FAILURE_CODE} as code, count(*) as count
      from tasks where ${where} group by 1 order by 2 desc, 1 limit ${FAILURES_MAX}`.execute(db),
  ]);
  return {
    reasons: reasons.rows.map((row) => ({ ...row, count: Number(row.count) })),
    codes: codes.rows.map((row) => ({ ...row, count: Number(row.count) })),
  };
}

/** The names tasks were recorded with, for the creator filter's pick list (from task_counts: cheap). */
export async function listCreators(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('task_counts')
    .select('creator')
    .distinct()
    .where('creator', '<>', '')
    .where('n', '>', 0)
    .orderBy('creator')
    .limit(500)
    .execute();
  return rows.map((row) => row.creator);
}

/** With a search, a tab's count stops here: the browser shows "1,000+" (`countsCapped`). */
export const COUNT_CAP = 1000;
/**
 * The search counts read the table's first FIRST_PAGES pages (800 KB, about 3,000 of the bench's
 * tasks) to see how common the search is; when common, on to SAMPLE_PAGES (11 MB, about 40,000
 * tasks), up to SAMPLE_MATCHES matches.
 */
const FIRST_PAGES = 100;
const SAMPLE_PAGES = 1400;
const SAMPLE_MATCHES = 5 * COUNT_CAP;

interface CountResult {
  /** null: not counted within the time limit (`countsUnknown`). */
  counts: TaskCounts;
  /** Some count reached COUNT_CAP: it means "at least". */
  capped: boolean;
  unknown: boolean;
}

/**
 * task_counts counts every task: the ones this person hid (under the same kind and creator) are
 * taken off, read through hidden_tasks' primary key (as many rows as the person hid, not the table).
 */
async function leaveOutHidden(
  db: Db,
  filter: Pick<TaskFilter, 'kind' | 'creator'>,
  userId: string,
  counts: TaskCounts,
): Promise<void> {
  const { rows } = await sql<{ phase: TaskPhase; n: number }>`
    select t.phase, count(*) as n from hidden_tasks h join tasks t on t.id = h.task_id
    where h.user_id = ${userId}
      ${filter.kind ? sql`and t.kind = ${filter.kind}` : sql``}
      ${filter.creator ? sql`and t.creator = ${filter.creator}` : sql``}
    group by t.phase`.execute(db);
  for (const row of rows) {
    counts[row.phase] = Math.max(counts[row.phase]! - Number(row.n), 0);
    counts.all = Math.max(counts.all! - Number(row.n), 0);
  }
}

/**
 * How many tasks each tab holds under the same kind, search and creator. Without a search, exact,
 * from `task_counts` (kept by triggers). With one, each tab is counted up to COUNT_CAP: a common
 * word in a million prompts would otherwise mean counting hundreds of thousands of rows for every
 * keystroke; a tab whose count cannot be had within the time limit is null.
 */
export async function countTasks(
  db: Db,
  filter: Omit<TaskFilter, 'tab'>,
  options: SearchOptions = {},
): Promise<CountResult> {
  const deadline = performance.now() + (options.timeLimitMs ?? SEARCH_TIME_LIMIT_MS);
  const counts: TaskCounts = { all: 0, running: 0, succeeded: 0, failed: 0 };
  if (!searchPattern(filter.q) && narrowerThanCounts(filter)) {
    // A period or a failure: task_counts has neither, so the rows are counted (the period's
    // index bounds them; a failure's code or reason is read on the failed tasks alone).
    const { rows } = await sql<{ phase: TaskPhase; n: number }>`
      select phase, count(*) as n from tasks where ${conditions(filter, undefined)} group by phase`.execute(
      db,
    );
    for (const row of rows) {
      counts[row.phase] = Number(row.n);
      counts.all = counts.all! + Number(row.n);
    }
    return { counts, capped: false, unknown: false };
  }
  if (!searchPattern(filter.q)) {
    let query = db.selectFrom('task_counts');
    if (filter.kind) query = query.where('kind', '=', filter.kind);
    if (filter.creator) query = query.where('creator', '=', filter.creator);
    const rows = await query
      .select(['phase', (eb) => eb.fn.sum<number>('n').as('count')])
      .groupBy('phase')
      .execute();
    for (const row of rows) {
      counts[row.phase] = Number(row.count);
      counts.all = counts.all! + Number(row.count);
    }
    if (filter.hiddenBy !== undefined) await leaveOutHidden(db, filter, filter.hiddenBy, counts);
    return { counts, capped: false, unknown: false };
  }
  // First the table's first pages (a TID range scan: the cheapest read per row, and bounded
  // whatever the search matches), counted per tab.
  const firstPages = Math.min(options.firstPages ?? FIRST_PAGES, options.samplePages ?? SAMPLE_PAGES);
  const samplePages = Math.max(options.samplePages ?? SAMPLE_PAGES, firstPages);
  const sampleMatches = options.sampleMatches ?? SAMPLE_MATCHES;
  const { rows: firstRows } = await sql<{ phase: TaskPhase | null; n: number; pages: number }>`
    select m.phase, count(m.phase) as n,
      pg_relation_size('tasks') / current_setting('block_size')::int as pages
    from (select 1) one left join (
      select phase from tasks
      where ctid < ${sql.lit(`(${firstPages},0)`)}::tid and ${conditions(filter, undefined)}
      limit ${sampleMatches}
    ) m on true
    group by m.phase`.execute(db);
  const pages = Number(firstRows[0]?.pages);
  for (const row of firstRows) if (row.phase) counts[row.phase] = Number(row.n);
  const firstMatches = PHASES.reduce((sum, phase) => sum + counts[phase]!, 0);
  const exact = () => {
    for (const tab of TASK_TABS) counts[tab] = Math.min(counts[tab]!, COUNT_CAP);
    return { counts, capped: TASK_TABS.some((tab) => counts[tab] === COUNT_CAP), unknown: false };
  };
  counts.all = firstMatches;
  if (pages <= firstPages) return exact();
  let open: readonly TaskPhase[] = PHASES;
  const byIndex = indexable(filter.q);
  // Matches to expect at the first pages' rate: past twice COUNT_CAP, reading on finds COUNT_CAP.
  const common = (n: number) => n * (pages / firstPages) >= 2 * COUNT_CAP;
  if (byIndex && !common(firstMatches)) {
    // Few matches to expect: the trigram indexes find them all (up to a COUNT_CAP a tab) at once.
    const limit = PHASES.length * COUNT_CAP;
    const found = await indexDriven(db, deadline, options, (trx) =>
      sql<{ phase: TaskPhase; n: number }>`
        select phase, count(*) as n
        from (select phase from tasks where ${conditions(filter, 'every')} limit ${limit}) m
        group by phase`.execute(trx),
    );
    if (!found) {
      for (const tab of TASK_TABS) counts[tab] = null;
      return { counts, capped: false, unknown: true };
    }
    for (const tab of TASK_TABS) counts[tab] = 0;
    for (const row of found.rows) counts[row.phase] = Number(row.n);
    counts.all = found.rows.reduce((sum, row) => sum + Number(row.n), 0);
    if (counts.all < limit) return exact();
    open = PHASES.filter((phase) => counts[phase]! < COUNT_CAP);
  } else {
    // Many: on through the pages up to samplePages and sampleMatches matches, stopping as soon as
    // each tab where the search is common has its COUNT_CAP (the others are for their indexes). A
    // common word gives them that here (about 28,000 rows for a word in one task of seven).
    const need = (phase: TaskPhase) =>
      !byIndex || common(counts[phase]!) ? Math.max(COUNT_CAP - counts[phase]!, 0) : 0;
    const { rows } = await sql<Record<TaskPhase | 'n', number> & { more: boolean }>`
      select running, succeeded, failed, n, more from (
        select count(*) filter (where phase = 'running') over w as running,
          count(*) filter (where phase = 'succeeded') over w as succeeded,
          count(*) filter (where phase = 'failed') over w as failed,
          count(*) over w as n,
          lead(true, 1, false) over w as more
        from (
          select phase from tasks
          where ctid >= ${sql.lit(`(${firstPages},0)`)}::tid and ctid < ${sql.lit(`(${samplePages},0)`)}::tid
            and ${conditions(filter, undefined)}
          limit ${sampleMatches - firstMatches}
        ) m
        window w as (rows between unbounded preceding and current row)
      ) x
      where (running >= ${need('running')} and succeeded >= ${need('succeeded')}
          and failed >= ${need('failed')})
        or not more
      limit 1`.execute(db);
    for (const phase of PHASES) counts[phase] = counts[phase]! + Number(rows[0]?.[phase] ?? 0);
    counts.all = firstMatches + Number(rows[0]?.n ?? 0);
    const whole = !rows[0]?.more && counts.all < sampleMatches && pages <= samplePages;
    if (whole) return exact();
    open = PHASES.filter((phase) => counts[phase]! < COUNT_CAP);
  }
  // A tab still under COUNT_CAP: its matches are few among the rows looked at, so its own trigram
  // index counts them (up to COUNT_CAP), read for that tab alone, within the time limit; a search
  // too short for the index leaves it unknown.
  for (const phase of PHASES) if (!open.includes(phase)) counts[phase] = COUNT_CAP;
  const countTab = (phase: TaskPhase) =>
    indexDriven(db, deadline, options, async (trx) => {
      const { rows } = await sql<{ n: number }>`
        select count(*) as n
        from (select 1 from tasks where ${conditions(filter, phase)} limit ${COUNT_CAP}) m`.execute(trx);
      return Number(rows[0]?.n);
    });
  const bounded = await Promise.all(open.map((phase) => (byIndex ? countTab(phase) : undefined)));
  open.forEach((phase, i) => (counts[phase] = bounded[i] ?? null));
  // Every tab: COUNT_CAP once seen, else the tabs' sum (unknown when a tab is).
  const sum = PHASES.reduce((total, phase) => total + (counts[phase] ?? 0), 0);
  const unknownTab = PHASES.some((phase) => counts[phase] === null);
  counts.all = counts.all! >= COUNT_CAP || sum >= COUNT_CAP ? COUNT_CAP : unknownTab ? null : sum;
  return {
    counts,
    capped: TASK_TABS.some((tab) => counts[tab] === COUNT_CAP),
    unknown: TASK_TABS.some((tab) => counts[tab] === null),
  };
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
  const [task] = await addCopies(db, [toTaskView(row)]);
  return { task: task!, events: events.map(toEventView) };
}
