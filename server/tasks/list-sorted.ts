// A page of tasks in another order than newest first (longest, failed first).
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { TaskSort } from '../../src/api/task-view/task-view-rule';
import type { Db } from '../db/database';
import type { TaskPhase, TasksTableRow } from '../db/schema';
import { encodeCursor, type Cursor, type TaskPage } from './list-cursor';
import { conditions, type TaskFilter } from './list-filter';
import { toTaskView } from './task-view';

/**
 * The sort key of an order other than newest first (before created_at and id, all descending):
 * seconds from creation to the end (a task still running has none: -1, last), or 1 for a failed
 * task (first), 0 for the others.
 */
const SORT_KEYS: Record<Exclude<TaskSort, 'newest'>, (asker: string) => RawBuilder<number>> = {
  longest: () => sql<number>`coalesce(extract(epoch from finished_at - created_at), -1)::float8`,
  failed: () => sql<number>`(case when phase = 'failed' then 1 else 0 end)::float8`,
  // 1 for a task the person asking starred. Unqualified `id`: starred_tasks has no such column, so
  // it is the task's, in the page's query and in the cursor's look-up (`tasks c`) alike.
  starred: (asker) =>
    sql<number>`(case when exists (select 1 from starred_tasks s where s.user_id = ${asker} and s.task_id = id) then 1 else 0 end)::float8`,
};

/** The sort key of the filter's order (`asker`: whose stars), or none for newest first. */
// Stryker disable next-line StringLiteral: without a person no user id matches a star, whatever the stand-in
export const sortKeyOf = (sort: TaskSort | undefined, asker = '') =>
  sort && sort !== 'newest' ? SORT_KEYS[sort](asker) : undefined;

/**
 * A page in another order than newest first: by the sort key, then newest first, keyset-paged on
 * all three. The cursor's task is read again for its key and created_at (as olderThan does); the
 * cursor's own values serve only if it is gone. A search here is a plain condition (no walk of the
 * newest rows first: that bound is for the newest-first order).
 */
export async function listSorted(
  db: Db,
  filter: TaskFilter,
  phase: TaskPhase | undefined,
  sortKey: RawBuilder<number>,
  after: Cursor | undefined,
  limit: number,
): Promise<TaskPage> {
  const afterCursor = after
    ? sql<SqlBool>`(${sortKey}, created_at, id) < (
        coalesce((select ${sortKey} from tasks c where c.id = ${after.id}), ${after.key ?? 0}::float8),
        coalesce((select c.created_at from tasks c where c.id = ${after.id}), ${after.at}::timestamptz),
        ${after.id})`
    : sql<SqlBool>`true`;
  const rows = (await db
    .selectFrom('tasks')
    .selectAll()
    .select(sql<number>`${sortKey}`.as('sort_key'))
    .where(conditions(filter, phase))
    .where(afterCursor)
    .orderBy(sql`${sortKey}`, 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute()) as (TasksTableRow & { sort_key: number | string })[];
  const items = rows.slice(0, limit).map(toTaskView);
  const last = rows[limit - 1];
  return {
    items,
    nextCursor:
      rows.length > limit && last
        ? encodeCursor({ createdAt: last.created_at.getTime(), id: last.id }, Number(last.sort_key))
        : null,
  };
}
