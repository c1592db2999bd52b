// The tab counts: exact from `task_counts` without a search (kept by triggers through every kind of
// change), bounded at COUNT_CAP with one, and said so to the browser (`countsCapped`).
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { testDatabase } from '../testing/database';
import { scannedCounts } from '../testing/scanned-counts';
import { useTestNodeApp } from '../testing/test-node-app';
import { COUNT_CAP, countTasks } from './list-counts';
import { applyStatus } from './recorder';

const server = useTestNodeApp('counts-test');

const scanned = async (filter: { kind?: string; creator?: string } = {}) =>
  scannedCounts((await testDatabase()).db, filter);

async function insertTasks(count: number, from = 0, prompt = 'misty fox') {
  const { db } = await testDatabase();
  await sql`insert into tasks (id, kind, source, prompt, creator, status)
    select 'task-' || g, (array['image_generate','video_translate'])[1 + g % 2], 'created',
      ${prompt} || ' ' || g, (array['Ana','Bo', null])[1 + g % 3],
      (array['SUCCEEDED','FAILED','PROCESSING'])[1 + g % 3]
    from generate_series(${from}::int, ${from + count - 1}::int) g`.execute(db);
}

describe('tab counts without a search', () => {
  it('follow every insert, update, upsert, delete and truncate of tasks', async () => {
    const { db } = await testDatabase();
    await insertTasks(30);
    for (const filter of [
      {},
      { kind: 'image_generate' },
      { creator: 'Bo' },
      { kind: 'video_translate', creator: 'Ana' },
    ])
      expect((await countTasks(db, filter)).counts).toEqual(await scanned(filter));
    // A status change moves a task between tabs; a callback may change its kind too.
    await db.updateTable('tasks').set({ status: 'SUCCEEDED' }).where('status', '=', 'PROCESSING').execute();
    await db
      .transaction()
      .execute((trx) => applyStatus(trx, 'image_to_video', 'task-1', { status: 'FAILED' }, 'callback'));
    await db
      .transaction()
      .execute((trx) => applyStatus(trx, 'image_generate', 'new-one', { status: 'PENDING' }, 'lookup'));
    await db.deleteFrom('tasks').where('id', 'in', ['task-2', 'task-3']).execute();
    for (const filter of [{}, { kind: 'image_to_video' }, { creator: 'Ana' }])
      expect((await countTasks(db, filter)).counts).toEqual(await scanned(filter));
    expect((await countTasks(db, {})).capped).toBe(false);
    await sql`truncate tasks cascade`.execute(db);
    expect((await countTasks(db, {})).counts).toEqual({ all: 0, running: 0, succeeded: 0, failed: 0 });
  });

  it('roll back with the change that failed', async () => {
    const { db } = await testDatabase();
    await insertTasks(5);
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.deleteFrom('tasks').execute();
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect((await countTasks(db, {})).counts.all).toBe(5);
  });
});

describe('tab counts with a search', () => {
  it(`count each tab up to ${COUNT_CAP} and say so, exact below`, async () => {
    const { db } = await testDatabase();
    await insertTasks(COUNT_CAP + 200, 0, 'misty fox');
    await insertTasks(7, 5000, 'golden whale');
    const common = await countTasks(db, { q: 'fox' });
    expect(common.capped).toBe(true);
    expect(common.counts.all).toBe(COUNT_CAP);
    expect(common.counts.failed).toBe(Math.round((COUNT_CAP + 200) / 3)); // 400: under the cap, exact
    const rare = await countTasks(db, { q: 'WHALE' });
    expect(rare.capped).toBe(false);
    expect(rare.counts.all).toBe(7);

    const body = async (query: string) =>
      (
        (await (await server.request(`/__console/tasks${query}`)).json()) as {
          data: { counts: Record<string, number>; countsCapped?: boolean };
        }
      ).data;
    expect(await body('?q=fox')).toMatchObject({ counts: { all: COUNT_CAP }, countsCapped: true });
    const exact = await body('?q=whale');
    expect(exact.counts.all).toBe(7);
    expect(exact.countsCapped).toBeUndefined();
    expect((await body('')).counts.all).toBe(COUNT_CAP + 207);
  });
});
