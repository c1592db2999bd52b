// What the Tasks screen's filters offer: the failures of the view with their counts, the creators.
import { sql } from 'kysely';
import type { Db } from '../db/database';
import { FAILURE_CODE, FAILURE_REASON } from '../db/failure-sql';
import { conditions, type TaskFilter } from './list-filter';

/** One failure of the view, with how many failed tasks share it. */
export interface FailureCount {
  code: string | null;
  reason: string;
  count: number;
}

/** At most this many reasons are listed (the most common). */
const FAILURES_MAX = 50;

/**
 * The failed tasks of the view, grouped by their failure: the reasons (code and message) and the
 * codes alone, each with its count, most common first. The view's own failure filter is left out,
 * so the list still offers the other failures once one is chosen.
 */
export async function countFailures(
  db: Db,
  filter: Omit<TaskFilter, 'tab' | 'sort'>,
): Promise<{ reasons: FailureCount[]; codes: { code: string | null; count: number }[] }> {
  const where = conditions({ ...filter, errorCode: undefined, errorReason: undefined }, 'failed');
  const [reasons, codes] = await Promise.all([
    sql<FailureCount>`
      select ${FAILURE_CODE} as code, ${FAILURE_REASON} as reason, count(*) as count
      from tasks where ${where} group by 1, 2 order by 3 desc, 2 limit ${FAILURES_MAX}`.execute(db),
    sql<{ code: string | null; count: number }>`
      select ${FAILURE_CODE} as code, count(*) as count
      from tasks where ${where} group by 1 order by 2 desc, 1 limit ${FAILURES_MAX}`.execute(db),
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
