// Schema changes, in order, run at start. A database that has run a migration this code does not
// know was upgraded by a newer console: refusing it beats writing rows a newer schema misreads.
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import { COMMIT_CALLBACKS_FUNCTION } from './commit-callbacks';

export const MIGRATIONS: Record<string, Migration> = {
  '0001_callbacks_and_sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('callbacks')
        .addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity())
        .addColumn('key', 'text', (col) => col.notNull().unique())
        .addColumn('task_id', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('received_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .addColumn('body', 'jsonb', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('callbacks_task_id').on('callbacks').columns(['task_id', 'id']).execute();
      await db.schema
        .createTable('signed_out_sessions')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('expires_at', 'bigint', (col) => col.notNull())
        .execute();
    },
  },
  '0002_tasks': {
    async up(db: Kysely<unknown>) {
      // Trigram indexes answer "contains" searches on prompt, name, language, id and creator.
      await sql`create extension if not exists pg_trgm`.execute(db);
      await db.schema
        .createTable('tasks')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('source', 'text', (col) => col.notNull())
        .addColumn('params', 'jsonb')
        .addColumn('batch', 'jsonb')
        .addColumn('prompt', 'text')
        .addColumn('name', 'text')
        .addColumn('language', 'text')
        .addColumn('creator', 'text')
        .addColumn('status', 'text', (col) => col.notNull().defaultTo(''))
        .addColumn('phase', 'text', (col) =>
          col
            .generatedAlwaysAs(
              sql`case status when 'SUCCEEDED' then 'succeeded' when 'FAILED' then 'failed' else 'running' end`,
            )
            .stored(),
        )
        .addColumn('result', 'jsonb', (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('last_error', 'jsonb')
        .addColumn('last_source', 'text')
        .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .addColumn('finished_at', 'timestamptz')
        .addColumn('last_checked_at', 'timestamptz')
        .addColumn('search', 'text', (col) =>
          col
            .generatedAlwaysAs(
              sql`lower(id || ' ' || coalesce(prompt, '') || ' ' || coalesce(name, '') || ' ' || coalesce(language, '') || ' ' || coalesce(creator, ''))`,
            )
            .stored(),
        )
        .execute();
      // Newest first, per tab, per kind, per creator: each list page is one index range scan.
      await sql`create index tasks_newest on tasks (created_at desc, id desc)`.execute(db);
      await sql`create index tasks_phase_newest on tasks (phase, created_at desc, id desc)`.execute(db);
      await sql`create index tasks_kind_newest on tasks (kind, created_at desc, id desc)`.execute(db);
      await sql`create index tasks_creator_newest on tasks (creator, created_at desc, id desc)`.execute(db);
      await sql`create index tasks_search on tasks using gin (search gin_trgm_ops)`.execute(db);
      await db.schema
        .createTable('task_events')
        .addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity())
        .addColumn('task_id', 'text', (col) => col.notNull())
        .addColumn('at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .addColumn('source', 'text', (col) => col.notNull())
        .addColumn('status', 'text')
        .addColumn('error', 'jsonb')
        .execute();
      await db.schema.createIndex('task_events_task').on('task_events').columns(['task_id', 'id']).execute();
    },
  },
  '0003_uploads': {
    async up(db: Kysely<unknown>) {
      // Each file uploaded through the console: its URL names it in later creation requests.
      await db.schema
        .createTable('uploads')
        .addColumn('url', 'text', (col) => col.primaryKey())
        .addColumn('file_name', 'text', (col) => col.notNull())
        .addColumn('creator', 'text')
        .addColumn('uploaded_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.alterTable('tasks').addColumn('files', 'jsonb').execute();
    },
  },
  // The Tasks screen's tab counts without a search: a million tasks took ~0.6 s to count, this
  // table answers in a millisecond. Kept by statement triggers in the same transaction as every
  // change to `tasks` (one upsert per statement, whatever its row count); backfilled here.
  '0004_task_counts': {
    async up(db: Kysely<unknown>) {
      await sql`create table task_counts (
        phase text not null, kind text not null, creator text not null, n bigint not null,
        primary key (phase, kind, creator))`.execute(db);
      await sql`insert into task_counts (phase, kind, creator, n)
        select phase, kind, coalesce(creator, ''), count(*) from tasks group by 1, 2, 3`.execute(db);
      // The rows a statement added minus those it removed, per group, in key order (so two
      // transactions take the counts' row locks in the same order and cannot deadlock on them).
      const change = (added: string, removed: string) => `
        insert into task_counts as c (phase, kind, creator, n)
        select phase, kind, creator, sum(d) from (
          ${added ? `select phase, kind, coalesce(creator, '') as creator, 1 as d from ${added}` : ''}
          ${added && removed ? 'union all' : ''}
          ${removed ? `select phase, kind, coalesce(creator, '') as creator, -1 as d from ${removed}` : ''}
        ) rows group by 1, 2, 3 having sum(d) <> 0 order by 1, 2, 3
        on conflict (phase, kind, creator) do update set n = c.n + excluded.n;
        return null;`;
      for (const [op, body, referencing] of [
        ['insert', change('new_rows', ''), 'new table as new_rows'],
        ['update', change('new_rows', 'old_rows'), 'old table as old_rows new table as new_rows'],
        ['delete', change('', 'old_rows'), 'old table as old_rows'],
      ] as const) {
        await sql
          .raw(
            `create function task_counts_${op}() returns trigger language plpgsql as $$ begin ${body} end $$`,
          )
          .execute(db);
        await sql
          .raw(
            `create trigger task_counts_${op} after ${op} on tasks referencing ${referencing} ` +
              `for each statement execute function task_counts_${op}()`,
          )
          .execute(db);
      }
      // TRUNCATE empties the counts too.
      await sql`create function task_counts_truncate() returns trigger language plpgsql as $$
        begin delete from task_counts; return null; end $$`.execute(db);
      await sql`create trigger task_counts_truncate after truncate on tasks
        for each statement execute function task_counts_truncate()`.execute(db);
    },
  },
  // One trigram index per phase instead of one for all: a tab's search, and its bounded count,
  // read that tab's matches only. With one index, a search whose matches were all in other tabs
  // (a creator's name, all their tasks succeeded: Failed and In progress empty) read every match to
  // find none, ~1 s at 1M tasks. A search of every tab names the three phases and reads the three
  // indexes together (server/tasks/list-filter.ts). Together they are the size of the one they replace.
  // Built inside the start's transaction: at 1M tasks ~40-60 s on PostgreSQL, during which writes to
  // `tasks` wait (README, "Upgrading").
  '0005_tasks_search_per_phase': {
    async up(db: Kysely<unknown>) {
      for (const phase of ['running', 'succeeded', 'failed'])
        await sql
          .raw(
            `create index tasks_search_${phase} on tasks using gin (search gin_trgm_ops) where phase = '${phase}'`,
          )
          .execute(db);
      await sql`drop index tasks_search`.execute(db);
      // "Mine" on a tab: walking the creator's tasks for the tab's few (or none: all of someone's
      // tasks succeeded, and they open Failed) read every task of theirs, ~1 s for a busy creator.
      await sql`create index tasks_creator_phase_newest on tasks (creator, phase, created_at desc, id desc)`.execute(
        db,
      );
      // The planner guesses each filter alone: Ana's tasks (1 in 4) that failed (1 in 4), 1 in 16,
      // so it walks the newest-first index expecting a page within a few hundred rows, and reads
      // them all when Ana has none (470 ms at 1M). Statistics of the combinations tell it.
      await sql`create statistics tasks_filters (mcv) on creator, phase, kind from tasks`.execute(db);
      await sql`analyze tasks`.execute(db);
    },
  },
  // A group of callbacks in one statement, so one round trip (see ./commit-callbacks.ts).
  '0006_commit_callbacks': {
    async up(db: Kysely<unknown>) {
      await sql.raw(COMMIT_CALLBACKS_FUNCTION).execute(db);
    },
  },
  // A request is one submission of a creation form: the tasks it made, who, when, what was asked.
  // Existing tasks created through the console get one per batch (the ids one creation answer
  // returned), or one each where nothing groups them; tasks looked up or named by a callback get
  // none. Frozen text: it must create what it created the day it shipped.
  '0007_requests': {
    async up(db: Kysely<unknown>) {
      await sql.raw(REQUESTS_0007).execute(db);
    },
  },
  // Insights (server/insights): a period's tasks by one index range scan that reads no table rows:
  // created_at, with what the aggregates group and count. (The failed ones come through
  // tasks_phase_newest.) Frozen text.
  '0008_insights': {
    async up(db: Kysely<unknown>) {
      await sql.raw(INSIGHTS_0008).execute(db);
    },
  },
  // Who the team is: people, their server-side sessions (so a sign-out, a removal or a
  // role change holds on every instance at once), one-time links (invitations, the first admin's
  // set-up) and the audit log. Tasks, uploads and requests get the creator's user id: a row without one was
  // recorded under a self-declared name and is shown as unverified.
  '0009_identity': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('source', 'text', (col) => col.notNull())
        .addColumn('subject', 'text', (col) => col.notNull())
        .addColumn('display_name', 'text', (col) => col.notNull())
        .addColumn('email', 'text')
        .addColumn('role', 'text', (col) => col.notNull())
        .addColumn('password_hash', 'text')
        .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .addColumn('last_sign_in_at', 'timestamptz')
        .addColumn('removed_at', 'timestamptz')
        .addUniqueConstraint('users_source_subject', ['source', 'subject'])
        .execute();
      await db.schema
        .createTable('sessions')
        // sha256 of the cookie's token: a copy of the table signs nobody in.
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'text', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
      await db.schema
        .createTable('one_time_links')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('purpose', 'text', (col) => col.notNull())
        .addColumn('role', 'text', (col) => col.notNull())
        .addColumn('email', 'text')
        .addColumn('created_by', 'text')
        .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
        .addColumn('used_at', 'timestamptz')
        .execute();
      await db.schema
        .createTable('audit_log')
        .addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity())
        .addColumn('at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .addColumn('actor_id', 'text')
        .addColumn('actor_name', 'text')
        .addColumn('action', 'text', (col) => col.notNull())
        .addColumn('target', 'text')
        .addColumn('detail', 'jsonb')
        .execute();
      await db.schema.createIndex('audit_log_action').on('audit_log').columns(['action', 'id']).execute();
      await db.schema.alterTable('tasks').addColumn('creator_id', 'text').execute();
      await db.schema.alterTable('uploads').addColumn('creator_id', 'text').execute();
      await db.schema.alterTable('requests').addColumn('creator_id', 'text').execute();
    },
  },
  '0010_limits': {
    async up(db: Kysely<unknown>) {
      await sql.raw(LIMITS_0010).execute(db);
    },
  },
  // Results kept in the team's own storage: one row per file of a succeeded task (its
  // role: image, video, thumbnail or caption, and index), copied once from the service into the
  // store (server/results). A worker claims rows `for update skip locked`; a row left `copying`
  // past its lease is taken again. Frozen text.
  '0011_results': {
    async up(db: Kysely<unknown>) {
      await sql.raw(RESULTS_0011).execute(db);
    },
  },
  // Insights at a million tasks: one row per UTC day x kind x person x outcome x language
  // with the count, the seconds of video made, an hour-of-day histogram (24 counts) and a histogram of
  // the time to finish (82 counts, quarter-octave buckets), kept by statement triggers in the same
  // transaction as every change to `tasks` (as `task_counts` is) and backfilled here. A 30-day period
  // reads a few thousand of these rows instead of every task. Frozen text.
  '0012_insights_rollup': {
    async up(db: Kysely<unknown>) {
      await sql.raw(INSIGHTS_ROLLUP_0012).execute(db);
      await sql.raw(`${rollupChange(['tasks'], [])}`).execute(db);
      for (const [op, added, removed, referencing] of [
        ['insert', ['new_rows'], [], 'new table as new_rows'],
        ['update', ['new_rows'], ['old_rows'], 'old table as old_rows new table as new_rows'],
        ['delete', [], ['old_rows'], 'old table as old_rows'],
      ] as const) {
        await sql
          .raw(
            `create function insights_rollup_${op}() returns trigger language plpgsql as $$ begin ` +
              `${rollupChange(added, removed)}; return null; end $$`,
          )
          .execute(db);
        await sql
          .raw(
            `create trigger insights_rollup_${op} after ${op} on tasks referencing ${referencing} ` +
              `for each statement execute function insights_rollup_${op}()`,
          )
          .execute(db);
      }
      await sql`create function insights_rollup_truncate() returns trigger language plpgsql as $$
        begin delete from insights_rollup; return null; end $$`.execute(db);
      await sql`create trigger insights_rollup_truncate after truncate on tasks
        for each statement execute function insights_rollup_truncate()`.execute(db);
    },
  },
  // Tasks a person hid from their own view of the Tasks screen (a bulk action): one row per
  // person and task; "Show hidden" brings them back, unhiding deletes the row. Frozen text.
  '0013_hidden_tasks': {
    async up(db: Kysely<unknown>) {
      await sql.raw(HIDDEN_TASKS_0013).execute(db);
    },
  },
  // The server follows every unfinished task itself, whatever browser is open: one row per task it
  // still asks about, claimed with `for update skip locked` so instances share the work, and one row
  // that every instance reads before asking (the team's request rate and the service's Retry-After).
  // The existing unfinished tasks are followed from now on. Frozen text.
  '0014_task_follows': {
    async up(db: Kysely<unknown>) {
      await sql.raw(TASK_FOLLOWS_0014).execute(db);
    },
  },
  '0015_stars_and_boards': {
    async up(db: Kysely<unknown>) {
      await sql.raw(STARS_AND_BOARDS_0015).execute(db);
    },
  },
  // Personal API tokens: a person's scripts act as that person. The row keeps the
  // token's sha256 only; revoked rows stay for the list and the audit trail. Frozen text.
  '0016_api_tokens': {
    async up(db: Kysely<unknown>) {
      await sql.raw(API_TOKENS_0016).execute(db);
    },
  },
  // Outgoing webhooks: a person's (their own requests) or the team's (every request), told when a
  // request finishes or fails. One delivery per webhook and request, queued in the transaction that
  // records the request's last final status, sent by a worker that claims with skip locked. Frozen text.
  '0020_webhooks': {
    async up(db: Kysely<unknown>) {
      await sql.raw(WEBHOOKS_0020).execute(db);
    },
  },
  // Share links: a board or a request opened by a person with no account. The row keeps the
  // token's sha256 only; revoked and expired rows stay for the audit trail. Guesses of a token are
  // counted per client and minute in the database, so the brake holds across instances. Frozen text.
  '0021_shares': {
    async up(db: Kysely<unknown>) {
      await sql.raw(SHARES_0021).execute(db);
    },
  },
  // Comments and decisions on results: one decision per person and result (the latest wins), and
  // the comments, each with the decision it was sent with. The partial index serves the "changes
  // requested" view, which starts from its few rows; board_items_task finds the boards a reviewed
  // result is on, whose pages are told. Frozen text.
  '0022_reviews': {
    async up(db: Kysely<unknown>) {
      await sql.raw(REVIEWS_0022).execute(db);
    },
  },
  // The brakes every instance shares: failed sign-ins (per client and in all), each callback
  // sender's token bucket, and each person's uploaded bytes per day. Kept here rather than in one
  // process's memory, so N instances hold the rule once, not N times. Frozen text.
  '0025_brakes': {
    async up(db: Kysely<unknown>) {
      await sql.raw(BRAKES_0025).execute(db);
    },
  },
  // The record at 10 million tasks. A task's cost is computed once, when the row is written, into
  // two stored columns: the seconds of video it made (Insights) and the seconds it is charged
  // (spending limits). Beside the daily rollup of 0012: the same figures per UTC hour (the partial
  // days at a period's ends), failures per day x kind x person x code x reason (Insights) and per
  // kind x creator x code x reason (the Tasks screen's failure choices), all kept by 0012's statement
  // triggers, whose functions now keep the four tables. An index answers the results back-fill's
  // "succeeded recently" without reading every task. Adding the columns rewrites `tasks` (at 10M
  // tasks, minutes on PostgreSQL: README, "Upgrading"). Frozen text.
  '0026_scale_rollups': {
    async up(db: Kysely<unknown>) {
      await sql.raw(SCALE_ROLLUPS_0026).execute(db);
      for (const [op, added, removed] of [
        ['insert', ['new_rows'], []],
        ['update', ['new_rows'], ['old_rows']],
        ['delete', [], ['old_rows']],
      ] as const) {
        await sql
          .raw(
            `create or replace function insights_rollup_${op}() returns trigger language plpgsql as $$ begin ` +
              `${scaleRollupChanges(added, removed)} return null; end $$`,
          )
          .execute(db);
      }
      await sql`create or replace function insights_rollup_truncate() returns trigger language plpgsql as $$
        begin delete from insights_rollup; delete from insights_rollup_hourly; delete from insights_failures_daily;
        delete from task_failure_counts; return null; end $$`.execute(db);
      await sql.raw(scaleRollupBackfill()).execute(db);
    },
  },
  // Failures by hour, so that a period's partial days read the failed tasks of their partial first
  // and last hour only, as the other figures do, instead of those of whole days.
  '0027_insights_failures_hourly': {
    async up(db: Kysely<unknown>) {
      await sql.raw(FAILURES_HOURLY_0027).execute(db);
      for (const [op, added, removed] of [
        ['insert', ['new_rows'], []],
        ['update', ['new_rows'], ['old_rows']],
        ['delete', [], ['old_rows']],
      ] as const) {
        await sql
          .raw(
            `create or replace function insights_rollup_${op}() returns trigger language plpgsql as $$ begin ` +
              `${scaleRollupChanges(added, removed)} ${hourlyFailureChanges(added, removed)} return null; end $$`,
          )
          .execute(db);
      }
      await sql`create or replace function insights_rollup_truncate() returns trigger language plpgsql as $$
        begin delete from insights_rollup; delete from insights_rollup_hourly; delete from insights_failures_daily;
        delete from insights_failures_hourly; delete from task_failure_counts; return null; end $$`.execute(
        db,
      );
    },
  },
};

