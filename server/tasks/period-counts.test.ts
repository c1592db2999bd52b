// A period's tab counts on the Tasks screen, read from the Insights rollups (./period-counts.ts):
// equal to the tasks counted one by one, for periods on and beside midnight and the hour, with a kind,
// without the person's hidden tasks, after tasks change status and are deleted; on PGlite and PostgreSQL.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/database';
import { resetTestDatabase } from '../testing/database';
import { usePostgresInstances } from '../testing/postgres-instances';
import { countTasks } from './list-counts';
import type { TaskFilter } from './list-filter';
import { countPeriod, rollupCountable } from './period-counts';

const { freshDatabase, instance } = usePostgresInstances('period-counts-pg-secret-0123456789');
const HOUR = 3600_000;
const DAY = 24 * HOUR;
const MIDNIGHT = Date.parse('2026-03-05T00:00:00Z');

/** 400 tasks, one every 37 minutes over ten days, and some created exactly at midnight and on the hour. */
async function seed(db: Db) {
  await sql`insert into tasks (id, kind, source, status, created_at)
    select 'p-' || g, (array['image_generate', 'image_to_video', 'video_translate'])[g % 3 + 1], 'created',
      (array['SUCCEEDED', 'FAILED', 'PROCESSING', 'SUCCEEDED'])[g % 4 + 1],
      ${new Date(MIDNIGHT - 5 * DAY).toISOString()}::timestamptz + make_interval(mins => 37 * g)
    from generate_series(1, 400) g
    union all
    select 'edge-' || g, 'image_generate', 'created', 'FAILED',
      ${new Date(MIDNIGHT).toISOString()}::timestamptz + make_interval(hours => g) - make_interval(secs => (g % 2) * 0.001)
    from generate_series(0, 3) g`.execute(db);
  await sql`insert into hidden_tasks (user_id, task_id) values ('u-me', 'p-7'), ('u-me', 'edge-0'), ('u-me', 'p-200'),
    ('u-other', 'p-8')`.execute(db);
}

const PERIODS: Omit<TaskFilter, 'tab'>[] = [
  { from: MIDNIGHT },
  { to: MIDNIGHT },
  { from: MIDNIGHT, to: MIDNIGHT + HOUR },
  { from: MIDNIGHT - 1, to: MIDNIGHT + 1 },
  { from: MIDNIGHT + 1, to: MIDNIGHT + 3 * HOUR },
  { from: MIDNIGHT - 2 * DAY - 90 * 60_000, to: MIDNIGHT + 2 * DAY + 1234 },
  { from: MIDNIGHT - 3 * DAY, to: MIDNIGHT + 3 * DAY, kind: 'image_to_video' },
  { from: MIDNIGHT - 4 * DAY + 5, to: MIDNIGHT - 4 * DAY + 7 },
  { from: MIDNIGHT + DAY, to: MIDNIGHT },
];

async function expectAsCounted(db: Db) {
  for (const period of PERIODS)
    for (const filter of [period, { ...period, hiddenBy: 'u-me' }]) {
      expect(rollupCountable(filter)).toBe(true);
      const { rows } = await sql<{ phase: string; n: string }>`select phase, count(*) as n from tasks
        where created_at >= ${new Date(filter.from ?? 0).toISOString()}::timestamptz
          and created_at < ${new Date(filter.to ?? Date.UTC(9999, 0, 1)).toISOString()}::timestamptz
          and (${filter.kind ?? null}::text is null or kind = ${filter.kind ?? null})
          and not exists (select 1 from hidden_tasks h where h.user_id = ${filter.hiddenBy ?? ''} and h.task_id = tasks.id)
        group by phase`.execute(db);
      const expected = { all: 0, running: 0, succeeded: 0, failed: 0 };
      for (const row of rows) {
        expected[row.phase as 'running'] = Number(row.n);
        expected.all += Number(row.n);
      }
      expect({ filter, counts: (await countTasks(db, filter)).counts }).toEqual({ filter, counts: expected });
    }
}

async function scenario(db: Db) {
  await seed(db);
  await expectAsCounted(db);
  // edge-0, failed, is the one task of the millisecond at midnight: hidden, its phase is left out,
  // not counted as 0; an empty period counts nothing.
  const midnight = { from: MIDNIGHT, to: MIDNIGHT + 1 };
  expect(await countPeriod(db, midnight)).toEqual({ failed: 1 });
  expect(await countPeriod(db, { ...midnight, hiddenBy: 'u-me' })).toEqual({});
  expect(await countPeriod(db, { from: MIDNIGHT, to: MIDNIGHT })).toEqual({});
  // Counted, then changed: tasks finish, one at midnight succeeds, some are deleted.
  await sql`update tasks set status = 'FAILED' where status = 'PROCESSING' and id like 'p-1%'`.execute(db);
  await sql`update tasks set status = 'SUCCEEDED' where id = 'edge-0'`.execute(db);
  await sql`delete from tasks where id in ('p-3', 'edge-1', 'p-200')`.execute(db);
  await expectAsCounted(db);
}

describe("a period's tab counts", () => {
  it('equal the tasks counted one by one (PGlite)', async () => {
    const { db } = await resetTestDatabase();
    await scenario(db);
  });

  it('equal the tasks counted one by one (PostgreSQL)', async () => {
    const app = instance(freshDatabase());
    try {
      const { db } = await app.database;
      await scenario(db);
    } finally {
      await app.close();
    }
  });

  it('are counted from the rows when the view has more than a period and a kind', () => {
    expect(rollupCountable({ from: MIDNIGHT, creator: 'Ana' })).toBe(false);
    expect(rollupCountable({ from: MIDNIGHT, q: 'fox' })).toBe(false);
    expect(rollupCountable({ from: MIDNIGHT, errorCode: '530003' })).toBe(false);
    expect(rollupCountable({ from: MIDNIGHT, errorReason: 'Content policy' })).toBe(false);
    expect(rollupCountable({ from: MIDNIGHT, q: '  ' })).toBe(true);
    expect(rollupCountable({ from: MIDNIGHT, starredBy: 'u-me' })).toBe(false);
    expect(rollupCountable({ kind: 'image_generate' })).toBe(false);
  });
});
