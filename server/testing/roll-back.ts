// Migration backfill tests start from a migrated database and take it back to the schema before the
// migration they test, with rows recorded the old way. What each migration created is undone here,
// once, newest first: a new migration adds its line here instead of to every such test.
import { sql } from 'kysely';
import type { Db } from '../db/database';

const UNDO: readonly [migration: string, undo: (db: Db) => Promise<unknown>][] = [
  // 0026 and 0027 also rewrote 0012's trigger functions: roll back to 0012 or earlier, not to 0026
  // or 0027 alone.
  ['0027', (db) => sql`drop table insights_failures_hourly`.execute(db)],
  [
    '0026',
    async (db) => {
      await sql`drop table insights_rollup_hourly, insights_failures_daily, task_failure_counts`.execute(db);
      await sql`drop index tasks_succeeded_recent`.execute(db);
      await sql`alter table tasks drop column video_seconds_made, drop column video_seconds_charged`.execute(
        db,
      );
      await sql`drop function task_video_made, task_video_charged, insights_weighted`.execute(db);
    },
  ],
  ['0025', (db) => sql`drop table sign_in_failures, callback_senders, upload_tallies`.execute(db)],
  [
    '0022',
    async (db) => {
      await sql`drop table review_comments, review_decisions`.execute(db);
      await sql`drop index board_items_task`.execute(db);
    },
  ],
  ['0021', (db) => sql`drop table shares, share_guesses`.execute(db)],
  ['0020', (db) => sql`drop table webhook_deliveries, webhooks`.execute(db)],
  ['0016', (db) => sql`drop table api_tokens`.execute(db)],
  [
    '0015',
    async (db) => {
      await sql`drop table board_items, boards, starred_tasks`.execute(db);
      await sql`alter table requests drop column parent_request_id`.execute(db);
    },
  ],
  ['0014', (db) => sql`drop table task_follows, follow_brake`.execute(db)],
  ['0013', (db) => sql`drop table hidden_tasks`.execute(db)],
  [
    '0012',
    async (db) => {
      await sql`drop function insights_rollup_insert, insights_rollup_update, insights_rollup_delete,
        insights_rollup_truncate cascade`.execute(db);
      await sql`drop aggregate insights_hist(integer, integer, integer)`.execute(db);
      await sql`drop function insights_hist_step, insights_add, insights_negate, insights_dense,
        insights_bucket, insights_video_seconds`.execute(db);
      await sql`drop table insights_rollup`.execute(db);
    },
  ],
  ['0011', (db) => sql`drop table result_copies`.execute(db)],
  ['0010', (db) => sql`drop table spending_limits, limit_holds`.execute(db)],
  [
    '0009',
    async (db) => {
      await sql`alter table tasks drop column creator_id`.execute(db);
      await sql`alter table uploads drop column creator_id`.execute(db);
      await sql`drop table audit_log, one_time_links, sessions, users`.execute(db);
    },
  ],
  ['0008', (db) => sql`drop index tasks_insights`.execute(db)],
  [
    '0007',
    async (db) => {
      await sql`alter table tasks drop column request_id`.execute(db);
      await sql`drop table requests`.execute(db);
    },
  ],
];

/** Undoes migration `first` and every later one, and forgets that they ran. */
export async function rollBackTo(db: Db, first: string): Promise<void> {
  for (const [migration, undo] of UNDO) if (migration >= first) await undo(db);
  await sql`delete from kysely_migration where name >= ${first}`.execute(db);
}
