// Reading the log in steps that grow (8, 16, … 128 ids and sizes at a time), so a long catch-up
// costs a few small queries, and a short one asks for no more rows than it wants.
import { sql, type KyselyPlugin } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { readAfter, readPage } from './log-reads';

/** Rows each read of ids and sizes returned, in order. */
const steps: number[] = [];
const counting: KyselyPlugin = {
  transformQuery: ({ node }) => node,
  transformResult: async ({ result }) => {
    if (result.rows.length && result.rows.every((row) => row && typeof row === 'object' && 'bytes' in row))
      steps.push(result.rows.length);
    return result;
  },
};

beforeAll(async () => {
  const { db } = await resetTestDatabase();
  await sql`insert into callbacks (key, task_id, status, received_at, body)
    select 'k' || i, 't-' || i, 'SUCCEEDED', now(),
      jsonb_build_object('data', jsonb_build_object('task_id', 't-' || i, 'status', 'SUCCEEDED'))
    from generate_series(1, 400) as i`.execute(db);
});

describe('reading the log in growing steps', () => {
  it('reads 400 callbacks in steps of 8, 16, 32, 64, then 128 at most; 10 of them in one step', async () => {
    const db = (await testDatabase()).db.withPlugin(counting);
    steps.length = 0;
    expect((await readAfter(db, 0, 500)).map((entry) => entry.id)).toEqual(
      Array.from({ length: 400 }, (_, i) => i + 1),
    );
    expect(steps).toEqual([8, 16, 32, 64, 128, 128, 24]);
    steps.length = 0;
    expect((await readPage(db, { limit: 6, before: 400 })).items.map((entry) => entry.id)).toEqual([
      399, 398, 397, 396, 395, 394,
    ]);
    expect(steps).toEqual([6]);
    steps.length = 0;
    expect(await readAfter(db, 390, 500)).toHaveLength(10);
    expect(steps).toEqual([8, 2]);
  });
});
