// `/__console/tasks`: the team's tasks for the Tasks screen, and `/__console/tasks/<id>` for the
// detail page. Behind the sign-in like the rest of `/__console`.
import { Hono } from 'hono';
import { TASK_TYPES } from '../../src/api/schemas';
import {
  SEARCH_MAX_CHARS,
  TASK_SORTS,
  TASK_TABS,
  type TaskSort,
  type TaskTab,
} from '../../src/api/task-view/task-view-rule';
import type { Database } from '../db/database';
import { createTaskFeed, mountTaskEvents } from './feed';
import { createStreamLimits, type StreamLimits } from '../http/stream-limits';
import { databaseInputErrors, refuseUnstorableText } from '../http/request-text';
import { getTask, listTasks, PAGE_SIZE_MAX } from './list';
import { countTasks } from './list-counts';
import type { TaskFilter } from './list-filter';
import { countFailures, listCreators } from './list-filter-choices';
import { addCopies } from './task-view';
import { getRequest, listRequests, REQUESTS_PAGE_MAX, requestsOfTasks } from './requests';
import { mountDownloads } from './download';
import { mountBulk } from './bulk';
import { mountRequestZip } from './request-zip';
import { identityOf } from '../identity/request-identity';
import { BULK_IDS_MAX } from '../../src/api/bulk-rules';
import type { ResultStore } from '../results/store';
import { NO_STORE } from '../http/no-store';

/**
 * A time in epoch ms from the query, or undefined (absent or not a time). Fifteen digits at most:
 * every such number is a valid Date (the last one is 8.64e15 ms), so nothing else needs checking.
 */
