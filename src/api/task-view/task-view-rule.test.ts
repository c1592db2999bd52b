// One rule for "this task belongs to this view" (./task-view-rule.ts), and the three places that
// apply it held to it: the server's SQL (listTasks and countTasks on PGlite), the live merge of
// pushed tasks (team-merge.ts) and the offline view of this browser's history (task-view.ts). The
// expected membership of every task in every view comes from the rule alone.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { filterTasks } from '@/features/tasks/shared/task-view';
import { mergePushedTask } from '@/features/tasks/team/team-merge';
import { toTeamTask, type TaskPage, type TeamQuery, type TeamTask } from '@/features/tasks/team/team-tasks';
import type { InfiniteData } from '@tanstack/react-query';
import { listTasks } from '../../../server/tasks/list';
import { countTasks } from '../../../server/tasks/list-counts';
import { createTaskRecorder } from '../../../server/tasks/recorder';
import { resetTestDatabase, testDatabase } from '../../../server/testing/database';
import type { TaskType } from '@/api/schemas';
import {
  lowerText,
  matchesView,
  normaliseSearch,
  phaseSql,
  phaseOf,
  searchSql,
  searchLikePattern,
  searchTextOf,
  TASK_PHASES,
  TASK_TABS,
  viewedFields,
  type TaskTab,
  type TaskViewQuery,
  type ViewedTask,
} from './task-view-rule';

