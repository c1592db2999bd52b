// Paging through tasks that share a millisecond: the tasks of one request share their created_at
// to the microsecond, and a busy millisecond holds several. The cursor carries milliseconds, so
// each page must go on from its last task's exact time, or the rest of that millisecond is lost.
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { listTasks } from './list';
import type { TaskFilter } from './list-filter';
import type { SearchOptions } from './list-time-limit';

beforeEach(async () => {
  const { db } = await resetTestDatabase();
  // 12 tasks in one millisecond: four share one microsecond (a request's batch), the others are a
  // few microseconds apart; and 3 older ones.
  await sql`insert into tasks (id, kind, source, prompt, status, created_at)
    select 'task-' || lpad(g::text, 2, '0'), 'image_generate', 'created', 'misty fox', 'SUCCEEDED',
      timestamptz '2026-01-01 00:00:00.123000' + make_interval(secs => (case when g <= 4 then 400 else g * 37 end) / 1e6)
    from generate_series(1, 12) g
    union all
    select 'old-' || g, 'image_generate', 'created', 'misty fox', 'SUCCEEDED',
      timestamptz '2025-12-31' - make_interval(secs => g)
    from generate_series(1, 3) g`.execute(db);
});

async function pageThrough(filter: TaskFilter, limit: number, options: SearchOptions) {
  const { db } = await testDatabase();
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 50; guard++) {
    const page = await listTasks(db, filter, { cursor, limit }, options);
    ids.push(...page.items.map((task) => task.id));
    if (!page.nextCursor) return ids;
    cursor = page.nextCursor;
  }
  throw new Error('paging did not end');
}

describe('paging within one millisecond', () => {
  it.each([
    ['the list', { tab: 'all' } as TaskFilter, {}],
    ['a search, walked', { tab: 'all', q: 'misty' } as TaskFilter, {}],
    ['a search cut short at each walk', { tab: 'all', q: 'fo' } as TaskFilter, { probeRows: 5 }],
  ])('%s shows every task once, newest first', async (_, filter, options) => {
    const { db } = await testDatabase();
    const { rows } = await sql<{
      id: string;
    }>`select id from tasks order by created_at desc, id desc`.execute(db);
    for (const limit of [1, 2, 3, 5])
      expect({ limit, ids: await pageThrough(filter, limit, options) }).toEqual({
        limit,
        ids: rows.map((row) => row.id),
      });
  });
});

describe('the last page', () => {
  it.each([
    ['the list', { tab: 'all' } as TaskFilter, {}],
    // A time limit no loaded machine reaches: a search cut short would end its page early on purpose.
    ['a search', { tab: 'all', q: 'misty' } as TaskFilter, { timeLimitMs: 60_000 }],
  ])(
    '%s: a page holding exactly the rest has no next cursor; one short of it has one',
    async (_, filter, options) => {
      const { db } = await testDatabase();
      const exactly = await listTasks(db, filter, { limit: 15 }, options);
      expect(exactly.items).toHaveLength(15);
      expect(exactly.nextCursor).toBeNull();
      const short = await listTasks(db, filter, { limit: 14 }, options);
      expect(short.items).toHaveLength(14);
      expect(short.nextCursor).not.toBeNull();
    },
  );
});
