// The Insights screen's figures, computed by the database: one statement reads the period's tasks
// once (an index range scan over `tasks_insights`, migration 0008) and aggregates them every way
// the screen needs; the failures and the video minutes read the few rows they need beside it.
// Nothing loads the period's tasks into Node.
import { sql } from 'kysely';
import type { Bucket, Insights, OverTimeRow } from '../../src/api/insights';
import type { Db } from '../db/database';
import { FAILURE_CODE, FAILURE_REASON } from '../db/failure-sql';

export type { Bucket, Insights, OverTimeRow };

export interface InsightsFilter {
  from: Date;
  to: Date;
  kind?: string;
  creator?: string;
}

/** Hourly buckets up to three days, daily beyond. */
export function bucketFor(from: Date, to: Date): Bucket {
  return to.getTime() - from.getTime() <= 3 * 24 * 3600_000 ? 'hour' : 'day';
}

function periodWhere(filter: InsightsFilter) {
  return sql`created_at >= ${filter.from.toISOString()}::timestamptz
    and created_at < ${filter.to.toISOString()}::timestamptz
    ${filter.kind ? sql`and kind = ${filter.kind}` : sql``}
    ${filter.creator ? sql`and creator = ${filter.creator}` : sql``}`;
}

const num = (value: unknown): number => Number(value ?? 0);
const numOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Math.round(Number(value) * 10) / 10;

/** The one statement that reads the period's rows (exported for EXPLAIN in the benchmark). */
export function mainStatement(filter: InsightsFilter) {
  const bucket = bucketFor(filter.from, filter.to);
  const where = periodWhere(filter);
  // One pass over the period's rows, materialised once, aggregated six ways into one JSON answer.
  return sql<{ answer: Record<string, unknown> }>`
    with t as materialized (
      select kind, creator, phase, language, created_at,
        extract(epoch from finished_at - created_at) as seconds
      from tasks where ${where}
    )
    select json_build_object(
      'totals', (select json_build_object(
          'created', count(*),
          'succeeded', count(*) filter (where phase = 'succeeded'),
          'failed', count(*) filter (where phase = 'failed'),
          'running', count(*) filter (where phase = 'running')) from t),
      'overTime', (select coalesce(json_agg(o order by o.at, o.kind), '[]') from (
          select date_trunc(${bucket}, created_at at time zone 'UTC') as at, kind,
            count(*) filter (where phase = 'succeeded') as succeeded,
            count(*) filter (where phase = 'failed') as failed,
            count(*) filter (where phase = 'running') as running
          from t group by 1, 2) o),
      'durations', (select coalesce(json_agg(d order by d.kind), '[]') from (
          select kind, count(seconds) as finished,
            percentile_cont(0.5) within group (order by seconds) as p50,
            percentile_cont(0.95) within group (order by seconds) as p95
          from t where phase <> 'running' and seconds is not null group by kind) d),
      'people', (select coalesce(json_agg(p order by p.tasks desc, p.creator), '[]') from (
          select creator, sum(tasks) as tasks, sum(succeeded) as succeeded, sum(failed) as failed,
            sum(images) as images,
            coalesce(json_agg(language order by language) filter (where language is not null), '[]') as languages
          from (
            select creator, language, count(*) as tasks,
              count(*) filter (where phase = 'succeeded') as succeeded,
              count(*) filter (where phase = 'failed') as failed,
              count(*) filter (where phase = 'succeeded' and kind = 'image_generate') as images
            from t group by creator, language) by_language
          group by creator) p),
      'busiestHours', (select json_agg(h order by h.hour) from (
          select hours.hour, coalesce(counted.tasks, 0) as tasks
          from generate_series(0, 23) as hours(hour)
          left join (select extract(hour from created_at at time zone 'UTC')::int as hour, count(*) as tasks
            from t group by 1) counted on counted.hour = hours.hour) h)
    ) as answer`;
}

