// Requests: one submission of a creation form, with the tasks it made. The Tasks screen shows a
// request as one card, the form follows it after a submit, a task page links its siblings.
import { sql, type Selectable, type SqlBool } from 'kysely';
import type { Db } from '../db/database';
import type { RequestsTable } from '../db/schema';
import { notHiddenBy } from './list-filter';
import { addCopies, toTaskView, type TaskView } from './task-view';

export { publicParams, requestIdOf, requestTitle } from './request-fields';

export type RequestRow = Selectable<RequestsTable>;

interface RequestView {
  id: string;
  kind: string;
  creator?: string;
  /** The creator's name was typed, not verified (recorded before sign-in identities). */
  creatorUnverified?: boolean;
  createdAt: number;
  params?: Record<string, unknown>;
  title?: string;
  taskIds: string[];
  /** "More like this": the request this one made again. */
  parentRequestId?: string;
}

function toRequestView(row: RequestRow): RequestView {
  return {
    id: row.id,
    kind: row.kind,
    creator: row.creator ?? undefined,
    ...(row.creator !== null && row.creator_id === null && { creatorUnverified: true }),
    createdAt: row.created_at.getTime(),
    params: row.params ?? undefined,
    title: row.title ?? undefined,
    taskIds: Array.isArray(row.task_ids) ? row.task_ids : [],
    ...(row.parent_request_id && { parentRequestId: row.parent_request_id }),
  };
}

export interface RequestWithTasks extends RequestView {
  /** In the order the creation answer listed them. */
  tasks: TaskView[];
}

/** `hiddenBy`: without the tasks this person hid from their view (as the task list leaves them out). */
async function withTasks(db: Db, rows: RequestRow[], hiddenBy?: string): Promise<RequestWithTasks[]> {
  if (!rows.length) return [];
  let query = db
    .selectFrom('tasks')
    .selectAll()
    .where(
      'request_id',
      'in',
      rows.map((row) => row.id),
    );
  if (hiddenBy !== undefined) query = query.where(notHiddenBy(hiddenBy));
  const tasks = await query.execute();
  const views = await addCopies(db, tasks.map(toTaskView));
  const byId = new Map(views.map((task) => [task.id, task]));
  return rows.map((row) => {
    const view = toRequestView(row);
    return { ...view, tasks: view.taskIds.flatMap((id) => byId.get(id) ?? []) };
  });
}

export const REQUESTS_PAGE_MAX = 100;

interface RequestFilter {
  kind?: string;
  creator?: string;
}

/** Newest first, keyset-paged (`<created_at ms>.<id>`), each request with its tasks. */
export async function listRequests(
  db: Db,
  filter: RequestFilter,
  page: { cursor?: string; limit: number },
): Promise<{ items: RequestWithTasks[]; nextCursor: string | null }> {
  const match = /^(\d{1,15})\.(.+)$/.exec(page.cursor ?? '');
  let query = db.selectFrom('requests').selectAll();
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.creator) query = query.where('creator', '=', filter.creator);
  if (match) {
    const id = match[2]!;
    const at = new Date(Number(match[1]));
    query = query.where(
      sql<SqlBool>`(created_at, id) < (coalesce((select r.created_at from requests r where r.id = ${id}), ${at}), ${id})`,
    );
  }
  const rows = await query
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(page.limit + 1)
    .execute();
  const items = await withTasks(db, rows.slice(0, page.limit));
  const last = items.at(-1);
  return { items, nextCursor: rows.length > page.limit && last ? `${last.createdAt}.${last.id}` : null };
}

/**
 * The requests of a page of tasks, each with all its tasks (whether or not they match the page's
 * filters), in the order the page first names them: the Tasks screen's "By request" view groups a
 * page by these (`GET /__console/tasks?group=request`). Tasks of no request add nothing. `hiddenBy`:
 * the page's filter left out the tasks this person hid, and so do its requests (their cards and
 * the counts drawn from them), unless they asked to see them (`hidden=show`).
 */
export async function requestsOfTasks(
  db: Db,
  tasks: readonly Pick<TaskView, 'requestId'>[],
  hiddenBy?: string,
): Promise<RequestWithTasks[]> {
  const ids = [...new Set(tasks.flatMap((task) => (task.requestId ? [task.requestId] : [])))];
  if (!ids.length) return [];
  const rows = await db.selectFrom('requests').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return withTasks(
    db,
    ids.flatMap((id) => byId.get(id) ?? []),
    hiddenBy,
  );
}

/** How many of the requests made again from one its page lists ("More like this"). */
const MORE_LIKE_THIS_LISTED = 50;

/**
 * One request with its tasks, and the requests made again from it ("More like this", newest first,
 * at most MORE_LIKE_THIS_LISTED): their ids, times, creators and task counts.
 */
export async function getRequest(
  db: Db,
  id: string,
): Promise<
  | (RequestWithTasks & {
      madeAgain: { id: string; createdAt: number; creator?: string; taskCount: number }[];
    })
  | undefined
> {
  const row = await db.selectFrom('requests').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  const again = await db
    .selectFrom('requests')
    .select(['id', 'created_at', 'creator', 'task_ids'])
    .where('parent_request_id', '=', id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(MORE_LIKE_THIS_LISTED)
    .execute();
  const [request] = await withTasks(db, [row]);
  return {
    ...request!,
    madeAgain: again.map((each) => ({
      id: each.id,
      createdAt: each.created_at.getTime(),
      ...(each.creator !== null && { creator: each.creator }),
      taskCount: Array.isArray(each.task_ids) ? each.task_ids.length : 0,
    })),
  };
}