const SHARES_0021 = `
create table shares (
  id text primary key,
  token_hash text not null unique,
  board_id text,
  request_id text,
  title text not null,
  created_by_id text,
  created_by_name text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  revoked_by_name text,
  opened_count integer not null default 0,
  last_opened_at timestamptz,
  check ((board_id is null) <> (request_id is null))
);
create index shares_live on shares (expires_at) where revoked_at is null;
create index shares_board on shares (board_id) where board_id is not null;
create index shares_request on shares (request_id) where request_id is not null;
create table share_guesses (
  client text primary key,
  window_start timestamptz not null,
  misses integer not null default 0
);
`;

const BRAKES_0025 = `
create table sign_in_failures (
  id bigserial primary key,
  client text,
  at bigint not null
);
create index sign_in_failures_client on sign_in_failures (client, at);
create index sign_in_failures_at on sign_in_failures (at);
create table callback_senders (
  sender text primary key,
  tokens double precision not null,
  at bigint not null,
  granted integer not null
);
create index callback_senders_at on callback_senders (at);
create table upload_tallies (
  person text not null,
  day integer not null,
  bytes bigint not null check (bytes >= 0),
  primary key (person, day)
);
`;

const API_TOKENS_0016 = `
create table api_tokens (
  id text primary key,
  token_hash text not null unique,
  user_id text not null,
  name text not null,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  last_used_at timestamptz,
  revoked_at timestamptz
);
create index api_tokens_user on api_tokens (user_id, created_at desc);
`;

