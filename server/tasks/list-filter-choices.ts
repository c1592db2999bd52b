// What the Tasks screen's filters offer: the failures of the view with their counts (kept by triggers in
// task_failure_counts where the view allows), the creators.
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { FAILURE_CODE, FAILURE_REASON } from '../db/failure-sql';
import { conditions, searchPattern, type TaskFilter } from './list-filter';

/** One failure of the view, with how many failed tasks share it. */
export interface FailureCount {
  code: string | null;
  reason: string;
  count: number;
}

/** At most this many reasons are listed (the most common). */
const FAILURES_MAX = 50;

type ChoiceFilter = Omit<TaskFilter, 'tab' | 'sort'>;

/** The view has what `task_failure_counts` cannot answer: a search, a period, the Starred view. */
const needsRows = (filter: ChoiceFilter) =>
  Boolean(searchPattern(filter.q)) ||
  filter.from !== undefined ||
  filter.to !== undefined ||
  filter.starredBy !== undefined;

/**
 * The view's failed tasks as (code, reason, n) rows: from `task_failure_counts` (kept by triggers, a
 * few rows per kind and creator) less the failed tasks this person hid, or, for what that table cannot
 * answer, the failed tasks themselves.
 */
function failedRows(filter: ChoiceFilter) {
  if (needsRows(filter)) {
    const where = conditions({ ...filter, errorCode: undefined, errorReason: undefined }, 'failed');
    return sql`select ${FAILURE_CODE} as code, ${FAILURE_REASON} as reason, 1 as n from tasks where ${where}`;
  }
  const kind = filter.kind ? sql`and kind = ${filter.kind}` : sql``;
  const hidden =
    filter.hiddenBy === undefined
      ? sql``
      : sql`union all
        select ${FAILURE_CODE} as code, ${FAILURE_REASON} as reason, -1 as n
        from hidden_tasks h join tasks on tasks.id = h.task_id
        where h.user_id = ${filter.hiddenBy} and tasks.phase = 'failed' ${kind}
          ${filter.creator ? sql`and tasks.creator = ${filter.creator}` : sql``}`;
  return sql`select code, reason, n from task_failure_counts
    where n <> 0 ${kind} ${filter.creator ? sql`and creator = ${filter.creator}` : sql``}
    ${hidden}`;
}

/**
 * The failed tasks of the view, grouped by their failure: the reasons (code and message) and the
 * codes alone, each with its count, most common first. The view's own failure filter is left out,
 * so the list still offers the other failures once one is chosen.
 */
export async function countFailures(
  db: Db,
  filter: ChoiceFilter,
): Promise<{ reasons: FailureCount[]; codes: { code: string | null; count: number }[] }> {
  const rows = failedRows(filter);
  const [reasons, codes] = await Promise.all([
    sql<FailureCount>`
      select code, reason, sum(n) as count from (${rows}) f
      group by 1, 2 having sum(n) > 0 order by 3 desc, 2 limit ${FAILURES_MAX}`.execute(db),
    sql<{ code: string | null; count: number }>`
      select code, sum(n) as count from (${rows}) f
      group by 1 having sum(n) > 0 order by 2 desc, 1 limit ${FAILURES_MAX}`.execute(db),
  ]);
  return {
    reasons: reasons.rows.map((row) => ({ ...row, count: Number(row.count) })),
    codes: codes.rows.map((row) => ({ ...row, count: Number(row.count) })),
  };
}

/** The names tasks were recorded with, for the creator filter's pick list (from task_counts: cheap). */
export async function listCreators(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('task_counts')
    .select('creator')
    .distinct()
    .where('creator', '<>', '')
    .where('n', '>', 0)
    .orderBy('creator')
    .limit(500)
    .execute();
  return rows.map((row) => row.creator);
}
