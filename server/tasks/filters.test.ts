// The Tasks screen's period, failure and order filters in SQL (server/tasks/list*.ts): each filter
// alone, the counts under it, the failures grouped with counts, and keyset paging through every
// order (tasks sharing a sort key, a created_at, both), each task once and in order.
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { listTasks } from './list';
import { countTasks } from './list-counts';
import type { TaskFilter } from './list-filter';
import { countFailures, listCreators } from './list-filter-choices';

const DAY = 24 * 3600_000;
const T0 = Date.parse('2026-03-01T00:00:00Z');

beforeEach(async () => {
  const { db } = await resetTestDatabase();
  // 24 tasks, one every 6 hours from T0 (task-00 the oldest), by Ana, Ben, Cy in turn. Every third
  // failed (two reasons, one with a code), every third still running, the rest succeeded; the
  // finished ones took 10, 20, 30 or 40 s (so several share a duration). Two more share the
  // newest task's created_at.
  await sql`insert into tasks (id, kind, source, prompt, creator, status, result, created_at, finished_at)
    select 'task-' || lpad(g::text, 2, '0'), 'image_generate', 'created', 'misty fox',
      (array['Ana', 'Ben', 'Cy'])[g % 3 + 1],
      case g % 3 when 0 then 'FAILED' when 1 then 'SUCCEEDED' else 'RUNNING' end,
      case when g % 3 = 0 and g % 2 = 0 then '{"error_code": "530003", "error_message": "Content refused"}'::jsonb
           when g % 3 = 0 then '{"error_message": "Timed out"}'::jsonb else '{}'::jsonb end,
      timestamptz '2026-03-01T00:00:00Z' + make_interval(hours => 6 * g),
      case when g % 3 <> 2 then timestamptz '2026-03-01T00:00:00Z' + make_interval(hours => 6 * g)
        + make_interval(secs => 10 * (g % 4 + 1)) end
    from generate_series(0, 23) g
    union all
    select 'twin-' || g, 'image_generate', 'created', 'misty fox', 'Ana', 'SUCCEEDED', '{}'::jsonb,
      timestamptz '2026-03-01T00:00:00Z' + make_interval(hours => 6 * 23),
      timestamptz '2026-03-01T00:00:00Z' + make_interval(hours => 6 * 23) + make_interval(secs => 20)
    from generate_series(1, 2) g`.execute(db);
});

async function pageThrough(filter: TaskFilter, limit: number) {
  const { db } = await testDatabase();
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 100; guard++) {
    const page = await listTasks(db, filter, { cursor, limit }, { timeLimitMs: 60_000 });
    ids.push(...page.items.map((task) => task.id));
    if (!page.nextCursor) return ids;
    cursor = page.nextCursor;
  }
  throw new Error('paging did not end');
}

async function expected(order: string, where = 'true') {
  const { db } = await testDatabase();
  const { rows } = await sql<{ id: string }>`select id from tasks where ${sql.raw(where)}
    order by ${sql.raw(order)}`.execute(db);
  return rows.map((row) => row.id);
}

const LONGEST = `coalesce(extract(epoch from finished_at - created_at), -1) desc, created_at desc, id desc`;
const FAILED_FIRST = `(status = 'FAILED') desc, created_at desc, id desc`;