const REQUESTS_0007 = `
create table requests (
  id text primary key,
  kind text not null,
  creator text,
  created_at timestamptz not null default now(),
  params jsonb,
  title text,
  task_ids jsonb not null default '[]'::jsonb
);
create index requests_newest on requests (created_at desc, id desc);
create index requests_creator_newest on requests (creator, created_at desc, id desc);
alter table tasks add column request_id text;
create index tasks_request on tasks (request_id) where request_id is not null;
insert into requests (id, kind, creator, created_at, params, title, task_ids)
select distinct on (first_id)
  'req-' || first_id, kind, creator, created_at,
  case when jsonb_typeof(params) = 'object' then (
    select coalesce(jsonb_object_agg(key, value), '{}'::jsonb) from jsonb_each(params)
    where key <> 'callback_url' and key !~* '(token|secret|password|passwd|api_?key|auth|credential|signature)'
  ) end,
  coalesce(nullif(prompt, ''), nullif(params->>'name', ''), nullif(name, ''), files->0->>'name'),
  coalesce(batch, jsonb_build_array(id))
from (select *, coalesce(batch->>0, id) as first_id from tasks where source = 'created') created
order by first_id, created_at;
update tasks set request_id = 'req-' || coalesce(batch->>0, id) where source = 'created';
`;