function epochParam(value: string | undefined): number | undefined {
  return value && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

/**
 * The view asked for by the query string (`tab`, `kind`, `q`, `creator`, `from`, `to`, `code`,
 * `reason`, `sort`, `hidden=show`, `starred=only`, `review=changes_requested`), or the message of a 400 for a tab, kind or sort that is none.
 * The tasks the asker hid from their view are left out unless `hidden=show`.
 */
function readFilter(query: Record<string, string>, userId: string | undefined): TaskFilter | string {
  const tab = query.tab ?? 'all';
  const kind = query.kind;
  const sort = query.sort ?? 'newest';
  if (!(TASK_TABS as readonly string[]).includes(tab)) return `tab must be one of ${TASK_TABS.join(', ')}`;
  if (kind && !(TASK_TYPES as readonly string[]).includes(kind))
    return `kind must be one of ${TASK_TYPES.join(', ')}`;
  if (!(TASK_SORTS as readonly string[]).includes(sort))
    return `sort must be one of ${TASK_SORTS.join(', ')}`;
  return {
    tab: tab as TaskTab,
    kind: kind || undefined,
    q: query.q?.slice(0, SEARCH_MAX_CHARS) || undefined,
    creator: query.creator?.slice(0, 80) || undefined,
    from: epochParam(query.from),
    to: epochParam(query.to),
    errorCode: query.code?.slice(0, 40) || undefined,
    errorReason: query.reason?.slice(0, 500) || undefined,
    sort: sort as TaskSort,
    // Stryker disable next-line ConditionalExpression: a hiddenBy of undefined is none to every reader of the filter
    ...(userId !== undefined && query.hidden !== 'show' && { hiddenBy: userId }),
    // The Starred view (`starred=only`) and the "starred first" order are the asker's own stars.
    // Stryker disable next-line ConditionalExpression: an asker of undefined is none to sortKeyOf
    ...(userId !== undefined && { asker: userId }),
    ...(query.starred === 'only' && { starredBy: userId ?? '' }),
    ...(query.review === 'changes_requested' && { changesRequested: true }),
  };
}

export interface TaskRoutes {
  app: Hono;
  close(): Promise<void>;
}

/** `streams`: caps on open event streams, shared with the callback stream (server/http/stream-limits.ts). */
export function createTaskRoutes(
  database: Promise<Database>,
  streams: StreamLimits = createStreamLimits(),
  /** Fetches a result file for a download: the outbound guard (server/outbound.ts). */
  fetchResult: typeof fetch = fetch,
  /** The team's store of kept result files (server/results). */
  resultStore?: Promise<ResultStore>,
): TaskRoutes {
  const app = new Hono();
  const feed = createTaskFeed(database);
  const closeStreams = new Set<() => void>();
  // A search, a creator or a task id with a NUL in it is a 400 here, never a database error.
  app.use('/__console/tasks', refuseUnstorableText());
  app.use('/__console/tasks/*', refuseUnstorableText());
  app.use('/__console/requests', refuseUnstorableText());
  app.use('/__console/requests/*', refuseUnstorableText());
  app.onError(databaseInputErrors('tasks'));
  // Before /:id, which would otherwise take "events" for a task id.
  mountTaskEvents(app, feed, closeStreams, streams);
  mountDownloads(app, database, fetchResult, resultStore);
  mountBulk(app, database, fetchResult, resultStore);
  mountRequestZip(app, database, fetchResult, resultStore);

  app.get('/__console/tasks', async (c) => {
    const { db } = await database;
    const filter = readFilter(c.req.query(), identityOf(c)?.userId);
    if (typeof filter === 'string') return c.json({ code: 400, msg: filter }, 400);
    // "Select all matching" (`select=ids`): the ids of the whole view, newest first, up to BULK_IDS_MAX.
    if (c.req.query('select') === 'ids') {
      const all = await listTasks(db, filter, { limit: BULK_IDS_MAX });
      const ids = all.items.map((task) => task.id);
      return c.json({ code: 0, msg: 'ok', data: { ids, capped: all.nextCursor !== null } }, 200, NO_STORE);
    }
    const limit = Math.min(Math.max(Number(c.req.query('limit')) || 50, 1), PAGE_SIZE_MAX);
    const cursor = c.req.query('cursor') || undefined;
    // Counts come with the first page only: the next pages of the same view do not change them.
    const [page, counted] = await Promise.all([
      listTasks(db, filter, { cursor, limit }),
      cursor ? undefined : countTasks(db, filter),
    ]);
    // `countsCapped` only when true: a count equal to COUNT_CAP then means "at least that many";
    // `countsUnknown` only when true: a null count was not had within the search's time limit.
    // "By request" (`group=request`): the page's requests, each with all its tasks, to group it by.
    const grouped =
      c.req.query('group') === 'request'
        ? { requests: await requestsOfTasks(db, page.items, filter.hiddenBy) }
        : {};
    const counts = counted && {
      counts: counted.counts,
      ...(counted.capped ? { countsCapped: true } : {}),
      ...(counted.unknown ? { countsUnknown: true } : {}),
    };
    await addCopies(db, page.items);
    return c.json({ code: 0, msg: 'ok', data: { ...page, ...counts, ...grouped } }, 200, NO_STORE);
  });

  // The failed tasks of the view grouped by failure, with counts: the error filter's choices.
  app.get('/__console/tasks/errors', async (c) => {
    const { db } = await database;
    const filter = readFilter(c.req.query(), identityOf(c)?.userId);
    if (typeof filter === 'string') return c.json({ code: 400, msg: filter }, 400);
    const data = await countFailures(db, filter);
    return c.json({ code: 0, msg: 'ok', data }, 200, NO_STORE);
  });

  // The names the team's tasks were recorded with: the creator filter's pick list.
  app.get('/__console/tasks/creators', async (c) => {
    const { db } = await database;
    return c.json({ code: 0, msg: 'ok', data: { creators: await listCreators(db) } }, 200, NO_STORE);
  });

  app.get('/__console/tasks/:id', async (c) => {
    const { db } = await database;
    const found = await getTask(db, c.req.param('id'));
    if (!found) return c.json({ code: 404, msg: 'This console has no record of that task' }, 404, NO_STORE);
    return c.json({ code: 0, msg: 'ok', data: found }, 200, NO_STORE);
  });

  // Requests: one submission each, with its tasks (server/tasks/requests.ts).
  app.get('/__console/requests', async (c) => {
    const { db } = await database;
    const kindParam = c.req.query('kind');
    if (kindParam && !(TASK_TYPES as readonly string[]).includes(kindParam))
      return c.json({ code: 400, msg: `kind must be one of ${TASK_TYPES.join(', ')}` }, 400);
    const limit = Math.min(Math.max(Number(c.req.query('limit')) || 20, 1), REQUESTS_PAGE_MAX);
    const page = await listRequests(
      db,
      { kind: kindParam || undefined, creator: c.req.query('creator')?.slice(0, 80) || undefined },
      { cursor: c.req.query('cursor') || undefined, limit },
    );
    return c.json({ code: 0, msg: 'ok', data: page }, 200, NO_STORE);
  });

  app.get('/__console/requests/:id', async (c) => {
    const { db } = await database;
    const found = await getRequest(db, c.req.param('id'));
    if (!found)
      return c.json({ code: 404, msg: 'This console has no record of that request' }, 404, NO_STORE);
    return c.json({ code: 0, msg: 'ok', data: found }, 200, NO_STORE);
  });

  return {
    app,
    async close() {
      for (const end of closeStreams) end();
      await feed.close();
    },
  };
}
