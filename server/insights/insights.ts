// The Insights screen's figures, computed by the database from rollups that triggers keep as tasks
// change: rows per UTC day and per UTC hour x kind x person x outcome x language, each with its
// count, the seconds of video made, an hour-of-day histogram and a histogram of the time to finish.
// A period reads the daily rows of its whole UTC days, the hourly rows of the whole hours of its
// partial first and last day, and the tasks of its partial first and last hour (../db/period-cut.ts),
// aggregated into one shape; failures by reason come the same way, from the daily and hourly failure
// rollups and the failed tasks of the partial first and last hour. A person is their user id: two
// people with one display name are two rows, a renamed person one row under the current name; a task
// recorded without a user id is grouped by the name it was recorded with. Nothing loads the period's
// tasks into Node.
import { sql, type RawBuilder } from 'kysely';
import type { Bucket, Insights, OverTimeRow } from '../../src/api/insights';
import type { Db } from '../db/database';
import { FAILURE_CODE, FAILURE_REASON } from '../db/failure-sql';
import { cutPeriod } from '../db/period-cut';

export type { Bucket, Insights, OverTimeRow };

export interface InsightsFilter {
  from: Date;
  to: Date;
  kind?: string;
  /** A display name: the people whose current name it is, and tasks recorded under it without a user. */
  creator?: string;
}

const DAY_MS = 24 * 3600_000;

/** Hourly buckets up to three days, daily beyond. */
function bucketFor(from: Date, to: Date): Bucket {
  return to.getTime() - from.getTime() <= 3 * DAY_MS ? 'hour' : 'day';
}

/**
 * Time to finish is kept as a histogram of 82 counts (migration 0012): bucket 0 is [0, 1) s, bucket
 * k (1-80) is [2^((k-1)/4), 2^(k/4)) s, bucket 81 is 2^20 s (12 days) and more. A percentile is the
 * bucket of the task at that rank (PostgreSQL's percentile_cont's lower rank), reported as the
 * bucket's geometric middle: within 9.1% of that task's time (2^(1/8) = 1.0905).
 */
const DURATION_BUCKETS = 82;

export function bucketMiddle(bucket: number): number {
  if (bucket <= 0) return 0.5;
  if (bucket >= DURATION_BUCKETS - 1) return 2 ** 20;
  return 2 ** ((bucket - 1) / 4 + 1 / 8);
}

/**
 * The percentile of a histogram given as [bucket, count] pairs (counts of zero or more, in any
 * order), or null when it counts nothing. The bucket holding the rank always exists: the counts
 * seen reach the total, and the rank is below it.
 */
export function histogramPercentile(pairs: [number, number][], fraction: number): number | null {
  const sorted = [...pairs].sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((sum, [, count]) => sum + count, 0);
  if (total === 0) return null;
  const rank = Math.floor(fraction * (total - 1));
  let seen = 0;
  const [bucket] = sorted.find(([, count]) => (seen += count) > rank)!;
  return bucketMiddle(bucket);
}

/** Tasks of the filter's kind and person (a condition on `tasks`). */
function taskFilter(filter: InsightsFilter) {
  return sql`${filter.kind ? sql`and kind = ${filter.kind}` : sql``}
    ${
      filter.creator
        ? sql`and (creator_id in (select id from users where display_name = ${filter.creator})
            or (creator_id is null and creator = ${filter.creator}))`
        : sql``
    }`;
}

// Stryker disable next-line MethodExpression: PostgreSQL reads a whole ISO instant as a date the same way
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const iso = (ms: number) => new Date(ms).toISOString();

/** The rollups' condition for the filter's kind and person (`creator_id`, `creator_name` keys). */
function rollupFilter(filter: InsightsFilter) {
  return sql`${filter.kind ? sql`and kind = ${filter.kind}` : sql``}
    ${
      filter.creator
        ? sql`and ((creator_id <> '' and creator_id in (select id from users where display_name = ${filter.creator}))
            or (creator_id = '' and creator_name = ${filter.creator}))`
        : sql``
    }`;
}

const createdIn = (spans: [number, number][]) =>
  sql`(${sql.join(
    spans.map(
      ([a, b]) => sql`(created_at >= ${iso(a)}::timestamptz and created_at < ${iso(b)}::timestamptz)`,
    ),
    sql` or `,
  )})`;

/**
 * The period's rows in the daily rollup's shape: the daily rollup's rows of its whole UTC days, the
 * hourly rollup's rows of the whole hours of its partial days (each with a one-hour histogram), and
 * the tasks of its partial hours aggregated the way the triggers aggregate them.
 */