const INSIGHTS_0008 = `
create index tasks_insights on tasks (created_at) include (kind, creator, phase, finished_at, language);
`;

// Spending limits (server/limits/limits.ts): one row per scope (the team, or one person), measure and
// period; holds count a creation between its check and its record. Creations are counted from
// tasks by creator_id, newest first per person.
const LIMITS_0010 = `
create table spending_limits (
  scope text not null,
  user_id text not null default '',
  measure text not null,
  period text not null,
  max_amount integer not null,
  updated_at timestamptz not null default now(),
  updated_by text,
  primary key (scope, user_id, measure, period)
);
create table limit_holds (
  id text primary key,
  user_id text not null,
  tasks integer not null,
  images integer not null,
  video_seconds numeric not null,
  created_at timestamptz not null default now()
);
create index tasks_creator_id_created on tasks (creator_id, created_at) where source = 'created';
`;

const RESULTS_0011 = `
create table result_copies (
  id bigint generated by default as identity primary key,
  task_id text not null,
  role text not null,
  idx integer not null default 0,
  source_url text not null,
  state text not null default 'queued' check (state in ('queued', 'copying', 'kept', 'failed', 'expired')),
  attempts integer not null default 0,
  next_attempt_at timestamptz not null default now(),
  lease_until timestamptz,
  store_key text,
  size bigint,
  content_type text,
  sha256 text,
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  kept_at timestamptz,
  unique (task_id, role, idx)
);
create index result_copies_due on result_copies (next_attempt_at) where state = 'queued';
create index result_copies_leased on result_copies (lease_until) where state = 'copying';
`;

