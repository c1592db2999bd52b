// The tab counts of a view: exact from task_counts, from the Insights rollups for a period (with or
// without a kind), or from the rows (a failure, a period with a creator); for a search, up to COUNT_CAP a
// tab: sampled, then walked newest first where common, then read through the trigram indexes.
import { sql } from 'kysely';
import { TASK_TABS, type TaskTab } from '../../src/api/task-view/task-view-rule';
import type { Db } from '../db/database';
import type { TaskPhase } from '../db/schema';
import { conditions, indexable, PHASES, searchPattern, type TaskFilter } from './list-filter';
import { deadlineOf, indexDriven, type SearchOptions } from './list-time-limit';
import { countPeriod, rollupCountable } from './period-counts';

/** null: not counted (a search's count that the time limit cut short). */
export type TaskCounts = Record<TaskTab, number | null>;

/** The filter has what task_counts cannot answer: a period or a failure. */
const narrowerThanCounts = (filter: Omit<TaskFilter, 'tab'>) =>
  filter.from !== undefined ||
  filter.to !== undefined ||
  filter.errorCode !== undefined ||
  filter.errorReason !== undefined ||
  // The Starred view: the person's starred tasks are few (STARS_MAX), counted as rows.
  filter.starredBy !== undefined ||
  // The "changes requested" view: few results, counted as rows too.
  Boolean(filter.changesRequested);

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
 * Rows of a tab walked newest first for its count: a search matching at least one row in 20 finds
 * COUNT_CAP within them.
 */
const WALK_ROWS = 20 * COUNT_CAP;

/**
 * The tabs where the sample saw the search, but fewer than COUNT_CAP times: each is walked newest
 * first through its own index (the tab's rows under the other conditions, then the search), stopping
 * at COUNT_CAP matches or WALK_ROWS rows. Its trigram index would first collect every match of the
 * tab (a bitmap cannot stop early): at 10M tasks, a hundred thousand for a common word. A tab walked
 * to its end (fewer rows than WALK_ROWS: such as the few running tasks) is counted exactly there.
 * Returns the tabs still open (neither at COUNT_CAP nor walked whole), for their trigram indexes.
 */
async function walkCommonTabs(
  db: Db,
  filter: Omit<TaskFilter, 'tab'>,
  open: readonly TaskPhase[],
  counts: TaskCounts,
  deadline: number,
  options: SearchOptions,
): Promise<TaskPhase[]> {
  const pattern = searchPattern(filter.q);
  const walkRows = options.walkRows ?? WALK_ROWS;
  const stillOpen: TaskPhase[] = [];
  for (const phase of open) {
    const left = Math.ceil(deadline - performance.now());
    if (!pattern || counts[phase]! === 0 || left <= 0) {
      stillOpen.push(phase);
      continue;
    }
    const walk = await db
      .transaction()
      .execute(async (trx) => {
        await sql`select set_config('statement_timeout', ${`${left}ms`}, true)`.execute(trx);
        await options.beforeIndexQuery?.(trx);
        // Row by row (a running count, as the sample reads), so it stops at COUNT_CAP matches.
        const { rows } = await sql<{ n: number; walked: number }>`
          select n, walked from (
            select count(*) filter (where search like ${pattern}) over w as n,
              count(*) over w as walked, lead(true, 1, false) over w as more
            from (
              select search from tasks where ${conditions({ ...filter, q: undefined }, phase)}
              order by created_at desc, id desc limit ${walkRows}
            ) newest
            window w as (rows between unbounded preceding and current row)
          ) x where n >= ${COUNT_CAP} or not more
          limit 1`.execute(trx);
        return { n: Number(rows[0]?.n ?? 0), walked: Number(rows[0]?.walked ?? 0) };
      })
      .catch((error: { code?: unknown }) => {
        if (error.code === '57014') return undefined; // query_canceled: the trigram index is asked next
        throw error;
      });
    if (walk && walk.n >= COUNT_CAP) counts[phase] = COUNT_CAP;
    else if (walk && walk.walked < walkRows) counts[phase] = walk.n;
    else stillOpen.push(phase);
  }
  return stillOpen;
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
  // A period alone (or with a kind): from the Insights rollups.
  if (rollupCountable(filter)) return countFromRollups(db, filter);
  if (searchPattern(filter.q)) return countSearch(db, filter, options);
  return narrowerThanCounts(filter) ? countRows(db, filter) : countFromTaskCounts(db, filter);
}

const noCounts = (): TaskCounts => ({ all: 0, running: 0, succeeded: 0, failed: 0 });

async function countFromRollups(db: Db, filter: Omit<TaskFilter, 'tab'>): Promise<CountResult> {
  const counts = noCounts();
  const byPhase = await countPeriod(db, filter);
  for (const phase of PHASES) {
    counts[phase] = byPhase[phase] ?? 0;
    counts.all = counts.all! + counts[phase]!;
  }
  return { counts, capped: false, unknown: false };
}

/**
 * A period or a failure: task_counts has neither, so the rows are counted (the period's index
 * bounds them; a failure's code or reason is read on the failed tasks alone).
 */
async function countRows(db: Db, filter: Omit<TaskFilter, 'tab'>): Promise<CountResult> {
  const counts = noCounts();
  const { rows } = await sql<{ phase: TaskPhase; n: number }>`
    select phase, count(*) as n from tasks where ${conditions(filter, undefined)} group by phase`.execute(db);
  for (const row of rows) {
    counts[row.phase] = Number(row.n);
    counts.all = counts.all! + Number(row.n);
  }
  return { counts, capped: false, unknown: false };
}