describe('the rule', () => {
  it('has a task of every tab in the table below', () => {
    for (const phase of TASK_PHASES) expect(CASES.some((c) => phaseOf(c.status) === phase)).toBe(true);
  });

  it('puts a task in a tab by its status alone: SUCCEEDED, FAILED, anything else in progress', () => {
    expect(['SUCCEEDED', 'FAILED', '', 'QUEUED', 'succeeded', 'toString'].map(phaseOf)).toEqual([
      'succeeded',
      'failed',
      'running',
      'running',
      'running',
      'running',
    ]);
  });

  it('searches id, prompt, name, language and creator, joined by a space; never the status', () => {
    const task: ViewedTask = {
      id: 'I2IS-7',
      kind: 'image_generate',
      status: 'SUCCEEDED',
      prompt: 'Red Fox',
      name: 'Den',
      creator: 'Ada',
    };
    expect(searchTextOf(task)).toBe('i2is-7 red fox den  ada');
    expect(matchesView(task, { tab: 'all', q: 'fox den' })).toBe(true);
    expect(matchesView(task, { tab: 'all', q: 'succeeded' })).toBe(false);
  });

  it('compares text as PostgreSQL lower() does: one character for one', () => {
    expect(lowerText('İstanbul ΟΔΟΣ Straße')).toBe('istanbul οδοσ straße');
    expect(normaliseSearch(`  ${'X'.repeat(250)}`)).toBe('x'.repeat(198));
    expect(searchLikePattern(' 100%_\\ ')).toBe('%100\\%\\_\\\\%');
    expect(searchLikePattern('   ')).toBeUndefined();
  });

  it('filters by creator exactly, as recorded, and by kind', () => {
    const task: ViewedTask = { id: 'a', kind: 'video_translate', status: '', creator: 'Grace Hopper' };
    expect(matchesView(task, { tab: 'running', creator: 'Grace Hopper', kind: 'video_translate' })).toBe(
      true,
    );
    expect(matchesView(task, { tab: 'all', creator: 'grace hopper' })).toBe(false);
    expect(matchesView(task, { tab: 'all', kind: 'image_generate' })).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// The table: tasks as the service and the console saw them, and views of the Tasks screen.

const ME = 'Ada Lovelace';
const GRACE = 'Grace Hopper';

interface Case {
  id: string;
  kind: TaskType;
  /** '' when no status answer came. */
  status: string;
  /** The creation request; absent for a task known by lookup only. */
  params?: Record<string, unknown>;
  /** Target language at creation (translations). */
  language?: string;
  /** Fields of the status answer besides its status. */
  result?: Record<string, unknown>;
  creator?: string;
  /** The last status query answered 404: this browser shows "Not found". */
  notFound?: boolean;
  /** In this browser's history: made here (by ME), looked up here, or not at all. */
  here: 'made' | 'looked-up' | 'no';
}

const CASES: Case[] = [
  {
    id: 'i2is-fox',
    kind: 'image_generate',
    status: 'SUCCEEDED',
    params: { prompt: 'A Red Fox in the SNOW' },
    result: { name: 'den' },
    creator: ME,
    here: 'made',
  },
  {
    id: 'i2is-istanbul',
    kind: 'image_generate',
    status: 'PROCESSING',
    params: { prompt: 'İstanbul at night' },
    creator: ME,
    here: 'made',
  },
  {
    id: 'i2v-road',
    kind: 'image_to_video',
    status: 'FAILED',
    params: { prompt: 'ΟΔΟΣ by the sea, 100%_done \\ slow' },
    creator: GRACE,
    here: 'looked-up',
  },
  {
    id: 'vt-cut',
    kind: 'video_translate',
    status: 'SUCCEEDED',
    params: { name: 'Draft cut' },
    language: 'German',
    result: { name: 'Final cut' },
    creator: ME,
    here: 'made',
  },
  {
    id: 'vt-tour',
    kind: 'video_translate',
    status: 'QUEUED',
    result: { language: 'Japanese', name: 'Holiday tour' },
    here: 'looked-up',
  },
  {
    id: 'i2v-gone',
    kind: 'image_to_video',
    status: '',
    params: { prompt: 'succeeded once, in a dream' },
    creator: ME,
    notFound: true,
    here: 'made',
  },
  {
    id: 'i2is-grace',
    kind: 'image_generate',
    status: 'succeeded',
    params: { prompt: `${'x'.repeat(210)} fox` },
    creator: GRACE,
    here: 'no',
  },
  {
    id: 'vt-failed',
    kind: 'video_translate',
    status: 'FAILED',
    params: { name: 'Old fox footage' },
    language: 'French',
    creator: GRACE,
    here: 'no',
  },
];

/** Newest first: the table's order. */
const createdAt = (id: string) => Date.UTC(2026, 0, 1) - CASES.findIndex((c) => c.id === id) * 1000;

const FILTERS: Omit<TeamQuery, 'tab'>[] = [
  {},
  { kind: 'video_translate' },
  { kind: 'image_generate', q: 'fox' },
  { creator: ME },
  { creator: GRACE },
  { creator: 'grace hopper' },
  { creator: ME, q: 'ada' },
  { q: 'red fox' },
  { q: '  SNOW  ' },
  { q: 'fox den' }, // across the prompt and the name
  { q: 'istanbul' },
  { q: 'İSTANBUL' },
  { q: 'οδοσ' },
  { q: 'ΟΔΟΣ' },
  { q: '100%' },
  { q: '1%d' }, // % is a character, not a wildcard
  { q: '%_d' },
  { q: '_' },
  { q: '\\ s' },
  { q: 'succeeded' }, // the status is not searched
  { q: 'processing' },
  { q: 'grace' },
  { q: 'german' },
  { q: 'japanese' },
  { q: 'draft' }, // the answer's name replaced the request's
  { q: 'final cut' },
  { q: 'i2v-' },
  { q: `${'x'.repeat(201)}y` }, // the first 200 characters are searched
  { q: 'zzz' },
];
/** Each filter in every tab: one test per filter, its four tabs inside. */
const EACH_FILTER = FILTERS.map((filter) => [JSON.stringify(filter).slice(0, 80), filter] as const);
const tabsOf = (filter: Omit<TeamQuery, 'tab'>): TeamQuery[] => TASK_TABS.map((tab) => ({ tab, ...filter }));

/** The task as it is: what the rule reads of it. */
const truth = (c: Case): ViewedTask => viewedFields(c);
/** What this browser's history knows of it: a lookup knows no request and no creator. */
const knownHere = (c: Case): ViewedTask =>
  c.here === 'made'
    ? { ...truth(c), creator: ME }
    : viewedFields({ ...c, params: undefined, language: undefined, creator: undefined });

const expectedIds = (view: TaskViewQuery, cases: Case[], read: (c: Case) => ViewedTask) =>
  cases.filter((c) => matchesView(read(c), view)).map((c) => c.id);

function expectedCounts(view: TaskViewQuery, cases: Case[], read: (c: Case) => ViewedTask) {
  const counts: Record<TaskTab, number> = { all: 0, running: 0, succeeded: 0, failed: 0 };
  for (const tab of TASK_TABS) counts[tab] = expectedIds({ ...view, tab }, cases, read).length;
  return counts;
}

/** The team's record of the table, made through the recorder, read back as the browser gets it. */
let teamTasks: TeamTask[] = [];

beforeAll(async () => {
  const database = await resetTestDatabase();
  const recorder = createTaskRecorder(Promise.resolve(database));
  for (const c of CASES) {
    if (c.params)
      await recorder.created(c.kind, c.params, [{ id: c.id, language: c.language }], c.creator ?? null);
    if (c.status || c.result || !c.params)
      await recorder.status(c.kind, c.id, { status: c.status, ...c.result });
    if (c.notFound)
      await recorder.error(c.id, { kind: 'not_found', httpStatus: 404, code: 100003, msg: 'task not found' });
    await sql`update tasks set created_at = ${new Date(createdAt(c.id))} where id = ${c.id}`.execute(
      database.db,
    );
  }
  const page = await listTasks(database.db, { tab: 'all' }, { limit: 200 });
  teamTasks = page.items.map((item) => toTeamTask(JSON.parse(JSON.stringify(item)))!);
  expect(teamTasks.map((task) => task.id)).toEqual(CASES.map((c) => c.id));
});

describe("the server's SQL", () => {
  it('generates its phase and search columns as the rule says (phaseSql, searchSql)', async () => {
    const { db } = await testDatabase();
    const { rows } = await sql<{ id: string; phase: string; search: string; same: boolean }>`
      select id, phase, search,
        phase = (${sql.raw(phaseSql())}) and search = (${sql.raw(searchSql())}) as same
      from tasks`.execute(db);
    expect(rows.length).toBe(CASES.length);
    for (const row of rows) {
      const c = CASES.find((each) => each.id === row.id)!;
      expect(row.same, row.id).toBe(true);
      expect(row.phase, row.id).toBe(phaseOf(c.status));
      expect(row.search, row.id).toBe(searchTextOf(truth(c)));
    }
  });

  it.each(EACH_FILTER)('lists and counts by the rule, in every tab: %s', async (_, filter) => {
    const { db } = await testDatabase();
    for (const view of tabsOf(filter)) {
      const page = await listTasks(db, view, { limit: 200 });
      expect(
        page.items.map((item) => item.id),
        view.tab,
      ).toEqual(expectedIds(view, CASES, truth));
    }
    const { counts } = await countTasks(db, filter);
    expect(counts).toEqual(expectedCounts({ tab: 'all', ...filter }, CASES, truth));
  });
});

type Pages = InfiniteData<TaskPage, string | undefined>;
const listOf = (items: TeamTask[]): Pages => ({
  pages: [{ items, nextCursor: null }],
  pageParams: [undefined],
});
const itemsOf = (data: Pages) => data.pages.flatMap((page) => page.items);
const idsOf = (data: Pages) => itemsOf(data).map((task) => task.id);

describe('the live merge', () => {
  it.each(EACH_FILTER)(
    'takes in pushed tasks by the rule, and an older copy arriving late changes nothing: %s',
    (_, filter) => {
      for (const view of tabsOf(filter)) {
        // Pushed oldest first into an empty list, each one as the server sends it.
        let data = listOf([]);
        for (const task of [...teamTasks].reverse()) data = mergePushedTask(data, task, view);
        expect(idsOf(data), view.tab).toEqual(expectedIds(view, CASES, truth));
        // An older copy of each task shown, in any state, arriving after it: the task stays as it is.
        const shown = itemsOf(data);
        for (const task of shown)
          for (const status of ['PROCESSING', 'SUCCEEDED', 'FAILED', ''])
            data = mergePushedTask(data, { ...task, status, updatedAt: task.updatedAt - 1 }, view);
        expect(itemsOf(data), `${view.tab}, older copies`).toEqual(shown);
      }
    },
  );

  it.each(EACH_FILTER)(
    'keeps or takes out a task it holds by the rule when a newer copy comes: %s',
    (_, filter) => {
      for (const view of tabsOf(filter)) {
        // Every task on screen (as a list that matched their earlier states would hold them), then
        // each one's newer copy pushed: what stays is what the rule keeps.
        let data = listOf([...teamTasks]);
        for (const task of teamTasks)
          data = mergePushedTask(data, { ...task, updatedAt: task.updatedAt + 1 }, view);
        expect(idsOf(data), view.tab).toEqual(expectedIds(view, CASES, truth));
      }
    },
  );
});

describe('the offline view', () => {
  const history = (): TaskRecord[] =>
    CASES.filter((c) => c.here !== 'no').map((c) => ({
      id: c.id,
      kind: c.kind,
      source: c.here === 'made' ? 'created' : 'lookup',
      params: c.here === 'made' ? c.params : undefined,
      language: c.here === 'made' ? c.language : undefined,
      status: c.status,
      result: { task_id: c.id, status: c.status, ...c.result },
      lastError: c.notFound
        ? { kind: 'not_found', httpStatus: 404, code: 100003, msg: 'task not found', at: 1 }
        : undefined,
      createdAt: createdAt(c.id),
      updatedAt: createdAt(c.id),
    }));
  const inHistory = CASES.filter((c) => c.here !== 'no');
  const made = new Set(CASES.filter((c) => c.here === 'made').map((c) => c.id));

  it.each(EACH_FILTER)('shows and counts this browser’s tasks by the rule, in every tab: %s', (_, filter) => {
    for (const view of tabsOf(filter)) {
      const { shown, counts } = filterTasks(history(), view, ME);
      expect(
        shown.map((task) => task.id),
        view.tab,
      ).toEqual(expectedIds(view, inHistory, knownHere));
      expect(counts, view.tab).toEqual(expectedCounts(view, inHistory, knownHere));
    }
  });

  it.each(EACH_FILTER)('agrees with the server on the tasks this browser made: %s', async (_, filter) => {
    const { db } = await testDatabase();
    for (const view of tabsOf(filter)) {
      const server = (await listTasks(db, view, { limit: 200 })).items.map((item) => item.id);
      const offline = filterTasks(history(), view, ME).shown.map((task) => task.id);
      expect(
        offline.filter((id) => made.has(id)),
        view.tab,
      ).toEqual(server.filter((id) => made.has(id)));
    }
  });
});