// Keys: creator_id is the person's user id ('' for none); creator_name is the recorded name only for
// a task without a user id (grouped by name, shown as unverified), else '' (a renamed person stays one
// row). Bucket 0 of `durations` is [0, 1) s, bucket k (1-80) is [2^((k-1)/4), 2^(k/4)) s, bucket 81 is
// 2^20 s (12 days) and more: insights_bucket() gives it, from thresholds rounded to 3 decimals.
const INSIGHTS_ROLLUP_0012 = `
create table insights_rollup (
  day date not null,
  kind text not null,
  creator_id text not null,
  creator_name text not null,
  phase text not null,
  language text not null,
  n bigint not null,
  video_seconds numeric not null,
  hours integer[] not null,
  durations integer[] not null,
  primary key (day, kind, creator_id, creator_name, phase, language)
);
create function insights_bucket(seconds float8) returns integer language sql immutable as $$
  select width_bucket(seconds, '{1,1.189,1.414,1.682,2,2.378,2.828,3.364,4,4.757,5.657,6.727,8,9.514,11.314,13.454,16,19.027,22.627,26.909,32,38.055,45.255,53.817,64,76.109,90.51,107.635,128,152.219,181.019,215.269,256,304.437,362.039,430.539,512,608.874,724.077,861.078,1024,1217.748,1448.155,1722.156,2048,2435.496,2896.309,3444.312,4096,4870.992,5792.619,6888.623,8192,9741.985,11585.238,13777.247,16384,19483.969,23170.475,27554.494,32768,38967.939,46340.95,55108.987,65536,77935.877,92681.9,110217.975,131072,155871.755,185363.8,220435.95,262144,311743.51,370727.6,440871.9,524288,623487.02,741455.2,881743.8,1048576}'::float8[]) $$;
create function insights_video_seconds(kind text, phase text, result jsonb, params jsonb) returns numeric
language sql immutable as $$
  select case when kind = 'image_to_video' and phase = 'succeeded' then coalesce(
    case when result->>'duration' ~ '^[0-9]+(\\.[0-9]+)?$' then (result->>'duration')::numeric end,
    case when params->>'duration' ~ '^[0-9]+$' then (params->>'duration')::numeric end, 0) else 0 end $$;
create function insights_hist_step(state integer[], idx integer, weight integer, size integer)
returns integer[] language plpgsql immutable as $$
begin
  if state is null then state := array_fill(0, array[size]); end if;
  if idx is not null then state[idx + 1] := state[idx + 1] + weight; end if;
  return state;
end $$;
-- insights_hist(index, weight, size): a histogram of \`size\` counts, index 0-based.
create aggregate insights_hist(integer, integer, integer) (sfunc = insights_hist_step, stype = integer[]);
-- insights_dense(indexes, size): the histogram of a list of 0-based indexes (nulls skipped), one call per group.
create function insights_dense(idx integer[], size integer) returns integer[] language sql immutable as $$
  select array_agg(coalesce(h.c, 0)::integer order by s.i)
  from generate_series(0, size - 1) as s(i)
  left join (select x, count(*) as c from unnest(idx) as x where x is not null group by x) h on h.x = s.i $$;
create function insights_negate(a integer[]) returns integer[] language sql immutable as $$
  select array(select -x from unnest(a) as u(x)) $$;
create function insights_add(a integer[], b integer[]) returns integer[] language sql immutable as $$
  select array(select x + y from unnest(a, b) as u(x, y)) $$;
`;

/**
 * 0012's upsert of the rows `added` (tables of task rows, counted +1) minus the rows `removed`
 * (counted -1), per rollup key, in key order (two transactions take the rows' locks in the same order).
 * Frozen text.
 */
function rollupChange(added: readonly string[], removed: readonly string[]): string {
  const sources = [
    ...added.map((table) => `select *, 1 as d from ${table}`),
    ...removed.map((table) => `select *, -1 as d from ${table}`),
  ].join(' union all ');
  return `
  insert into insights_rollup as r
    (day, kind, creator_id, creator_name, phase, language, n, video_seconds, hours, durations)
  select day, kind, creator_id, creator_name, phase, language, sum(d), sum(d * video),
    insights_add(insights_dense(array_agg(hour) filter (where d > 0), 24),
      insights_negate(insights_dense(array_agg(hour) filter (where d < 0), 24))),
    insights_add(insights_dense(array_agg(bucket) filter (where d > 0), 82),
      insights_negate(insights_dense(array_agg(bucket) filter (where d < 0), 82)))
  from (
    select (created_at at time zone 'UTC')::date as day, kind, coalesce(creator_id, '') as creator_id,
      case when creator_id is null then coalesce(creator, '') else '' end as creator_name,
      phase, coalesce(language, '') as language, d,
      insights_video_seconds(kind, phase, result, params) as video,
      extract(hour from created_at at time zone 'UTC')::integer as hour,
      case when phase <> 'running' and finished_at is not null
        then insights_bucket(extract(epoch from finished_at - created_at)::float8) end as bucket
    from (${sources}) changed
  ) rows
  group by 1, 2, 3, 4, 5, 6
  having sum(d) <> 0 or sum(d * video) <> 0
    or insights_dense(array_agg(bucket) filter (where d > 0), 82)
      <> insights_dense(array_agg(bucket) filter (where d < 0), 82)
    or insights_dense(array_agg(hour) filter (where d > 0), 24)
      <> insights_dense(array_agg(hour) filter (where d < 0), 24)
  order by 1, 2, 3, 4, 5, 6
  on conflict (day, kind, creator_id, creator_name, phase, language) do update set
    n = r.n + excluded.n, video_seconds = r.video_seconds + excluded.video_seconds,
    hours = insights_add(r.hours, excluded.hours), durations = insights_add(r.durations, excluded.durations)`;
}

