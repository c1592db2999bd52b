// The Tasks gallery "By request": the loaded pages of the team's list, grouped into one entry per
// request. The server pages tasks as in "By task" (same filters, same cursor, same counts) and
// sends each page's requests whole (`group=request`); a request is shown, once, where the first of
// its matching tasks falls in the list, with all its tasks, matching the filters or not. Tasks of
// no request (looked up by id, named by a callback) and one-task requests stay single cards. Pure
// functions, so the rules are tested without a browser.
import type { TaskPage, TeamRequest, TeamTask } from '@/features/tasks/team/team-tasks';

export type GalleryEntry =
  | { key: string; task: TeamTask; request?: undefined }
  | { key: string; request: TeamRequest; task?: undefined };

export type GalleryMode = 'request' | 'task';

/** The newer of two copies of one task (the feed may have updated either). */
const fresher = (a: TeamTask, b: TeamTask) => (b.updatedAt > a.updatedAt ? b : a);

/** Where a task sits in its request: the creation answer's order (`batch`), else as listed. */
function byBatchOrder(tasks: TeamTask[]): TeamTask[] {
  const batch = tasks.find((task) => task.batch?.length)?.batch;
  if (!batch) return tasks;
  const at = (task: TeamTask) => {
    const index = batch.indexOf(task.id);
    return index < 0 ? batch.length : index;
  };
  return [...tasks].sort((a, b) => at(a) - at(b));
}

/** A request's tasks: the record's, each laid over by a fresher loaded copy, plus loaded ones it lacks. */
function requestOf(id: string, loaded: TeamTask[], known: TeamRequest | undefined): TeamRequest {
  const first = loaded[0]!;
  if (!known) {
    // Not in any page's requests (a request pushed by the feed since): what the list holds of it.
    return {
      id,
      kind: first.kind,
      creator: first.creator,
      ...(first.creatorUnverified && { creatorUnverified: true }),
      createdAt: first.createdAt,
      title: first.title,
      params: first.params as Record<string, unknown> | undefined,
      tasks: byBatchOrder(loaded),
    };
  }
  const copies = new Map(loaded.map((task) => [task.id, task]));
  const tasks = known.tasks.map((task) => {
    const copy = copies.get(task.id);
    copies.delete(task.id);
    return copy ? fresher(task, copy) : task;
  });
  return { ...known, tasks: byBatchOrder([...tasks, ...copies.values()]) };
}

/**
 * One entry per request (at the place of its first task in the list), one per task of no request.
 * `requests` are the pages' requests by id; `items` the loaded tasks, newest first.
 */
export function groupByRequest(
  items: readonly TeamTask[],
  requests: ReadonlyMap<string, TeamRequest>,
): GalleryEntry[] {
  const loadedOf = new Map<string, TeamTask[]>();
  for (const task of items) {
    if (!task.requestId) continue;
    const list = loadedOf.get(task.requestId);
    if (list) list.push(task);
    else loadedOf.set(task.requestId, [task]);
  }
  const entries: GalleryEntry[] = [];
  const placed = new Set<string>();
  for (const task of items) {
    const id = task.requestId;
    if (!id) {
      entries.push({ key: task.id, task });
      continue;
    }
    if (placed.has(id)) continue;
    placed.add(id);
    const request = requestOf(id, loadedOf.get(id)!, requests.get(id));
    if (request.tasks.length === 1) entries.push({ key: task.id, task: request.tasks[0]! });
    else entries.push({ key: `request:${id}`, request });
  }
  return entries;
}

/** The requests of every loaded page, by id (a later page's copy of one is no fresher: the first wins). */
export function requestsOfPages(pages: readonly TaskPage[]): Map<string, TeamRequest> {
  const byId = new Map<string, TeamRequest>();
  for (const page of pages)
    for (const request of page.requests ?? []) if (!byId.has(request.id)) byId.set(request.id, request);
  return byId;
}

/**
 * A request card's summary: how many of its tasks are done, failed, still running (tasks neither
 * succeeded nor failed count as running, as in the "In progress" tab).
 */
export function requestProgress(request: TeamRequest) {
  let succeeded = 0;
  let failed = 0;
  for (const task of request.tasks) {
    if (task.status === 'SUCCEEDED') succeeded++;
    else if (task.status === 'FAILED') failed++;
  }
  return {
    total: request.tasks.length,
    succeeded,
    failed,
    running: request.tasks.length - succeeded - failed,
  };
}
