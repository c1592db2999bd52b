// A task's cost, computed once when its row is written (migration 0026): the seconds of video it is
// charged against spending limits and the seconds it made for Insights, from the same fields the
// service and the creation form give, recomputed when its status or answer changes.
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import { resetTestDatabase, testDatabase } from '../testing/database';

beforeEach(async () => {
  await resetTestDatabase();
});

const CASES: [
  name: string,
  kind: string,
  status: string,
  params: unknown,
  result: unknown,
  charged: number,
  made: number,
][] = [
  ['answer duration wins', 'image_to_video', 'SUCCEEDED', { duration: 10 }, { duration: '7.5' }, 7.5, 7.5],
  ['asked-for duration', 'image_to_video', 'SUCCEEDED', { duration: 10 }, {}, 10, 10],
  ['KL default when none asked', 'image_to_video', 'PROCESSING', { model: 'KL' }, {}, 5, 0],
  ['V default when none asked', 'image_to_video', 'PROCESSING', { model: 'V' }, {}, 8, 0],
  [
    'a duration that is not a number',
    'image_to_video',
    'FAILED',
    { duration: 'long' },
    { duration: 'x' },
    8,
    0,
  ],
  ['made nothing when it names no length', 'image_to_video', 'SUCCEEDED', {}, {}, 8, 0],
  ['translation once its length is known', 'video_translate', 'SUCCEEDED', {}, { duration: 42 }, 42, 0],
  ['translation before', 'video_translate', 'PROCESSING', {}, {}, 0, 0],
  ['an image costs no video', 'image_generate', 'SUCCEEDED', { duration: 10 }, { duration: 9 }, 0, 0],
];

async function costs() {
  const { db } = await testDatabase();
  const { rows } = await sql<{ id: string; charged: string; made: string }>`
    select id, video_seconds_charged as charged, video_seconds_made as made from tasks order by id`.execute(
    db,
  );
  return Object.fromEntries(rows.map((row) => [row.id, [Number(row.charged), Number(row.made)]]));
}

describe("a task's cost", () => {
  it('is computed when the row is written, as limits and Insights count it', async () => {
    const { db } = await testDatabase();
    for (const [i, [, kind, status, params, result]] of CASES.entries())
      await sql`insert into tasks (id, kind, source, status, params, result)
        values (${`c-${i}`}, ${kind}, 'created', ${status}, ${JSON.stringify(params)}::jsonb,
          ${JSON.stringify(result)}::jsonb)`.execute(db);
    const got = await costs();
    for (const [i, [name, , , , , charged, made]] of CASES.entries())
      expect({ name, cost: got[`c-${i}`] }).toEqual({ name, cost: [charged, made] });
  });

  it('follows a change of status and answer', async () => {
    const { db } = await testDatabase();
    await sql`insert into tasks (id, kind, source, status, params)
      values ('v', 'image_to_video', 'created', 'PROCESSING', '{"duration": 10}'::jsonb)`.execute(db);
    expect((await costs()).v).toEqual([10, 0]);
    await sql`update tasks set status = 'SUCCEEDED', result = '{"duration": "9"}'::jsonb where id = 'v'`.execute(
      db,
    );
    expect((await costs()).v).toEqual([9, 9]);
  });
});