function periodRows(filter: InsightsFilter): RawBuilder<unknown> {
  const cut = cutPeriod(filter.from.getTime(), filter.to.getTime());
  const parts: RawBuilder<unknown>[] = [];
  if (cut.days)
    parts.push(sql`select day, kind, creator_id, creator_name, phase, language, n, video_seconds, hours, durations
      from insights_rollup
      where day >= ${isoDay(cut.days[0])}::date and day < ${isoDay(cut.days[1])}::date and n <> 0
      ${rollupFilter(filter)}`);
  if (cut.hours.length)
    parts.push(sql`select (hour at time zone 'UTC')::date as day, kind, creator_id, creator_name, phase, language,
        n, video_seconds,
        insights_hist_step(null, extract(hour from hour at time zone 'UTC')::integer, n::integer, 24) as hours,
        durations
      from insights_rollup_hourly
      where (${sql.join(
        cut.hours.map(([a, b]) => sql`(hour >= ${iso(a)}::timestamptz and hour < ${iso(b)}::timestamptz)`),
        sql` or `,
      )})
      and n <> 0 ${rollupFilter(filter)}`);
  if (cut.edges.length)
    parts.push(sql`select day, kind, creator_id, creator_name, phase, language, count(*) as n,
        sum(video) as video_seconds,
        insights_weighted(array_agg(hour), array_agg(1), 24) as hours,
        insights_weighted(array_agg(bucket), array_agg(1), ${DURATION_BUCKETS}) as durations
      from (
        select (created_at at time zone 'UTC')::date as day, kind, coalesce(creator_id, '') as creator_id,
          case when creator_id is null then coalesce(creator, '') else '' end as creator_name,
          phase, coalesce(language, '') as language, video_seconds_made as video,
          extract(hour from created_at at time zone 'UTC')::integer as hour,
          case when phase <> 'running' and finished_at is not null
            then insights_bucket(extract(epoch from finished_at - created_at)::float8) end as bucket
        from tasks where ${createdIn(cut.edges)} ${taskFilter(filter)}
      ) edge
      group by 1, 2, 3, 4, 5, 6`);
  return sql.join(parts, sql` union all `);
}

/**
 * The period's failures by kind, code and reason (the most common 50), cut as the other figures are:
 * the daily failure rollup for its whole UTC days, the hourly one (0027) for the whole hours of its
 * partial days, the failed tasks themselves for its partial first and last hour only.
 */
export function failuresStatement(filter: InsightsFilter) {
  const cut = cutPeriod(filter.from.getTime(), filter.to.getTime());
  const parts: RawBuilder<unknown>[] = [];
  if (cut.days)
    parts.push(sql`select kind, code, reason, n from insights_failures_daily
      where day >= ${isoDay(cut.days[0])}::date and day < ${isoDay(cut.days[1])}::date and n <> 0
      ${rollupFilter(filter)}`);
  if (cut.hours.length)
    parts.push(sql`select kind, code, reason, n from insights_failures_hourly
      where (${sql.join(
        cut.hours.map(([a, b]) => sql`(hour >= ${iso(a)}::timestamptz and hour < ${iso(b)}::timestamptz)`),
        sql` or `,
      )})
      and n <> 0 ${rollupFilter(filter)}`);
  if (cut.edges.length)
    parts.push(sql`select kind, ${FAILURE_CODE} as code, ${FAILURE_REASON} as reason, 1 as n
      from tasks where phase = 'failed' and ${createdIn(cut.edges)} ${taskFilter(filter)}`);
  return sql<{ kind: string; code: string | null; reason: string; count: unknown }>`
    select kind, code, left(reason, 300) as reason, sum(n) as count
    from (${sql.join(parts, sql` union all `)}) f
    group by 1, 2, 3 having sum(n) > 0 order by 4 desc, 1, 3 limit 50`;
}

/**
 * The element-wise sum of a histogram column over a group, as one array: a subscript per element and
 * row, where unnesting every row's array (a set-returning call per row) cost several times more.
 */
function elementSums(column: 'hours' | 'durations', size: number): RawBuilder<unknown> {
  const sums = Array.from({ length: size }, (_, i) => `coalesce(sum(${column}[${i + 1}]), 0)`);
  return sql.raw(`array[${sums.join(', ')}]`);
}

/** A person's name: their current display name, else the last name their tasks were recorded under. */
const PERSON_NAME = sql`case when p.creator_id = '' then nullif(p.creator_name, '') else coalesce(
  (select display_name from users where id = p.creator_id),
  (select creator from tasks where creator_id = p.creator_id and source = 'created'
    order by created_at desc limit 1),
  p.creator_id) end`;

const num = (value: unknown): number => Number(value ?? 0);
const tenths = (value: number | null): number | null => (value === null ? null : Math.round(value * 10) / 10);

