// Searches of the team's record: each tab's count up to COUNT_CAP, exact below it, whichever way it
// is counted (the table's first pages, then the tab's own trigram index); a count the time limit
// cuts short is null, never a guess; a search page is the newest matches whether the walk of the
// newest rows finds them or the tab's trigram index does, and a page the time limit cuts short
// goes on where it stopped.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TaskPhase } from '../db/schema';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { scannedCounts } from '../testing/scanned-counts';
import { TASK_TABS } from '../../src/api/task-view/task-view-rule';
import { listTasks } from './list';
import { COUNT_CAP, countTasks, type TaskCounts } from './list-counts';
import type { TaskFilter } from './list-filter';
import type { SearchOptions } from './list-time-limit';

const TASKS = 9000;

// 3,000 tasks a phase. Creator and phase go together (Ana's tasks all succeeded, Bo's all failed,
// Cy's all run), as in a team where searching a name leaves two tabs empty. Prompts: a word in one
// task of four; `glow` in every succeeded task and one failed task in a hundred (30); `zebra` in
// one task of 97 (92); `misty` in 5 tasks of 12 (1,500 succeeded, 1,500 failed, 750 running).
beforeAll(async () => {
  const { db } = await resetTestDatabase();
  await sql`insert into tasks (id, kind, source, prompt, creator, status, created_at)
    select 'task-' || lpad(g::text, 5, '0'),
      (array['image_generate','video_translate','image_to_video'])[1 + (g / 3) % 3], 'created',
      (array['fox','whale','castle','lighthouse'])[1 + (g / 3) % 4]
        || case when g % 3 = 0 or g % 300 = 1 then ' glow' else '' end
        || case when g % 97 = 0 then ' zebra' else '' end
        || case when g % 12 < 5 then ' misty' else '' end,
      (array['Ana','Bo','Cy'])[1 + g % 3],
      (array['SUCCEEDED','FAILED','PROCESSING'])[1 + g % 3],
      timestamptz '2026-01-01' - make_interval(secs => g)
    from generate_series(1, ${TASKS}::int) g`.execute(db);
  await sql`analyze tasks`.execute(db);
});

const PHASES: TaskPhase[] = ['running', 'succeeded', 'failed'];

/** What a full scan says, each tab up to COUNT_CAP. */
async function scannedSearch(filter: Omit<TaskFilter, 'tab'>): Promise<TaskCounts> {
  const counts = await scannedCounts((await testDatabase()).db, filter);
  for (const tab of TASK_TABS) counts[tab] = Math.min(counts[tab]!, COUNT_CAP);
  return counts;
}

/** Every matching id, newest first, from a full scan. */
async function scannedList(filter: TaskFilter): Promise<string[]> {
  const { db } = await testDatabase();
  let query = db.selectFrom('tasks').select('id');
  if (filter.q) query = query.where('search', 'like', `%${filter.q.toLowerCase()}%`);
  if (filter.tab !== 'all') query = query.where('phase', '=', filter.tab as TaskPhase);
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.creator) query = query.where('creator', '=', filter.creator);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map((row) => row.id);
}

// The table is ~225 pages. Counted from reading it whole; through the trigram indexes (sparse:
// after one page, all tabs at once; else tab by tab); or through a second pass (6,000 tasks or
// the whole table, up to 5,000 matches) that holds some tabs' COUNT_CAP, then the indexes.
// No time limit to speak of: what is counted must be right, however slow the machine.
const COUNT_WAYS: Record<string, SearchOptions> = {
  'the whole table read': { firstPages: 1000, samplePages: 1000, timeLimitMs: 60_000 },
  'the trigram indexes': { firstPages: 1, samplePages: 1, timeLimitMs: 60_000 },
  'a second pass, then the indexes': { firstPages: 1, samplePages: 150, timeLimitMs: 60_000 },
  // The second pass could read it all, but stops once the common tabs have COUNT_CAP.
  'a second pass stopped early, then the indexes': { firstPages: 1, samplePages: 1000, timeLimitMs: 60_000 },
};

