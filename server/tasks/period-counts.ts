// The tab counts of a period on the Tasks screen (with a kind, or none) from the Insights rollups
// (migrations 0012 and 0026): whole UTC days from the daily rollup, whole hours from the hourly one,
// the partial first and last hour from the tasks, less the tasks the person hid in the period. At
// 10M tasks a 7-day period holds ~190,000 tasks: counting them one by one took ~80 ms on a quiet
// machine; this reads a few hundred rollup rows and at most two hours of tasks.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/database';
import { cutPeriod } from '../db/period-cut';
import type { TaskPhase } from '../db/schema';
import { searchPattern, type TaskFilter } from './list-filter';

/** The latest instant a period without an end reaches (PostgreSQL reads it; far past any task). */
const NO_END = Date.UTC(9999, 0, 1);

const iso = (ms: number) => new Date(ms).toISOString();
const isoDay = (ms: number) => iso(ms).slice(0, 10);

/** A period with nothing the rollups do not key: no search, creator, failure or Starred view. */
export function rollupCountable(filter: Omit<TaskFilter, 'tab'>): boolean {
  return (
    (filter.from !== undefined || filter.to !== undefined) &&
    !searchPattern(filter.q) &&
    !filter.creator &&
    filter.errorCode === undefined &&
    filter.errorReason === undefined &&
    filter.starredBy === undefined
  );
}

/** Each phase's count of the period's tasks (of the filter's kind), not those `hiddenBy` hid. */
export async function countPeriod(
  db: Db,
  filter: Omit<TaskFilter, 'tab'>,
): Promise<Partial<Record<TaskPhase, number>>> {
  const from = filter.from ?? 0;
  const to = filter.to ?? NO_END;
  const counts: Partial<Record<TaskPhase, number>> = {};
  if (from >= to) return counts;
  const cut = cutPeriod(from, to);
  const kind = filter.kind ? sql`and kind = ${filter.kind}` : sql``;
  const parts: RawBuilder<unknown>[] = [];
  if (cut.days)
    parts.push(sql`select phase, n from insights_rollup
      where day >= ${isoDay(cut.days[0])}::date and day < ${isoDay(cut.days[1])}::date ${kind}`);
  for (const [a, b] of cut.hours)
    parts.push(sql`select phase, n from insights_rollup_hourly
      where hour >= ${iso(a)}::timestamptz and hour < ${iso(b)}::timestamptz ${kind}`);
  for (const [a, b] of cut.edges)
    parts.push(sql`select phase, 1 as n from tasks
      where created_at >= ${iso(a)}::timestamptz and created_at < ${iso(b)}::timestamptz ${kind}`);
  if (filter.hiddenBy !== undefined)
    parts.push(sql`select t.phase, -1 as n from hidden_tasks h join tasks t on t.id = h.task_id
      where h.user_id = ${filter.hiddenBy} and t.created_at >= ${iso(from)}::timestamptz
        and t.created_at < ${iso(to)}::timestamptz ${filter.kind ? sql`and t.kind = ${filter.kind}` : sql``}`);
  const { rows } = await sql<{ phase: TaskPhase; n: unknown }>`
    select phase, sum(n) as n from (${sql.join(parts, sql` union all `)}) p group by phase`.execute(db);
  for (const row of rows) if (Number(row.n) > 0) counts[row.phase] = Number(row.n);
  return counts;
}