const HIDDEN_TASKS_0013 = `
create table hidden_tasks (
  user_id text not null,
  task_id text not null,
  hidden_at timestamptz not null default now(),
  primary key (user_id, task_id)
);
`;

// A person's starred tasks, the team's boards and their items (ordered by position), and "More like
// this": a request made again from another names it (parent_request_id).
const STARS_AND_BOARDS_0015 = `
create table starred_tasks (
  user_id text not null,
  task_id text not null,
  starred_at timestamptz not null default now(),
  primary key (user_id, task_id)
);
create table boards (
  id text primary key,
  name text not null,
  description text,
  cover_task_id text,
  created_by_id text,
  created_by_name text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index boards_updated on boards (updated_at desc, id);
create table board_items (
  board_id text not null references boards (id) on delete cascade,
  task_id text not null,
  position double precision not null,
  added_by_name text,
  added_at timestamptz not null default now(),
  primary key (board_id, task_id)
);
create index board_items_order on board_items (board_id, position);
alter table requests add column parent_request_id text;
create index requests_parent on requests (parent_request_id) where parent_request_id is not null;
`;

const TASK_FOLLOWS_0014 = `
create table task_follows (
  task_id text primary key references tasks (id) on delete cascade,
  due_at timestamptz default now(),
  claims integer not null default 0,
  failures integer not null default 0,
  ended text,
  ended_at timestamptz
);
create index task_follows_due on task_follows (due_at) where due_at is not null;
create table follow_brake (
  id integer primary key check (id = 1),
  not_before timestamptz not null default 'epoch',
  window_start timestamptz not null default 'epoch',
  window_used integer not null default 0,
  last_error jsonb,
  last_error_at timestamptz
);
insert into follow_brake (id) values (1);
insert into task_follows (task_id, due_at)
select id, now() from tasks where status not in ('SUCCEEDED', 'FAILED');
`;

const WEBHOOKS_0020 = `
create table webhooks (
  id text primary key,
  scope text not null check (scope in ('person', 'team')),
  user_id text,
  name text not null,
  url text not null,
  secret text not null,
  events jsonb not null default '["finished", "failed"]'::jsonb,
  created_at timestamptz not null default now(),
  created_by text
);
create index webhooks_person on webhooks (user_id) where scope = 'person';
create table webhook_deliveries (
  id bigint generated always as identity primary key,
  webhook_id text not null references webhooks (id) on delete cascade,
  request_id text not null,
  event text not null,
  state text not null default 'queued' check (state in ('queued', 'sending', 'delivered', 'failed')),
  attempts integer not null default 0,
  due_at timestamptz not null default now(),
  last_status integer,
  last_error text,
  created_at timestamptz not null default now(),
  delivered_at timestamptz,
  unique (webhook_id, request_id)
);
create index webhook_deliveries_due on webhook_deliveries (due_at) where state in ('queued', 'sending');
create index webhook_deliveries_log on webhook_deliveries (webhook_id, id desc);
`;

const REVIEWS_0022 = `
create table review_decisions (
  task_id text not null,
  user_id text not null,
  user_name text not null,
  decision text not null check (decision in ('approved', 'changes_requested')),
  decided_at timestamptz not null default now(),
  primary key (task_id, user_id)
);
create index review_decisions_changes on review_decisions (task_id) where decision = 'changes_requested';
create table review_comments (
  id text primary key,
  task_id text not null,
  user_id text not null,
  user_name text not null,
  body text not null,
  decision text check (decision in ('approved', 'changes_requested')),
  created_at timestamptz not null default now()
);
create index review_comments_task on review_comments (task_id, created_at);
create index board_items_task on board_items (task_id);
`;