describe('a search’s tab counts', () => {
  const searches: Omit<TaskFilter, 'tab'>[] = [
    { q: 'ana' }, // Succeeded only: Failed and In progress empty
    { q: 'Ana', kind: 'image_to_video' }, // Succeeded only
    { q: 'glow' }, // Succeeded above the cap, Failed 30, In progress empty
    { q: 'misty' }, // Succeeded and Failed above the cap, In progress 750
    { q: 'zebra' }, // 92 over all tabs
    { q: 'task' }, // every task
    { q: 'fox', creator: 'Cy' },
    { q: 'no such words' },
  ];
  for (const [way, options] of Object.entries(COUNT_WAYS))
    it(`are each tab's, up to ${COUNT_CAP} and exact below, through ${way}`, async () => {
      const { db } = await testDatabase();
      for (const filter of searches) {
        const expected = await scannedSearch(filter);
        const counted = await countTasks(db, filter, options);
        expect({ filter, counts: counted.counts }).toEqual({ filter, counts: expected });
        expect(counted.unknown).toBe(false);
        expect(counted.capped).toBe(Object.values(expected).includes(COUNT_CAP));
      }
      expect(await scannedSearch({ q: 'glow' })).toMatchObject({ failed: 30, running: 0 });
    });

  it('walk a tab newest first where the pass saw the search, and ask its trigram index only when the walk stops short', async () => {
    const { db } = await testDatabase();
    // "misty": 1,500 succeeded, 1,500 failed, 750 running; the pass (20 pages) holds no tab's 1,000.
    // Succeeded and Failed find theirs within their walks. In progress has 3,000 rows: a walk of
    // more rows than that reads it to its end and counts its 750 there; a walk of exactly 3,000
    // cannot know it saw the last row, so the tab's trigram index counts it.
    const countMisty = async (walkRows: number) => {
      const queries: string[] = [];
      const counted = await countTasks(
        db,
        { q: 'misty' },
        {
          firstPages: 1,
          samplePages: 20,
          walkRows,
          timeLimitMs: 60_000,
          beforeIndexQuery: async (trx) => {
            const { rows } = await sql<{ enable_indexscan: string }>`show enable_indexscan`.execute(trx);
            queries.push(rows[0]!.enable_indexscan === 'on' ? 'walk' : 'trigram index');
          },
        },
      );
      expect(counted.counts).toEqual(await scannedSearch({ q: 'misty' }));
      expect(counted.counts.running).toBe(750);
      return queries.sort();
    };
    expect(await countMisty(3001)).toEqual(['walk', 'walk', 'walk']);
    expect(await countMisty(3000)).toEqual(['trigram index', 'walk', 'walk', 'walk']);
  });

  it('are null when the time limit leaves no time to count them, never a guess', async () => {
    const { db } = await testDatabase();
    // The passes (100 pages, 4,000 tasks) hold Succeeded's 1,000; Failed and In progress need
    // their trigram indexes, which the time limit leaves no time for.
    const cut = await countTasks(db, { q: 'glow' }, { timeLimitMs: 0, firstPages: 10, samplePages: 100 });
    expect(cut).toEqual({
      counts: { all: COUNT_CAP, succeeded: COUNT_CAP, failed: null, running: null },
      capped: true,
      unknown: true,
    });
    // A rare word, counted by the indexes alone: nothing known, All included.
    const none = await countTasks(db, { q: 'zebra' }, { timeLimitMs: 0, firstPages: 1, samplePages: 1 });
    expect(none).toEqual({
      counts: { all: null, succeeded: null, failed: null, running: null },
      capped: false,
      unknown: true,
    });
    // The time limit cancels the tabs counted after the first (PostgreSQL's query_canceled, as
    // statement_timeout raises it; search-postgres.test.ts sees the real one): the first is exact,
    // the others and All (short of the cap, with tabs unknown) are null. No clock: a busy machine
    // must not change the answer.
    let indexQueries = 0;
    const late = await countTasks(
      db,
      { q: 'glow' },
      {
        timeLimitMs: 60_000,
        firstPages: 1,
        samplePages: 1,
        beforeIndexQuery: async () => {
          if (indexQueries++ > 0)
            throw Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' });
        },
      },
    );
    // The first query is Succeeded's walk newest first (the pass saw "glow" there), which finds its
    // 1,000 (so All is 1,000 too); the ones after it are cancelled.
    expect(late).toEqual({
      counts: { all: COUNT_CAP, running: null, succeeded: COUNT_CAP, failed: null },
      capped: true,
      unknown: true,
    });
    // Without a search the counts are kept ones: never cut short.
    expect((await countTasks(db, {}, { timeLimitMs: 0 })).unknown).toBe(false);
  });

  it('leave a tab null rather than read the whole trigram index for a search too short for it', async () => {
    const { db } = await testDatabase();
    // "bo" (Bo's tasks, all failed) gives pg_trgm no trigram. The pass holds Failed's 1,000; the
    // other tabs are unknown however much time there is, and a whole-table read stays exact.
    expect(
      await countTasks(db, { q: 'bo' }, { firstPages: 1, samplePages: 150, timeLimitMs: 60_000 }),
    ).toEqual({
      counts: { all: COUNT_CAP, failed: COUNT_CAP, succeeded: null, running: null },
      capped: true,
      unknown: true,
    });
    expect((await countTasks(db, { q: 'bo' }, COUNT_WAYS['the whole table read'])).counts).toEqual(
      await scannedSearch({ q: 'bo' }),
    );
  });
});