export async function computeInsights(db: Db, filter: InsightsFilter): Promise<Insights> {
  const bucket = bucketFor(filter.from, filter.to);
  const where = periodWhere(filter);
  const main = mainStatement(filter);
  const failures = sql<{ kind: string; code: string | null; reason: string; count: unknown }>`
    select kind, ${FAILURE_CODE} as code, left(${FAILURE_REASON}, 300) as reason, count(*) as count
    from tasks where phase = 'failed' and ${where}
    group by 1, 2, 3 order by 4 desc, 1, 3 limit 50`;
  // Seconds of video made: the duration the answer gave, else the one asked for.
  const videoSeconds = sql<{ creator: string | null; seconds: unknown }>`
    select creator, sum(coalesce(
      case when result->>'duration' ~ '^[0-9]+(\\.[0-9]+)?$' then (result->>'duration')::numeric end,
      case when params->>'duration' ~ '^[0-9]+$' then (params->>'duration')::numeric end, 0)) as seconds
    from tasks where phase = 'succeeded' and kind = 'image_to_video' and ${where}
    group by creator`;
  const creators = sql<{ creator: string }>`
    select distinct creator from task_counts where creator <> '' and n > 0 order by creator limit 500`;
  // Together: on PostgreSQL each runs on a connection of its own; PGlite runs them in turn.
  const [mainResult, failureResult, videoResult, creatorResult] = await Promise.all([
    // Room for a month of a busy team's rows in memory: with the default 4 MB the period's rows and
    // the per-kind sorts spilled to temporary files (~470 ms instead of ~100 at 82,000 rows).
    db.transaction().execute(async (trx) => {
      await sql`set local work_mem = '64MB'`.execute(trx);
      return main.execute(trx);
    }),
    failures.execute(db),
    videoSeconds.execute(db),
    creators.execute(db),
  ]);
  const answer = mainResult.rows[0]!.answer as {
    totals: Record<string, unknown>;
    overTime: Record<string, unknown>[];
    durations: Record<string, unknown>[];
    people: Record<string, unknown>[];
    busiestHours: Record<string, unknown>[];
  };
  const failureRows = failureResult.rows;
  const videoRows = videoResult.rows;
  const creatorRows = creatorResult.rows;
  const minutesBy = new Map(videoRows.map((row) => [row.creator, num(row.seconds) / 60]));
  const totals = {
    created: num(answer.totals.created),
    succeeded: num(answer.totals.succeeded),
    failed: num(answer.totals.failed),
    running: num(answer.totals.running),
  };
  const ended = totals.succeeded + totals.failed;
  return {
    period: { from: filter.from.toISOString(), to: filter.to.toISOString(), bucket },
    totals: { ...totals, successRate: ended ? totals.succeeded / ended : null },
    overTime: answer.overTime.map((row) => ({
      at: `${String(row.at).slice(0, 19)}Z`,
      kind: String(row.kind),
      succeeded: num(row.succeeded),
      failed: num(row.failed),
      running: num(row.running),
    })),
    durations: answer.durations.map((row) => ({
      kind: String(row.kind),
      finished: num(row.finished),
      p50Seconds: numOrNull(row.p50),
      p95Seconds: numOrNull(row.p95),
    })),
    failures: failureRows.map((row) => ({
      kind: row.kind,
      code: row.code,
      reason: row.reason,
      count: num(row.count),
    })),
    people: answer.people.map((row) => {
      const creator = (row.creator as string | null) ?? null;
      return {
        creator,
        tasks: num(row.tasks),
        succeeded: num(row.succeeded),
        failed: num(row.failed),
        images: num(row.images),
        videoMinutes: Math.round((minutesBy.get(creator) ?? 0) * 10) / 10,
        languages: (row.languages as string[]).slice().sort(),
      };
    }),
    busiestHours: answer.busiestHours.map((row) => ({ hour: num(row.hour), tasks: num(row.tasks) })),
    creators: creatorRows.map((row) => row.creator),
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

/** One row per day (UTC) x kind x person, in that order; p50/p95 of the tasks that finished. */
export async function insightsCsvRows(db: Db, filter: InsightsFilter): Promise<string[][]> {
  const { rows } = await sql<{
    day: string;
    kind: string;
    creator: string | null;
    created: unknown;
    succeeded: unknown;
    failed: unknown;
    running: unknown;
    p50: unknown;
    p95: unknown;
  }>`
    select to_char(created_at at time zone 'UTC', 'YYYY-MM-DD') as day, kind, creator,
      count(*) as created,
      count(*) filter (where phase = 'succeeded') as succeeded,
      count(*) filter (where phase = 'failed') as failed,
      count(*) filter (where phase = 'running') as running,
      percentile_cont(0.5) within group (order by extract(epoch from finished_at - created_at))
        filter (where phase <> 'running') as p50,
      percentile_cont(0.95) within group (order by extract(epoch from finished_at - created_at))
        filter (where phase <> 'running') as p95
    from tasks where ${periodWhere(filter)}
    group by 1, 2, 3 order by 1, 2, 3 nulls first`.execute(db);
  const seconds = (value: unknown) => {
    const rounded = numOrNull(value);
    return rounded === null ? '' : String(rounded);
  };
  return rows.map((row) => [
    row.day,
    row.kind,
    row.creator ?? '',
    String(num(row.created)),
    String(num(row.succeeded)),
    String(num(row.failed)),
    String(num(row.running)),
    seconds(row.p50),
    seconds(row.p95),
  ]);
}

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; a leading =+-@ is defused. */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