/**
 * The one statement that reads the period: every figure but the failures, as one JSON answer
 * (exported for EXPLAIN in the benchmark).
 */
export function mainStatement(filter: InsightsFilter) {
  const bucket = bucketFor(filter.from, filter.to);
  const overTime =
    bucket === 'day'
      ? sql`select day::timestamp as at, kind,
            sum(n) filter (where phase = 'succeeded') as succeeded,
            sum(n) filter (where phase = 'failed') as failed,
            sum(n) filter (where phase = 'running') as running
          from r group by 1, 2 having sum(n) > 0`
      : sql`select day + (u.i - 1) * interval '1 hour' as at, kind,
            sum(u.c) filter (where phase = 'succeeded') as succeeded,
            sum(u.c) filter (where phase = 'failed') as failed,
            sum(u.c) filter (where phase = 'running') as running
          from r, unnest(r.hours) with ordinality as u(c, i) where u.c <> 0 group by 1, 2`;
  return sql<{ answer: Record<string, unknown> }>`
    with r as materialized (${periodRows(filter)})
    select json_build_object(
      'totals', (select json_build_object(
          'created', coalesce(sum(n), 0),
          'succeeded', coalesce(sum(n) filter (where phase = 'succeeded'), 0),
          'failed', coalesce(sum(n) filter (where phase = 'failed'), 0),
          'running', coalesce(sum(n) filter (where phase = 'running'), 0)) from r),
      'overTime', (select coalesce(json_agg(o order by o.at, o.kind), '[]') from (${overTime}) o),
      'durations', (select coalesce(json_agg(json_build_array(d.kind, u.i - 1, u.c)), '[]') from (
          select kind, ${elementSums('durations', DURATION_BUCKETS)} as counts
          from r where phase <> 'running' group by 1) d,
          unnest(d.counts) with ordinality as u(c, i) where u.c <> 0),
      'people', (select coalesce(json_agg(p), '[]') from (
          select p.creator_id, ${PERSON_NAME} as creator, p.tasks, p.succeeded, p.failed, p.images,
            p.video_seconds, p.languages
          from (
            select creator_id, creator_name, sum(n) as tasks,
              coalesce(sum(n) filter (where phase = 'succeeded'), 0) as succeeded,
              coalesce(sum(n) filter (where phase = 'failed'), 0) as failed,
              coalesce(sum(n) filter (where phase = 'succeeded' and kind = 'image_generate'), 0) as images,
              sum(video_seconds) as video_seconds,
              coalesce(json_agg(distinct language) filter (where language <> ''), '[]') as languages
            from r group by 1, 2 having sum(n) > 0) p) p),
      'busiestHours', (select json_agg(json_build_object('hour', u.i - 1, 'tasks', u.c) order by u.i)
          from (select ${elementSums('hours', 24)} as counts from r) h,
          unnest(h.counts) with ordinality as u(c, i))
    ) as answer`;
}

interface PersonRow {
  creator_id: string;
  creator: string | null;
  tasks: unknown;
  succeeded: unknown;
  failed: unknown;
  images: unknown;
  video_seconds: unknown;
  languages: string[];
}

/** Most tasks first, then by name, then by id (two people of one name keep an order). */
export function byTasksThenName(a: Insights['people'][number], b: Insights['people'][number]) {
  return (
    b.tasks - a.tasks ||
    (a.creator ?? '').localeCompare(b.creator ?? '') ||
    (a.creatorId ?? '').localeCompare(b.creatorId ?? '')
  );
}