describe('a search page', () => {
  async function pageThrough(filter: TaskFilter, options: SearchOptions, limit = 25) {
    const { db } = await testDatabase();
    const ids: string[] = [];
    const pages: { size: number; cutShort: boolean }[] = [];
    let cursor: string | undefined;
    do {
      const page = await listTasks(db, filter, { cursor, limit }, options);
      ids.push(...page.items.map((item) => item.id));
      pages.push({ size: page.items.length, cutShort: Boolean(page.cutShort) });
      cursor = page.nextCursor ?? undefined;
    } while (cursor && pages.length < 500);
    return { ids, pages };
  }

  const filters: TaskFilter[] = [
    { tab: 'failed', q: 'ana' }, // empty
    { tab: 'running', q: 'ana', creator: 'Ana' }, // empty
    { tab: 'failed', q: 'glow' }, // 30 of 3,000: the index finds them (7-row walks)
    { tab: 'succeeded', q: 'glow' }, // every one: the walk finds them
    { tab: 'all', q: 'zebra' },
    { tab: 'running', q: 'fox', kind: 'image_to_video' },
    { tab: 'all', q: 'task', creator: 'Bo' },
    { tab: 'failed', creator: 'Bo' },
  ];
  for (const probeRows of [undefined, 7])
    it(`is the newest matches, page after page, walk${probeRows ? ` of ${probeRows} rows` : ''} or index`, async () => {
      for (const filter of filters) {
        const expected = await scannedList(filter);
        const { ids, pages } = await pageThrough(filter, { probeRows, timeLimitMs: 60_000 });
        expect({ filter, ids }).toEqual({ filter, ids: expected });
        expect(pages.some((page) => page.cutShort)).toBe(false);
        // Full pages but the last.
        expect(pages.slice(0, -1).every((page) => page.size === 25)).toBe(true);
      }
    });

  it('cut short by the time limit says so, and goes on from the last row it looked at', async () => {
    const filter: TaskFilter = { tab: 'failed', q: 'glow' };
    const expected = await scannedList(filter);
    const { ids, pages } = await pageThrough(filter, { probeRows: 350, timeLimitMs: 0 });
    // 9,000 tasks, 350 looked at a page: 26 pages, the last one complete.
    expect(pages).toHaveLength(26);
    expect(pages.slice(0, -1).every((page) => page.cutShort)).toBe(true);
    expect(pages.at(-1)!.cutShort).toBe(false);
    expect(ids).toEqual(expected);
    // A search too short for the trigram index stops after the walk, however much time there is.
    const { db } = await testDatabase();
    const short = await listTasks(
      db,
      { tab: 'running', q: 'bo' },
      { limit: 25 },
      { probeRows: 100, timeLimitMs: 60_000 },
    );
    expect(short).toMatchObject({ items: [], cutShort: true });
    expect(short.nextCursor).toMatch(/\.task-/);
    // A page the walk fills is not cut short, whatever the time limit.
    const dense = await listTasks(db, { tab: 'succeeded', q: 'glow' }, { limit: 25 }, { timeLimitMs: 0 });
    expect(dense.items).toHaveLength(25);
    expect(dense.cutShort).toBeUndefined();
  });
});

