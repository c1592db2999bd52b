// Keyset paging: a page of tasks, the cursor that says where the next one starts, and the
// condition for the rows after it.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { TaskView } from './task-view';

export interface TaskPage {
  items: TaskView[];
  nextCursor: string | null;
  /**
   * The search stopped at the time limit: `items` are the matches among the rows it looked at
   * (maybe none), and `nextCursor` goes on after the last of those rows.
   */
  cutShort?: true;
}

/**
 * `<created_at ms>.<id>` of the last row of a page: where the next page starts. Another order than
 * newest first puts its sort key first: `<key>~<created_at ms>.<id>`.
 */
export function encodeCursor(view: Pick<TaskView, 'createdAt' | 'id'>, key?: number): string {
  return `${key === undefined ? '' : `${key}~`}${view.createdAt}.${view.id}`;
}

/** A cursor read back: the sort key (another order than newest first), created_at and id. */
export interface Cursor {
  key?: number;
  at: Date;
  id: string;
}

export function decodeCursor(cursor: string | undefined): Cursor | undefined {
  // Stryker disable next-line StringLiteral: any text that is not a cursor reads as none, as the empty one does
  const match = /^(?:(-?\d{1,15}(?:\.\d{1,20})?)~)?(\d{1,15})\.(.+)$/.exec(cursor ?? '');
  if (!match) return undefined;
  return {
    ...(match[1] !== undefined && { key: Number(match[1]) }),
    at: new Date(Number(match[2])),
    id: match[3]!,
  };
}

/**
 * Rows after `task` in newest-first order. The task is read again for its created_at to the
 * microsecond (a cursor holds milliseconds: tasks of one request share a created_at, and a
 * millisecond holds many): compared with the millisecond, the rest of it would be skipped. `at`
 * serves only if that task is gone.
 */
export function olderThan(task: { id: string; at: Date }): RawBuilder<SqlBool> {
  return sql<SqlBool>`(created_at, id) < (coalesce((select c.created_at from tasks c where c.id = ${task.id}), ${task.at}), ${task.id})`;
}
