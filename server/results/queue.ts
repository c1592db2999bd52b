// Which files of a succeeded task are copied, and the queue they wait in (result_copies). Queued
// by the recorder in the same transaction that records SUCCEEDED, and by the backfill (tasks that
// succeeded before, or through a path that records no status here), exactly once per file: the
// row is unique per (task, role, index) and a second queueing does nothing.
import { sql, type SqlBool } from 'kysely';
import type { Db } from '../db/database';
import type { ResultRole } from './store';

/** The service keeps result links about 7 days (shared/provider-notes.md). */
export const LINK_LIFETIME_MS = 7 * 24 * 3600 * 1000;

/** The result field each role comes from. */
export const ROLE_FIELDS: Record<ResultRole, string> = {
  image: 'image_url',
  video: 'video_url',
  thumbnail: 'thumbnail_url',
  caption: 'caption_url',
};

const ROLES_TABLE = sql.raw(
  `(values ${Object.entries(ROLE_FIELDS)
    .map(([role, field]) => `('${role}', '${field}')`)
    .join(', ')}) as f(role, field)`,
);

/**
 * Succeeded tasks (`t`) that finished after `cutoff`: the expression and predicate of the index
 * `tasks_succeeded_recent` (migration 0026), word for word, so the back-fill reads the last week's
 * tasks through it rather than every task.
 */
export const succeededSince = (cutoff: Date) =>
  sql<SqlBool>`t.status = 'SUCCEEDED' and coalesce(t.finished_at, t.created_at) > ${cutoff}`;

/**
 * Queues the files of the succeeded tasks among `taskIds` (all of them when undefined: the backfill)
 * whose links have not expired yet. Returns how many files were added.
 */
export async function queueResultCopies(db: Db, taskIds?: readonly string[]): Promise<number> {
  // Stryker disable next-line ConditionalExpression: an empty list matches no task anyway; this only saves the query
  if (taskIds && taskIds.length === 0) return 0;
  const cutoff = new Date(Date.now() - LINK_LIFETIME_MS);
  const only = taskIds ? sql`and t.id = any(${[...taskIds]}::text[])` : sql``;
  const { numAffectedRows } = await sql`
    insert into result_copies (task_id, role, idx, source_url)
    select t.id, f.role, 0, t.result->>f.field
    from tasks t cross join ${ROLES_TABLE}
    where ${succeededSince(cutoff)}
      and t.result->>f.field ~* '^https?://' ${only}
      and not exists (select 1 from result_copies c where c.task_id = t.id and c.role = f.role and c.idx = 0)
    on conflict (task_id, role, idx) do nothing`.execute(db);
  return Number(numAffectedRows ?? 0);
}