// The seconds of video a task made (a succeeded image to video: the answer's duration, else the
// asked-for one) and the seconds it is charged against spending limits (any image to video or
// translation: the answer's duration, else image to video's asked-for or default length).
const SCALE_ROLLUPS_0026 = `
create function task_video_made(kind text, status text, result jsonb, params jsonb) returns numeric
language sql immutable as $$
  select case when kind = 'image_to_video' and status = 'SUCCEEDED' then coalesce(
    case when result->>'duration' ~ '^[0-9]+(\\.[0-9]+)?$' then (result->>'duration')::numeric end,
    case when params->>'duration' ~ '^[0-9]+$' then (params->>'duration')::numeric end, 0) else 0 end $$;
create function task_video_charged(kind text, result jsonb, params jsonb) returns numeric
language sql immutable as $$
  select case when kind not in ('image_to_video', 'video_translate') then 0
    when result->>'duration' ~ '^[0-9]+(\\.[0-9]+)?$' then (result->>'duration')::numeric
    when kind = 'image_to_video' and params->>'duration' ~ '^[0-9]+$' then (params->>'duration')::numeric
    when kind = 'image_to_video' then case when params->>'model' = 'KL' then 5 else 8 end
    else 0 end $$;
alter table tasks
  add column video_seconds_made numeric generated always as (task_video_made(kind, status, result, params)) stored,
  add column video_seconds_charged numeric generated always as (task_video_charged(kind, result, params)) stored;
create table insights_rollup_hourly (
  hour timestamptz not null,
  kind text not null,
  creator_id text not null,
  creator_name text not null,
  phase text not null,
  language text not null,
  n bigint not null,
  video_seconds numeric not null,
  durations integer[] not null,
  primary key (hour, kind, creator_id, creator_name, phase, language)
);
create table insights_failures_daily (
  day date not null,
  kind text not null,
  creator_id text not null,
  creator_name text not null,
  failure_key text not null,
  code text,
  reason text not null,
  n bigint not null,
  primary key (day, kind, creator_id, creator_name, failure_key)
);
create table task_failure_counts (
  kind text not null,
  creator text not null,
  failure_key text not null,
  code text,
  reason text not null,
  n bigint not null,
  primary key (kind, creator, failure_key)
);
create index tasks_succeeded_recent on tasks ((coalesce(finished_at, created_at))) where status = 'SUCCEEDED';
-- insights_weighted(indexes, weights, size): a histogram of \`size\` counts, each 0-based index adding its
-- weight (+1 a row added, -1 a row removed; null indexes skipped). One pass, for the triggers: 0012's
-- insights_dense costs a generate_series and a join per call, which a bulk write pays per group.
create function insights_weighted(idx integer[], weight integer[], size integer) returns integer[]
language plpgsql immutable as $$
declare
  counts integer[] := array_fill(0, array[size]);
begin
  for i in 1 .. coalesce(array_length(idx, 1), 0) loop
    if idx[i] is not null then counts[idx[i] + 1] := counts[idx[i] + 1] + weight[i]; end if;
  end loop;
  return counts;
end $$;
`;

/** A failed task's code and reason (server/db/failure-sql.ts spells the same), and their key. */
const FAILURE_CODE_0026 = `coalesce(
  nullif(result->>'error_code', ''), nullif(result->>'code', ''), (last_error->>'code'))`;
const FAILURE_REASON_0026 = `coalesce(
  nullif(btrim(result->>'error_message'), ''), nullif(btrim(last_error->>'msg'), ''), 'No reason given')`;

/** The task rows of a change: `added` tables counted +1, `removed` ones -1. */
function changedRows(added: readonly string[], removed: readonly string[]): string {
  return [
    ...added.map((table) => `select *, 1 as d from ${table}`),
    ...removed.map((table) => `select *, -1 as d from ${table}`),
  ].join(' union all ');
}

/** A task's person as the rollups key it (0012): user id, else the name it was recorded under. */
const PERSON_0026 = `coalesce(creator_id, '') as creator_id,
  case when creator_id is null then coalesce(creator, '') else '' end as creator_name`;

/**
 * 0026's upserts of a change to `tasks` into the four rollups, each in key order (two transactions
 * take the rows' locks in the same order). Frozen text.
 */
function scaleRollupChanges(added: readonly string[], removed: readonly string[]): string {
  const rows = changedRows(added, removed);
  const failed = `select kind, ${PERSON_0026}, coalesce(creator, '') as creator, d,
      ${FAILURE_CODE_0026} as code, ${FAILURE_REASON_0026} as reason,
      (created_at at time zone 'UTC')::date as day
    from (${rows}) changed where phase = 'failed'`;
  const perTask = `select date_trunc('hour', created_at at time zone 'UTC') as hour_utc,
      kind, ${PERSON_0026}, phase, coalesce(language, '') as language, d, video_seconds_made as video,
      case when phase <> 'running' and finished_at is not null
        then insights_bucket(extract(epoch from finished_at - created_at)::float8) end as bucket
    from (${rows}) changed`;
  const hours = `insights_weighted(array_agg(extract(hour from hour_utc)::integer), array_agg(d), 24)`;
  const durations = `insights_weighted(array_agg(bucket), array_agg(d), 82)`;
  return `
  insert into insights_rollup as r
    (day, kind, creator_id, creator_name, phase, language, n, video_seconds, hours, durations)
  select hour_utc::date, kind, creator_id, creator_name, phase, language, sum(d), sum(d * video),
    ${hours}, ${durations}
  from (${perTask}) t
  group by 1, 2, 3, 4, 5, 6
  having sum(d) <> 0 or sum(d * video) <> 0 or ${durations} <> array_fill(0, array[82])
    or ${hours} <> array_fill(0, array[24])
  order by 1, 2, 3, 4, 5, 6
  on conflict (day, kind, creator_id, creator_name, phase, language) do update set
    n = r.n + excluded.n, video_seconds = r.video_seconds + excluded.video_seconds,
    hours = insights_add(r.hours, excluded.hours), durations = insights_add(r.durations, excluded.durations);
  insert into insights_rollup_hourly as r
    (hour, kind, creator_id, creator_name, phase, language, n, video_seconds, durations)
  select hour_utc at time zone 'UTC', kind, creator_id, creator_name, phase, language, sum(d), sum(d * video),
    ${durations}
  from (${perTask}) t
  group by 1, 2, 3, 4, 5, 6
  having sum(d) <> 0 or sum(d * video) <> 0 or ${durations} <> array_fill(0, array[82])
  order by 1, 2, 3, 4, 5, 6
  on conflict (hour, kind, creator_id, creator_name, phase, language) do update set
    n = r.n + excluded.n, video_seconds = r.video_seconds + excluded.video_seconds,
    durations = insights_add(r.durations, excluded.durations);
  insert into insights_failures_daily as r
    (day, kind, creator_id, creator_name, failure_key, code, reason, n)
  select day, kind, creator_id, creator_name, md5(json_build_array(code, reason)::text), code, reason, sum(d)
  from (${failed}) f
  group by day, kind, creator_id, creator_name, code, reason having sum(d) <> 0
  order by 1, 2, 3, 4, 5
  on conflict (day, kind, creator_id, creator_name, failure_key) do update set n = r.n + excluded.n;
  insert into task_failure_counts as r (kind, creator, failure_key, code, reason, n)
  select kind, creator, md5(json_build_array(code, reason)::text), code, reason, sum(d)
  from (${failed}) f
  group by kind, creator, code, reason having sum(d) <> 0
  order by 1, 2, 3
  on conflict (kind, creator, failure_key) do update set n = r.n + excluded.n;`;
}

