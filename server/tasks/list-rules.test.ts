// The list's rules that the larger list tests do not pin (server/tasks/list*.ts): which searches
// the trigram indexes can serve, the phases a search of every tab names for the planner, the
// Starred, "changes requested" and failure-reason views, the last page of another order, a walk
// that finds more matches than a page, one task with its timeline, and a search's time limit.
import { sql } from 'kysely';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { getTask, listTasks } from './list';
import { conditions, indexable, type TaskFilter } from './list-filter';
import { deadlineOf, indexDriven } from './list-time-limit';

// Six tasks a minute apart (task-1 the oldest): task-1..4 succeeded (task-4 the quickest), task-5
// failed with no reason given, task-6 still running. Ana starred task-2 and task-3, Bo task-1;
// someone asked changes on task-3.
beforeAll(async () => {
  const { db } = await resetTestDatabase();
  await sql`insert into tasks (id, kind, source, prompt, status, created_at, finished_at)
    select 'task-' || g, 'image_generate', 'created', 'misty fox',
      case g when 5 then 'FAILED' when 6 then 'RUNNING' else 'SUCCEEDED' end,
      timestamptz '2026-03-01' + make_interval(mins => g),
      case when g < 6 then timestamptz '2026-03-01' + make_interval(mins => g, secs => 60 - 10 * g) end
    from generate_series(1, 6) g`.execute(db);
  await sql`insert into starred_tasks (user_id, task_id)
    values ('user-ana', 'task-2'), ('user-ana', 'task-3'), ('user-bo', 'task-1')`.execute(db);
  await sql`insert into review_decisions (task_id, user_id, user_name, decision)
    values ('task-3', 'user-bo', 'Bo', 'changes_requested'), ('task-2', 'user-bo', 'Bo', 'approved')`.execute(
    db,
  );
  await sql`insert into task_events (task_id, at, source, status)
    values ('task-1', timestamptz '2026-03-01 00:01', 'created', null),
      ('task-1', timestamptz '2026-03-01 00:01:50', 'poll', 'SUCCEEDED')`.execute(db);
});

const ids = async (filter: Partial<TaskFilter>, limit = 50, options = {}) => {
  const { db } = await testDatabase();
  return (await listTasks(db, { tab: 'all', ...filter }, { limit }, options)).items.map((task) => task.id);
};

describe('what a search can ask of the trigram indexes', () => {
  it('is a run of three letters or digits, of any script', () => {
    expect(['fox', '123', 'a1b', 'ñaö', 'x fox'].map(indexable)).toEqual([true, true, true, true, true]);
    expect(['fo', 'a-b-c', '1.2.3', '---', '', undefined].map(indexable)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
  });

  it('names the three phases for a search of every tab (the planner matches each index on them), and none without a search', async () => {
    const { db } = await testDatabase();
    const text = (q: string | undefined) => conditions({ q }, 'every').compile(db).sql;
    expect(text('fox')).toContain(`(phase = 'running' or phase = 'succeeded' or phase = 'failed')`);
    expect(text(undefined)).not.toContain('phase');
  });
});

describe('the views', () => {
  it('Starred: my stars only, and starred first in my order', async () => {
    expect(await ids({ starredBy: 'user-ana' })).toEqual(['task-3', 'task-2']);
    expect(await ids({ starredBy: 'user-cy' })).toEqual([]);
    expect(await ids({ sort: 'starred', asker: 'user-ana' })).toEqual([
      'task-3',
      'task-2',
      'task-6',
      'task-5',
      'task-4',
      'task-1',
    ]);
  });

  it('changes requested: only the results someone asked changes on', async () => {
    expect(await ids({ changesRequested: true })).toEqual(['task-3']);
  });

  it('a failure reason alone: failed tasks only, though the others have no reason either', async () => {
    expect(await ids({ errorReason: 'No reason given' })).toEqual(['task-5']);
  });

  it('another order: a page holding exactly the rest has no next cursor, one short of it has one', async () => {
    const { db } = await testDatabase();
    const exactly = await listTasks(db, { tab: 'all', sort: 'longest' }, { limit: 6 });
    expect(exactly.items.map((task) => task.id)).toEqual([
      'task-1',
      'task-2',
      'task-3',
      'task-4',
      'task-5',
      'task-6',
    ]);
    expect(exactly.nextCursor).toBeNull();
    expect((await listTasks(db, { tab: 'all', sort: 'longest' }, { limit: 5 })).nextCursor).not.toBeNull();
  });

  it('a search whose walk finds more matches than the page: the newest page, and a next one', async () => {
    const { db } = await testDatabase();
    const options = { probeRows: 5, timeLimitMs: 60_000 };
    const page = await listTasks(db, { tab: 'all', q: 'misty' }, { limit: 3 }, options);
    expect(page.items.map((task) => task.id)).toEqual(['task-6', 'task-5', 'task-4']);
    expect(page.nextCursor).not.toBeNull();
    expect(page.cutShort).toBeUndefined();
  });
});

describe('one task', () => {
  it('comes with its timeline in order; an unknown one is none', async () => {
    const { db } = await testDatabase();
    const found = await getTask(db, 'task-1');
    expect(found?.task).toMatchObject({ id: 'task-1', status: 'SUCCEEDED' });
    expect(found?.events).toEqual([
      { at: Date.parse('2026-03-01T00:01:00Z'), source: 'created' },
      { at: Date.parse('2026-03-01T00:01:50Z'), source: 'poll', status: 'SUCCEEDED' },
    ]);
    expect((await getTask(db, 'task-6'))?.events).toEqual([]);
    expect(await getTask(db, 'task-9')).toBeUndefined();
  });
});

describe("a search's time limit", () => {
  it('is 150 ms unless the caller sets another', () => {
    const before = performance.now();
    const byDefault = deadlineOf({}) - before;
    const set = deadlineOf({ timeLimitMs: 5_000 }) - before;
    const after = performance.now() - before;
    // A thousandth of a millisecond either side for the floating point of the subtraction.
    expect(byDefault).toBeGreaterThanOrEqual(149.999);
    expect(byDefault).toBeLessThanOrEqual(150.001 + after);
    expect(set).toBeGreaterThanOrEqual(4_999.999);
    expect(set).toBeLessThanOrEqual(5_000.001 + after);
  });

  it('runs nothing past the deadline, gives none for a cancelled query, and passes any other error on', async () => {
    const { db } = await testDatabase();
    let ran = false;
    const run = () => {
      ran = true;
      return Promise.resolve('ran');
    };
    expect(await indexDriven(db, performance.now() - 1, {}, run)).toBeUndefined();
    // Exactly at the deadline: a statement_timeout of 0 ms would be none at all.
    const now = vi.spyOn(performance, 'now').mockReturnValue(1_000);
    try {
      expect(await indexDriven(db, 1_000, {}, run)).toBeUndefined();
      expect(ran).toBe(false);
      expect(await indexDriven(db, 1_000.5, {}, run)).toBe('ran');
    } finally {
      now.mockRestore();
    }
    ran = false;
    expect(await indexDriven(db, performance.now() + 60_000, {}, run)).toBe('ran');
    const cancelled = Object.assign(new Error('canceling statement'), { code: '57014' });
    expect(
      await indexDriven(db, performance.now() + 60_000, {}, () => Promise.reject(cancelled)),
    ).toBeUndefined();
    const broken = Object.assign(new Error('broken'), { code: '42P01' });
    await expect(indexDriven(db, performance.now() + 60_000, {}, () => Promise.reject(broken))).rejects.toBe(
      broken,
    );
  });
});