export async function computeInsights(db: Db, filter: InsightsFilter): Promise<Insights> {
  const bucket = bucketFor(filter.from, filter.to);
  const failures = failuresStatement(filter);
  const creators = sql<{ creator: string }>`
    select distinct creator from task_counts where creator <> '' and n > 0 order by creator limit 500`;
  // Together: on PostgreSQL each runs on a connection of its own; PGlite runs them in turn.
  const [mainResult, failureResult, creatorResult] = await Promise.all([
    mainStatement(filter).execute(db),
    failures.execute(db),
    creators.execute(db),
  ]);
  const answer = mainResult.rows[0]!.answer as {
    totals: Record<string, unknown>;
    overTime: Record<string, unknown>[];
    durations: [string, number, number][];
    people: PersonRow[];
    busiestHours: Record<string, unknown>[];
  };
  const totals = {
    created: num(answer.totals.created),
    succeeded: num(answer.totals.succeeded),
    failed: num(answer.totals.failed),
    running: num(answer.totals.running),
  };
  const ended = totals.succeeded + totals.failed;
  const histograms = new Map<string, [number, number][]>();
  for (const [kind, index, count] of answer.durations)
    histograms.set(kind, [...(histograms.get(kind) ?? []), [num(index), num(count)]]);
  return {
    period: { from: filter.from.toISOString(), to: filter.to.toISOString(), bucket },
    totals: { ...totals, successRate: ended ? totals.succeeded / ended : null },
    overTime: answer.overTime.map((row) => ({
      // Stryker disable next-line MethodExpression: json_agg writes a timestamp without a zone in 19 characters
      at: `${String(row.at).slice(0, 19)}Z`,
      kind: String(row.kind),
      succeeded: num(row.succeeded),
      failed: num(row.failed),
      running: num(row.running),
    })),
    durations: [...histograms]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([kind, pairs]) => ({
        kind,
        finished: pairs.reduce((sum, [, count]) => sum + count, 0),
        p50Seconds: tenths(histogramPercentile(pairs, 0.5)),
        p95Seconds: tenths(histogramPercentile(pairs, 0.95)),
      })),
    failures: failureResult.rows.map((row) => ({
      kind: row.kind,
      code: row.code,
      reason: row.reason,
      count: num(row.count),
    })),
    people: answer.people
      .map((row) => ({
        creatorId: row.creator_id || null,
        creator: row.creator ?? null,
        tasks: num(row.tasks),
        succeeded: num(row.succeeded),
        failed: num(row.failed),
        images: num(row.images),
        videoMinutes: Math.round((num(row.video_seconds) / 60) * 10) / 10,
        // Stryker disable next-line MethodExpression: json_agg(distinct) sorts too; kept so the order does not hang on that
        languages: row.languages.slice().sort(),
      }))
      .sort(byTasksThenName),
    busiestHours: answer.busiestHours.map((row) => ({ hour: num(row.hour), tasks: num(row.tasks) })),
    creators: creatorResult.rows.map((row) => row.creator),
  };
}

export const CSV_COLUMNS = [
  'day',
  'kind',
  'creator',
  'created',
  'succeeded',
  'failed',
  'running',
  'p50_seconds',
  'p95_seconds',
] as const;

/**
 * One row per day (UTC) x kind x person, in that order (people by name, then id); p50/p95 of the
 * tasks that finished, from the duration histogram. `creator` is the person's current display name
 * (grouped by user id: two people of one name are two rows), or the name a task without a user id
 * was recorded under.
 */
function csvStatement(filter: InsightsFilter) {
  return sql<{
    day: string;
    kind: string;
    creator_id: string;
    creator: string | null;
    created: unknown;
    succeeded: unknown;
    failed: unknown;
    running: unknown;
    durations: [number, number][] | null;
  }>`
    with r as materialized (${periodRows(filter)})
    select to_char(p.day, 'YYYY-MM-DD') as day, p.kind, p.creator_id, ${PERSON_NAME} as creator,
      p.created, p.succeeded, p.failed, p.running, h.durations
    from (
      select day, kind, creator_id, creator_name, sum(n) as created,
        coalesce(sum(n) filter (where phase = 'succeeded'), 0) as succeeded,
        coalesce(sum(n) filter (where phase = 'failed'), 0) as failed,
        coalesce(sum(n) filter (where phase = 'running'), 0) as running
      from r group by 1, 2, 3, 4 having sum(n) > 0) p
    left join (
      select day, kind, creator_id, creator_name,
        (select json_agg(json_build_array(u.i - 1, u.c)) from unnest(b.counts) with ordinality as u(c, i)
          where u.c <> 0) as durations
      from (select day, kind, creator_id, creator_name, ${elementSums('durations', DURATION_BUCKETS)} as counts
        from r where phase <> 'running' group by 1, 2, 3, 4) b) h using (day, kind, creator_id, creator_name)`;
}

export async function insightsCsvRows(db: Db, filter: InsightsFilter): Promise<string[][]> {
  const { rows } = await csvStatement(filter).execute(db);
  const seconds = (pairs: [number, number][] | null, fraction: number) => {
    const value = tenths(histogramPercentile(pairs ?? [], fraction));
    return value === null ? '' : String(value);
  };
  return rows
    .sort(
      (a, b) =>
        a.day.localeCompare(b.day) ||
        a.kind.localeCompare(b.kind) ||
        (a.creator ?? '').localeCompare(b.creator ?? '') ||
        a.creator_id.localeCompare(b.creator_id),
    )
    .map((row) => [
      row.day,
      row.kind,
      row.creator ?? '',
      String(num(row.created)),
      String(num(row.succeeded)),
      String(num(row.failed)),
      String(num(row.running)),
      seconds(row.durations, 0.5),
      seconds(row.durations, 0.95),
    ]);
}

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; a leading =+-@ is defused. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
