// The failure choices of the Tasks screen's filters (/__console/tasks/errors) read from
// `task_failure_counts` (kept by triggers, migration 0026): they equal the failed tasks counted row by
// row, per kind and creator, without the tasks a person hid, as tasks are added, change status and are
// deleted; on PGlite and on PostgreSQL.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/database';
import { FAILURE_CODE, FAILURE_REASON } from '../db/failure-sql';
import { resetTestDatabase } from '../testing/database';
import { usePostgresInstances } from '../testing/postgres-instances';
import { countFailures } from './list-filter-choices';

const { freshDatabase, instance } = usePostgresInstances('failure-counts-pg-secret-0123456789');

/** 60 tasks: three kinds, three creators and none, four reasons (one with no code, one with an empty code). */
async function seed(db: Db) {
  await sql`insert into tasks (id, kind, source, creator, status, result, last_error, created_at)
    select 'f-' || g, (array['image_generate', 'image_to_video', 'video_translate'])[g % 3 + 1], 'created',
      (array['Ana', 'Ben', 'Cy', null])[g % 4 + 1],
      case when g % 5 = 0 then 'SUCCEEDED' when g % 7 = 0 then 'PROCESSING' else 'FAILED' end,
      case g % 4 when 0 then '{"error_code": "530003", "error_message": "Content refused"}'::jsonb
        when 1 then '{"error_message": " Timed out "}'::jsonb
        when 2 then '{"code": "", "error_message": ""}'::jsonb else '{}'::jsonb end,
      case when g % 4 = 3 then '{"code": "", "msg": "Lost"}'::jsonb end,
      timestamptz '2026-03-01T00:00:00Z' + make_interval(mins => g)
    from generate_series(1, 60) g`.execute(db);
}

/** What the choices should be, counted from the rows (hidden ones left out). */
async function counted(db: Db, where: string, hiddenBy?: string) {
  const hidden = hiddenBy
    ? sql`and not exists (select 1 from hidden_tasks h where h.user_id = ${hiddenBy} and h.task_id = tasks.id)`
    : sql``;
  const rows = sql`select ${FAILURE_CODE} as code, ${FAILURE_REASON} as reason from tasks
    where phase = 'failed' and ${sql.raw(where)} ${hidden}`;
  const reasons = await sql<{ code: string | null; reason: string; count: string }>`
    select code, reason, count(*) as count from (${rows}) r group by 1, 2 order by 3 desc, 2`.execute(db);
  const codes = await sql<{ code: string | null; count: string }>`
    select code, count(*) as count from (${rows}) r group by 1 order by 2 desc, 1`.execute(db);
  return {
    reasons: reasons.rows.map((row) => ({ ...row, count: Number(row.count) })),
    codes: codes.rows.map((row) => ({ ...row, count: Number(row.count) })),
  };
}

async function expectAsCounted(db: Db) {
  expect(await countFailures(db, {})).toEqual(await counted(db, 'true'));
  expect(await countFailures(db, { kind: 'image_to_video' })).toEqual(
    await counted(db, `kind = 'image_to_video'`),
  );
  expect(await countFailures(db, { creator: 'Ben', kind: 'video_translate' })).toEqual(
    await counted(db, `creator = 'Ben' and kind = 'video_translate'`),
  );
  expect(await countFailures(db, { hiddenBy: 'u-ana' })).toEqual(await counted(db, 'true', 'u-ana'));
  expect(await countFailures(db, { hiddenBy: 'u-ana', creator: 'Cy' })).toEqual(
    await counted(db, `creator = 'Cy'`, 'u-ana'),
  );
}

async function scenario(db: Db) {
  await seed(db);
  const before = await countFailures(db, {});
  // Four reasons and "no code", "530003" and "" as codes: the seed covers every branch.
  expect(before.reasons.map((r) => r.reason).sort()).toEqual([
    'Content refused',
    'Lost',
    'No reason given',
    'Timed out',
  ]);
  expect(before.codes.map((r) => r.code)).toContain('');
  expect(before.codes.map((r) => r.code)).toContain(null);
  await sql`insert into hidden_tasks (user_id, task_id) values ('u-ana', 'f-1'), ('u-ana', 'f-2'), ('u-ana', 'f-10'), ('u-bo', 'f-3')`.execute(
    db,
  );
  await expectAsCounted(db);
  // Counted, then changed: some failed tasks succeed, some running ones fail with another reason,
  // some change creator, some are deleted.
  await sql`update tasks set status = 'SUCCEEDED' where id in ('f-1', 'f-3', 'f-6')`.execute(db);
  await sql`update tasks set status = 'FAILED', result = '{"error_message": "Late"}'::jsonb
    where status = 'PROCESSING'`.execute(db);
  await sql`update tasks set creator = 'Cy' where id in ('f-9', 'f-13')`.execute(db);
  await sql`delete from tasks where id in ('f-2', 'f-11', 'f-17')`.execute(db);
  await expectAsCounted(db);
}

describe('the failure choices', () => {
  it('equal the failed tasks counted row by row, before and after changes (PGlite)', async () => {
    const { db } = await resetTestDatabase();
    await scenario(db);
  });

  it('equal the failed tasks counted row by row, before and after changes (PostgreSQL)', async () => {
    const app = instance(freshDatabase());
    try {
      const { db } = await app.database;
      await scenario(db);
    } finally {
      await app.close();
    }
  });

  it('list exactly 50 reasons and codes, the most common, of 51', async () => {
    const { db } = await resetTestDatabase();
    await sql`insert into tasks (id, kind, source, status, result)
      select 'r-' || g || '-' || k, 'image_generate', 'created', 'FAILED',
        jsonb_build_object('error_code', 'c' || g, 'error_message', 'Reason ' || g)
      from generate_series(1, 51) g, generate_series(1, g) k`.execute(db);
    const { reasons, codes } = await countFailures(db, {});
    expect(reasons).toHaveLength(50);
    expect(codes).toHaveLength(50);
    expect(reasons[0]).toEqual({ code: 'c51', reason: 'Reason 51', count: 51 });
    expect(reasons.at(-1)).toEqual({ code: 'c2', reason: 'Reason 2', count: 2 });
    await sql`delete from tasks where id = 'r-1-1'`.execute(db);
    expect((await countFailures(db, {})).reasons).toHaveLength(50);
    expect((await countFailures(db, {})).reasons.at(-1)?.code).toBe('c2');
    await sql`delete from tasks where id like 'r-2-%'`.execute(db);
    expect((await countFailures(db, {})).reasons).toHaveLength(49);
  });
});