const FAILURES_HOURLY_0027 = `
create table insights_failures_hourly (
  hour timestamptz not null,
  kind text not null,
  creator_id text not null,
  creator_name text not null,
  failure_key text not null,
  code text,
  reason text not null,
  n bigint not null,
  primary key (hour, kind, creator_id, creator_name, failure_key)
);
insert into insights_failures_hourly (hour, kind, creator_id, creator_name, failure_key, code, reason, n)
select hour, kind, creator_id, creator_name, md5(json_build_array(code, reason)::text), code, reason, count(*)
from (select date_trunc('hour', created_at at time zone 'UTC') at time zone 'UTC' as hour, kind, ${PERSON_0026},
    ${FAILURE_CODE_0026} as code, ${FAILURE_REASON_0026} as reason
  from tasks where phase = 'failed') f
group by hour, kind, creator_id, creator_name, code, reason;
analyze insights_failures_hourly;`;

/**
 * 0027's upsert of a change to `tasks` into the hourly failures, after 0026's four (in key order,
 * as they are). Frozen text.
 */
function hourlyFailureChanges(added: readonly string[], removed: readonly string[]): string {
  return `
  insert into insights_failures_hourly as r
    (hour, kind, creator_id, creator_name, failure_key, code, reason, n)
  select hour, kind, creator_id, creator_name, md5(json_build_array(code, reason)::text), code, reason, sum(d)
  from (select date_trunc('hour', created_at at time zone 'UTC') at time zone 'UTC' as hour, kind, ${PERSON_0026},
      d, ${FAILURE_CODE_0026} as code, ${FAILURE_REASON_0026} as reason
    from (${changedRows(added, removed)}) changed where phase = 'failed') f
  group by hour, kind, creator_id, creator_name, code, reason having sum(d) <> 0
  order by 1, 2, 3, 4, 5
  on conflict (hour, kind, creator_id, creator_name, failure_key) do update set n = r.n + excluded.n;`;
}

/** 0026's tables filled from the tasks a database already holds. */
function scaleRollupBackfill(): string {
  return `
  insert into insights_rollup_hourly (hour, kind, creator_id, creator_name, phase, language, n, video_seconds, durations)
  select date_trunc('hour', created_at at time zone 'UTC') at time zone 'UTC', kind, ${PERSON_0026}, phase,
    coalesce(language, ''), count(*), sum(video_seconds_made),
    insights_weighted(array_agg(case when phase <> 'running' and finished_at is not null
      then insights_bucket(extract(epoch from finished_at - created_at)::float8) end), array_agg(1), 82)
  from tasks group by 1, 2, 3, 4, 5, 6;
  insert into insights_failures_daily (day, kind, creator_id, creator_name, failure_key, code, reason, n)
  select day, kind, creator_id, creator_name, md5(json_build_array(code, reason)::text), code, reason, count(*)
  from (select (created_at at time zone 'UTC')::date as day, kind, ${PERSON_0026},
      ${FAILURE_CODE_0026} as code, ${FAILURE_REASON_0026} as reason
    from tasks where phase = 'failed') f
  group by day, kind, creator_id, creator_name, code, reason;
  insert into task_failure_counts (kind, creator, failure_key, code, reason, n)
  select kind, creator, md5(json_build_array(code, reason)::text), code, reason, count(*)
  from (select kind, coalesce(creator, '') as creator, ${FAILURE_CODE_0026} as code, ${FAILURE_REASON_0026} as reason
    from tasks where phase = 'failed') f
  group by kind, creator, code, reason;
  analyze tasks;`;
}

export class NewerDatabaseError extends Error {}

/** Brings the database to the latest schema; resolves to how many migrations it ran. */
export async function migrate(
  db: Kysely<unknown>,
  migrations: Record<string, Migration> = MIGRATIONS,
): Promise<number> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const known = new Set(Object.keys(migrations));
  const applied = await migrator.getMigrations();
  // getMigrations lists only the code's migrations; the table tells what the database has seen.
  const tableExists = applied.some((m) => m.executedAt) || (await hasMigrationTable(db));
  if (tableExists) {
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const unknown = rows.rows.map((row) => row.name).filter((name) => !known.has(name));
    if (unknown.length) {
      throw new NewerDatabaseError(
        `The database was migrated by a newer version of this console (${unknown.join(', ')}); ` +
          'run that version, or restore a backup made for this one.',
      );
    }
  }
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return results?.filter((result) => result.status === 'Success').length ?? 0;
}

async function hasMigrationTable(db: Kysely<unknown>): Promise<boolean> {
  const { rows } = await sql<{
    found: string | null;
  }>`select to_regclass('kysely_migration') as found`.execute(db);
  return Boolean(rows[0]?.found);
}