/** Exact, from the counts the triggers keep per kind, creator and phase, less what the person hid. */
async function countFromTaskCounts(db: Db, filter: Omit<TaskFilter, 'tab'>): Promise<CountResult> {
  const counts = noCounts();
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

/** A search's count under way: what has been counted and what the table's first pages showed. */
interface SearchCount {
  db: Db;
  filter: Omit<TaskFilter, 'tab'>;
  options: SearchOptions;
  deadline: number;
  counts: TaskCounts;
  firstPages: number;
  samplePages: number;
  sampleMatches: number;
  /** The table's size in pages. */
  pages: number;
  /** Matches in the first pages, every tab together. */
  firstMatches: number;
  /** The search can be read through the trigram indexes. */
  byIndex: boolean;
}

/** The search's count is done (`result`), or these tabs are still under COUNT_CAP (`open`). */
type SearchStep = { result: CountResult } | { open: readonly TaskPhase[] };

/** Every tab's count, known whole: capped at COUNT_CAP. */
function wholeCount(counts: TaskCounts): CountResult {
  for (const tab of TASK_TABS) counts[tab] = Math.min(counts[tab]!, COUNT_CAP);
  return { counts, capped: TASK_TABS.some((tab) => counts[tab] === COUNT_CAP), unknown: false };
}

/** Matches to expect at the first pages' rate: past twice COUNT_CAP, reading on finds COUNT_CAP. */
const common = (search: SearchCount, n: number) => n * (search.pages / search.firstPages) >= 2 * COUNT_CAP;

async function countSearch(
  db: Db,
  filter: Omit<TaskFilter, 'tab'>,
  options: SearchOptions,
): Promise<CountResult> {
  const deadline = deadlineOf(options);
  const counts = noCounts();
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
  counts.all = firstMatches;
  if (pages <= firstPages) return wholeCount(counts);
  const search: SearchCount = {
    db,
    filter,
    options,
    deadline,
    counts,
    firstPages,
    samplePages,
    sampleMatches,
    pages,
    firstMatches,
    byIndex: indexable(filter.q),
  };
  const step =
    search.byIndex && !common(search, firstMatches)
      ? await countFewByIndex(search)
      : await sampleOnward(search);
  return 'result' in step ? step.result : countOpenTabsByIndex(search, step.open);
}

/** Few matches to expect: the trigram indexes find them all (up to a COUNT_CAP a tab) at once. */
async function countFewByIndex({ db, filter, options, deadline, counts }: SearchCount): Promise<SearchStep> {
  const limit = PHASES.length * COUNT_CAP;
  const found = await indexDriven(db, deadline, options, (trx) =>
    sql<{ phase: TaskPhase; n: number }>`
      select phase, count(*) as n
      from (select phase from tasks where ${conditions(filter, 'every')} limit ${limit}) m
      group by phase`.execute(trx),
  );
  if (!found) {
    for (const tab of TASK_TABS) counts[tab] = null;
    return { result: { counts, capped: false, unknown: true } };
  }
  for (const tab of TASK_TABS) counts[tab] = 0;
  for (const row of found.rows) counts[row.phase] = Number(row.n);
  counts.all = found.rows.reduce((sum, row) => sum + Number(row.n), 0);
  if (counts.all < limit) return { result: wholeCount(counts) };
  return { open: PHASES.filter((phase) => counts[phase]! < COUNT_CAP) };
}

/**
 * Many: on through the pages up to samplePages and sampleMatches matches, stopping as soon as each
 * tab where the search is common has its COUNT_CAP (the others are for their indexes). A common
 * word gives them that here (about 28,000 rows for a word in one task of seven).
 */
async function sampleOnward(search: SearchCount): Promise<SearchStep> {
  const { db, filter, counts, firstPages, samplePages, sampleMatches, firstMatches, pages } = search;
  const need = (phase: TaskPhase) =>
    !search.byIndex || common(search, counts[phase]!) ? Math.max(COUNT_CAP - counts[phase]!, 0) : 0;
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
  if (whole) return { result: wholeCount(counts) };
  const open = PHASES.filter((phase) => counts[phase]! < COUNT_CAP);
  return { open: await walkCommonTabs(db, filter, open, counts, search.deadline, search.options) };
}

/**
 * A tab still under COUNT_CAP: its matches are few among the rows looked at, so its own trigram
 * index counts them (up to COUNT_CAP), read for that tab alone, within the time limit; a search
 * too short for the index leaves it unknown.
 */
async function countOpenTabsByIndex(search: SearchCount, open: readonly TaskPhase[]): Promise<CountResult> {
  const { db, filter, options, deadline, counts } = search;
  // The tabs done before: at or past COUNT_CAP, or counted whole by their walk.
  for (const phase of PHASES) if (!open.includes(phase)) counts[phase] = Math.min(counts[phase]!, COUNT_CAP);
  const countTab = (phase: TaskPhase) =>
    indexDriven(db, deadline, options, async (trx) => {
      const { rows } = await sql<{ n: number }>`
        select count(*) as n
        from (select 1 from tasks where ${conditions(filter, phase)} limit ${COUNT_CAP}) m`.execute(trx);
      return Number(rows[0]?.n);
    });
  const bounded = await Promise.all(open.map((phase) => (search.byIndex ? countTab(phase) : undefined)));
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