describe('sort, paged', () => {
  it.each([
    ['newest', 'created_at desc, id desc'],
    ['longest', LONGEST],
    ['failed', FAILED_FIRST],
  ] as const)('%s first: every task once, in order, whatever the page size', async (sort, order) => {
    const all = await expected(order);
    expect(all).toHaveLength(26);
    for (const limit of [1, 2, 5, 7, 26])
      expect({ limit, ids: await pageThrough({ tab: 'all', sort }, limit) }).toEqual({ limit, ids: all });
  });

  it('longest first puts the longest finished task first and the running ones last', async () => {
    const ids = await pageThrough({ tab: 'all', sort: 'longest' }, 4);
    expect(ids[0]).toBe('task-19'); // 19 % 4 = 3: 40 s, the newest of those
    expect(ids.slice(-8).every((id) => Number(id.slice(5)) % 3 === 2)).toBe(true);
  });

  it('sorts within a tab, a search and a creator too', async () => {
    const where = `creator = 'Ben' and status <> 'RUNNING'`;
    expect(await pageThrough({ tab: 'all', creator: 'Ben', q: 'misty', sort: 'longest' }, 3)).toEqual(
      (await expected(LONGEST, `creator = 'Ben'`)).filter((id) => id.startsWith('task')),
    );
    expect(await pageThrough({ tab: 'succeeded', creator: 'Ben', sort: 'failed' }, 2)).toEqual(
      await expected(FAILED_FIRST, `${where} and status = 'SUCCEEDED'`),
    );
  });

  it('goes on from a cursor whose task is gone', async () => {
    const { db } = await testDatabase();
    const first = await listTasks(db, { tab: 'all', sort: 'longest' }, { limit: 5 });
    await sql`delete from tasks where id = ${first.items.at(-1)!.id}`.execute(db);
    const next = await listTasks(
      db,
      { tab: 'all', sort: 'longest' },
      { cursor: first.nextCursor!, limit: 50 },
    );
    expect([...first.items, ...next.items].map((task) => task.id)).toEqual(
      [...first.items.map((task) => task.id), ...(await expected(LONGEST)).slice(4)].filter(
        (id, i, ids) => ids.indexOf(id) === i,
      ),
    );
  });
});

describe('period', () => {
  it('keeps the tasks created from `from` (inclusive) to `to` (exclusive), paged and counted', async () => {
    const filter: TaskFilter = { tab: 'all', from: T0 + DAY, to: T0 + 2 * DAY };
    expect(await pageThrough(filter, 3)).toEqual(['task-07', 'task-06', 'task-05', 'task-04']);
    const { db } = await testDatabase();
    expect((await countTasks(db, filter)).counts).toEqual({ all: 4, running: 1, succeeded: 2, failed: 1 });
    expect(await pageThrough({ ...filter, sort: 'failed' }, 1)).toEqual([
      'task-06',
      'task-07',
      'task-05',
      'task-04',
    ]);
  });
});

describe('failures', () => {
  it('groups the failed tasks by reason and by code, with counts, under the other filters', async () => {
    const { db } = await testDatabase();
    expect(await countFailures(db, {})).toEqual({
      reasons: [
        { code: '530003', reason: 'Content refused', count: 4 },
        { code: null, reason: 'Timed out', count: 4 },
      ],
      codes: [
        { code: '530003', count: 4 },
        { code: null, count: 4 },
      ],
    });
    // The failure filter itself is left out: the other reasons stay on offer.
    const chosen = await countFailures(db, { errorReason: 'Timed out' });
    expect(chosen.reasons.map((row) => row.reason)).toEqual(['Content refused', 'Timed out']);
    // Ben's tasks never failed; of the failures in the last day, two.
    expect(await countFailures(db, { creator: 'Ben' })).toEqual({ reasons: [], codes: [] });
    expect((await countFailures(db, { from: T0 + 4.5 * DAY })).reasons).toEqual([
      { code: '530003', reason: 'Content refused', count: 1 },
      { code: null, reason: 'Timed out', count: 1 },
    ]);
    expect((await countFailures(db, { from: T0 + 10 * DAY })).reasons).toEqual([]);
  });

  it('filters by reason and by code, counted', async () => {
    const { db } = await testDatabase();
    expect(await pageThrough({ tab: 'all', errorReason: 'Timed out' }, 2)).toEqual([
      'task-21',
      'task-15',
      'task-09',
      'task-03',
    ]);
    expect(await pageThrough({ tab: 'all', errorCode: '530003', sort: 'longest' }, 3)).toEqual(
      await expected(LONGEST, `result->>'error_code' = '530003'`),
    );
    expect((await countTasks(db, { errorCode: '530003' })).counts).toEqual({
      all: 4,
      running: 0,
      succeeded: 0,
      failed: 4,
    });
    expect(await pageThrough({ tab: 'succeeded', errorCode: '530003' }, 5)).toEqual([]);
    // "none": the failures without a code.
    expect(await pageThrough({ tab: 'all', errorCode: 'none' }, 10)).toEqual([
      'task-21',
      'task-15',
      'task-09',
      'task-03',
    ]);
  });
});

it('lists the creators once each, by name', async () => {
  const { db } = await testDatabase();
  expect(await listCreators(db)).toEqual(['Ana', 'Ben', 'Cy']);
});