describe('the per-phase trigram indexes', () => {
  // The plan with bitmap scans only, as the index-driven queries run, and without the btrees that
  // hold phase: on a table this small the planner rightly prefers reading a whole tab through one.
  const plan = async (where: string) => {
    const { db } = await testDatabase();
    return db.connection().execute(async (conn) => {
      await sql`begin`.execute(conn);
      try {
        await sql`drop index tasks_phase_newest, tasks_creator_phase_newest`.execute(conn);
        await sql`set local enable_seqscan = off`.execute(conn);
        await sql`set local enable_indexscan = off`.execute(conn);
        const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select 1 from tasks where ${sql.raw(
          where,
        )}`.execute(conn);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        await sql`rollback`.execute(conn);
      }
    });
  };

  it('know that a creator has nothing in a tab, and answer "Mine" there from the (creator, tab) index', async () => {
    // Without the statistics of the combinations the planner multiplies Ana's share by Failed's
    // (here 3,000 x 1/3 rows) and, at 1M tasks, walks the newest-first index for a page it expects
    // within a few hundred rows: every task, when she has none (470 ms).
    const { db } = await testDatabase();
    const explain = async (query: string) =>
      (await sql<{ 'QUERY PLAN': string }>`explain ${sql.raw(query)}`.execute(db)).rows
        .map((row) => row['QUERY PLAN'])
        .join('\n');
    const estimate = await explain(`select * from tasks where creator = 'Ana' and phase = 'failed'`);
    expect(Number(/rows=(\d+)/.exec(estimate)?.[1])).toBeLessThan(10);
    const plan = await explain(`select * from tasks where creator = 'Ana' and phase = 'failed'
      order by created_at desc, id desc limit 51`);
    expect(plan).toContain('tasks_creator_phase_newest');
    expect(plan).not.toContain('Filter:');
    expect((await listTasks(db, { tab: 'failed', creator: 'Ana' }, { limit: 50 })).items).toEqual([]);
  });

  it("give a tab's search that tab's index only, and every tab's the three together", async () => {
    for (const phase of PHASES) {
      const tab = await plan(`search like '%zebra%' and phase = '${phase}'`);
      expect(tab).toContain(`tasks_search_${phase}`);
      for (const other of PHASES.filter((each) => each !== phase))
        expect(tab).not.toContain(`tasks_search_${other}`);
    }
    const all = await plan(
      `search like '%zebra%' and (phase = 'running' or phase = 'succeeded' or phase = 'failed')`,
    );
    expect(all).toContain('BitmapOr');
    for (const phase of PHASES) expect(all).toContain(`tasks_search_${phase}`);
    const { db } = await testDatabase();
    const { rows } = await sql`select 1 from pg_indexes where indexname = 'tasks_search'`.execute(db);
    expect(rows).toEqual([]);
  });
});
