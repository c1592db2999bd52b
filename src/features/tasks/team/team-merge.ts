// A task pushed by the server's event stream, merged into the pages already on screen: updated in
// place, inserted where it belongs by (created, id) newest first when it matches the view, taken
// out when it no longer does (a running task that succeeds leaves "In progress"). Pure functions,
// so the rules are tested without a browser.
import type { InfiniteData } from '@tanstack/react-query';
import { matchesView, viewedFields } from '@/api/task-view/task-view-rule';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import type { TaskPage, TeamQuery, TeamTask } from './team-tasks';

/**
 * The server's filter, applied to one task: the one view rule (src/api/task-view-rule.ts) the
 * server's SQL is built from, and, as the server does for the person asking, not one of the tasks
 * they hid (`hidden`) unless the view shows them.
 */
export function matchesQuery(
  task: TeamTask,
  query: TeamQuery,
  hidden?: ReadonlySet<string>,
  /** My stars: the Starred view takes in only these (none known yet: none). */
  starred?: ReadonlySet<string>,
): boolean {
  if (query.hidden !== 'show' && hidden?.has(task.id)) return false;
  if (query.starred === 'only' && !starred?.has(task.id)) return false;
  // The "changes requested" view: the pushed view's review says whether it still belongs.
  if (query.review && !((task.review as { changesRequested?: number } | undefined)?.changesRequested ?? 0))
    return false;
  return matchesView(viewedFields(task), query);
}

const newer = (a: Pick<TeamTask, 'createdAt' | 'id'>, b: Pick<TeamTask, 'createdAt' | 'id'>) =>
  a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id);

/** Where a page's cursor points (`<created_at ms>.<id>`), or undefined for a cursor it cannot read. */
function cursorPoint(cursor: string): Pick<TeamTask, 'createdAt' | 'id'> | undefined {
  const match = /^(\d+)\.(.+)$/.exec(cursor);
  return match ? { createdAt: Number(match[1]), id: match[2]! } : undefined;
}

export function mergePushedTask(
  data: InfiniteData<TaskPage, string | undefined>,
  task: TeamTask,
  query: TeamQuery,
  /** The tasks I hid from my view: a push never brings one back into a view that leaves them out. */
  hidden?: ReadonlySet<string>,
  /** My stars, for the Starred view. */
  starred?: ReadonlySet<string>,
): InfiniteData<TaskPage, string | undefined> {
  const matches = matchesQuery(task, query, hidden, starred);
  let found = false;
  let pages = data.pages.map((page) => {
    const index = page.items.findIndex((item) => item.id === task.id);
    if (index < 0) return page;
    found = true;
    const old = page.items[index]!;
    // Events may arrive out of order across instances: an older copy never replaces a newer one,
    // nor takes it out of a tab the newer one belongs to.
    if (old.updatedAt > task.updatedAt) return page;
    const items = matches ? page.items.with(index, task) : page.items.filter((item) => item.id !== task.id);
    return { ...page, items };
  });
  // In another order than newest first a new task's place is the server's to say: it shows when
  // the list is read again (an update in place above still applies).
  if (!found && matches && !query.sort) {
    // The first loaded page holding something older takes it; past the loaded end it waits for
    // its page (unless the list is complete, then it goes last). A page the server's search cut
    // short covers every task newer than its cursor, the last one it looked at, found or not.
    let placed = false;
    pages = pages.map((page, pageIndex) => {
      if (placed) return page;
      const at = page.items.findIndex((item) => newer(task, item));
      const edge = page.nextCursor === null ? null : cursorPoint(page.nextCursor);
      const covers =
        edge === null ? pageIndex === pages.length - 1 : Boolean(page.cutShort && edge && newer(task, edge));
      if (at < 0 && !covers) return page;
      placed = true;
      const items = [...page.items];
      items.splice(at < 0 ? items.length : at, 0, task);
      return { ...page, items };
    });
  }
  // By request: the task in its request's list too, matching the filters or not (a request card
  // shows all its tasks).
  pages = pages.map((page) => mergeIntoRequests(page, task));
  return { ...data, pages };
}

/**
 * What a card shows: the team's record, which the server keeps true (it follows every task itself),
 * with what only this browser knows laid over it: that this browser made the task, what it re-runs
 * or animates, and a language its copy has where the record has none.
 */
export function overlayLocal(server: TeamTask, local: TaskRecord | undefined): TeamTask {
  if (!local) return server;
  return {
    ...server,
    rerunOf: local.rerunOf,
    animatedFrom: local.animatedFrom,
    // This browser made it: it knows so even when the record only heard of it by a lookup.
    ...(local.source === 'created' && { source: local.source }),
    language: server.language ?? local.language,
  };
}

/**
 * A task pushed by the feed, merged into the requests of a page that holds its request: a newer
 * copy replaces the old, a task the request did not have yet is added. Other pages are returned
 * as they were (the same object).
 */
export function mergeIntoRequests(page: TaskPage, task: TeamTask): TaskPage {
  if (!task.requestId || !page.requests) return page;
  const index = page.requests.findIndex((request) => request.id === task.requestId);
  if (index < 0) return page;
  const request = page.requests[index]!;
  const at = request.tasks.findIndex((each) => each.id === task.id);
  if (at >= 0 && request.tasks[at]!.updatedAt > task.updatedAt) return page;
  const tasks = at >= 0 ? request.tasks.with(at, task) : [...request.tasks, task];
  return { ...page, requests: page.requests.with(index, { ...request, tasks }) };
}
