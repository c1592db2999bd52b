// Bulk actions of the Tasks screen: `POST /__console/tasks/zip` streams the chosen tasks'
// result files as one zip, and `/__console/tasks/hidden` keeps, per person, the tasks they hid from
// their own view. The zip is made as it is sent (client-zip: stored entries, data descriptors,
// Zip64 past 4 GB), one file at a time, each read from the team's store when a kept copy is there,
// else fetched from the service's link through the outbound guard: memory stays flat whatever the
// zip's size. Who may download a task's file may download the zip (viewers too).
import { Readable } from 'node:stream';
import { makeZip } from 'client-zip';
import type { Hono } from 'hono';
import { contentDisposition, safeFileStem } from '../../src/api/download-name';
import { BULK_IDS_MAX, ZIP_NAME_MAX, ZIP_TASKS_MAX } from '../../src/api/bulk-rules';
import type { Database, Db } from '../db/database';
import type { TasksTableRow } from '../db/schema';
import { z } from '../../src/api/zod';
import { taskIdList, tooManyOr } from '../http/task-ids';
import { validJson, type IssueMessage } from '../http/valid-input';
import { identityOf, requireUserId } from '../identity/request-identity';
import { keptRow } from '../results/kept-rows';
import type { ResultStore } from '../results/store';
import { taskFile, type TaskFileKind } from './download';
import { NO_STORE } from '../http/no-store';

const FILES: readonly TaskFileKind[] = ['result', 'captions'];
export const NOT_INCLUDED_NAME = 'Not included.txt';

const ZIP_TOO_MANY = `A zip holds the files of at most ${ZIP_TASKS_MAX} tasks: choose fewer`;
const HIDDEN_TOO_MANY = `At most ${BULK_IDS_MAX} tasks at once`;

const zipBody = z.object({
  ids: taskIdList(ZIP_TASKS_MAX, ZIP_TOO_MANY),
  /** The zip's name as the browser sees the view ("Failed tasks, 2026-11-28"), without `.zip`. */
  name: z.optional(z.string().check(z.maxLength(ZIP_NAME_MAX))),
});
/** The ids' reason first (as they are checked first), then the name's. */
const zipRefusal: IssueMessage = (issues) =>
  issues.some((issue) => issue.path[0] === 'ids')
    ? tooManyOr(ZIP_TOO_MANY, 'Send {"ids": [task ids]}')(issues)
    : `"name" is the zip's name: text of at most ${ZIP_NAME_MAX} characters`;

const hiddenBody = z.object({ ids: taskIdList(BULK_IDS_MAX, HIDDEN_TOO_MANY), hidden: z.boolean() });

/**
 * What the zip of `ids` is called: after their request when they all come from one (its title, the
 * prompt or the video's name), else after the view the browser named, else `Tasks (count).zip`.
 */
async function zipName(
  db: Db,
  ids: string[],
  viewName: string | undefined,
): Promise<(count: number) => string> {
  const requests = await db
    .selectFrom('tasks')
    .leftJoin('requests', 'requests.id', 'tasks.request_id')
    .select(['tasks.request_id', 'requests.title'])
    .where('tasks.id', 'in', ids)
    .execute();
  const oneRequest =
    requests.length > 0 && requests.every((row) => row.request_id === requests[0]!.request_id);
  const stem = safeFileStem((oneRequest && requests[0]!.request_id && requests[0]!.title) || viewName || '');
  return (count) => (stem ? `${stem}.zip` : `Tasks (${count}).zip`);
}

/** "name.mp4", then "name (2).mp4": a zip may not hold two entries of one name. */
export function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  const dot = name.lastIndexOf('.');
  const [stem, extension] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${extension}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

interface ZipEntry {
  name: string;
  input: ReadableStream<Uint8Array>;
  lastModified?: Date;
}

/**
 * The zip's entries, opened one at a time as the zip asks for the next (so one file is open at
 * once), then a "Not included.txt" that says which tasks had no file and which could not be read.
 */
async function* entries(
  db: Db,
  tasks: TasksTableRow[],
  missing: string[],
  fetchResult: typeof fetch,
  resultStore: Promise<ResultStore> | undefined,
  signal: AbortSignal,
): AsyncGenerator<ZipEntry> {
  const taken = new Set<string>([NOT_INCLUDED_NAME.toLowerCase()]);
  const notIncluded = missing.map((id) => `${id}: this console has no record of it`);
  for (const task of tasks) {
    const files = FILES.map((file) => taskFile(task, file)).filter((found) => found !== undefined);
    if (!files.length) notIncluded.push(`${task.id}: no result file (status ${task.status || 'unknown'})`);
    for (const file of files) {
      const name = uniqueName(file.name, taken);
      const input = await openFile(db, task, file, fetchResult, resultStore, signal);
      if (typeof input === 'string') notIncluded.push(`${task.id}: ${name} ${input}`);
      else yield { name, input, lastModified: task.finished_at ?? task.updated_at };
    }
  }
  if (notIncluded.length)
    yield {
      name: NOT_INCLUDED_NAME,
      input: new Blob([`Not in this zip:\n${notIncluded.join('\n')}\n`]).stream(),
    };
}

/** The file's bytes as a stream, or why not (a sentence's end). */
async function openFile(
  db: Db,
  task: TasksTableRow,
  file: NonNullable<ReturnType<typeof taskFile>>,
  fetchResult: typeof fetch,
  resultStore: Promise<ResultStore> | undefined,
  signal: AbortSignal,
): Promise<ReadableStream<Uint8Array> | string> {
  const kept = resultStore && file.role ? await keptRow(db, task.id, file.role, 0) : undefined;
  if (kept?.store_key) {
    const object = await (await resultStore!).get(kept.store_key);
    if (object) return Readable.toWeb(object.body) as ReadableStream<Uint8Array>;
  }
  try {
    const upstream = await fetchResult(file.url, { signal });
    if (upstream.ok && upstream.body) return upstream.body;
    await upstream.body?.cancel().catch(() => undefined);
    return `could not be fetched (the service answered HTTP ${upstream.status})`;
  } catch {
    return 'could not be fetched from the service';
  }
}

/**
 * The tasks' result files as one zip named `name(count of tasks found)`, in the order of `ids`,
 * streamed as it is sent; undefined when none of the tasks is known. Boards' "Download all" uses it too.
 */
export async function zipOfTasks(
  db: Db,
  ids: string[],
  name: (count: number) => string,
  fetchResult: typeof fetch,
  resultStore: Promise<ResultStore> | undefined,
  signal: AbortSignal,
): Promise<Response | undefined> {
  const rows = ids.length ? await db.selectFrom('tasks').selectAll().where('id', 'in', ids).execute() : [];
  if (!rows.length) return undefined;
  const byId = new Map(rows.map((row) => [row.id, row]));
  const tasks = ids.flatMap((id) => byId.get(id) ?? []);
  const missing = ids.filter((id) => !byId.has(id));
  const zip = makeZip(entries(db, tasks, missing, fetchResult, resultStore, signal));
  return new Response(zip, {
    headers: {
      'content-type': 'application/zip',
      'content-disposition': contentDisposition(name(tasks.length)),
      'x-content-type-options': 'nosniff',
      ...NO_STORE,
    },
  });
}

export function mountBulk(
  app: Hono,
  database: Promise<Database>,
  fetchResult: typeof fetch,
  resultStore?: Promise<ResultStore>,
): void {
  app.post('/__console/tasks/zip', validJson(zipBody, zipRefusal), async (c) => {
    const { ids, name: viewName } = c.req.valid('json');
    const { db } = await database;
    return (
      (await zipOfTasks(
        db,
        ids,
        await zipName(db, ids, viewName),
        fetchResult,
        resultStore,
        c.req.raw.signal,
      )) ?? c.json({ code: 404, msg: 'This console has no record of those tasks' }, 404, NO_STORE)
    );
  });

  // What the person asking hid: their own list, never anyone else's.
  app.get('/__console/tasks/hidden', async (c) => {
    const userId = identityOf(c)?.userId;
    // Stryker disable next-line ConditionalExpression: without a person the query finds no rows all the same; this spares it
    if (!userId) return c.json({ code: 0, msg: 'ok', data: { ids: [] } }, 200, NO_STORE);
    const { db } = await database;
    const rows = await db
      .selectFrom('hidden_tasks')
      .select('task_id')
      .where('user_id', '=', userId)
      .orderBy('hidden_at', 'desc')
      .execute();
    return c.json({ code: 0, msg: 'ok', data: { ids: rows.map((row) => row.task_id) } }, 200, NO_STORE);
  });

  // `{ids, hidden}`: hides the tasks from the asker's view (true) or brings them back (false).
  app.post(
    '/__console/tasks/hidden',
    requireUserId('Sign in to hide tasks from your view'),
    validJson(hiddenBody, tooManyOr(HIDDEN_TOO_MANY, 'Send {"ids": [task ids], "hidden": true or false}')),
    async (c) => {
      const userId = identityOf(c)!.userId!;
      const { ids, ...body } = c.req.valid('json');
      const { db } = await database;
      if (body.hidden)
        await db
          .insertInto('hidden_tasks')
          .values(ids.map((task_id) => ({ user_id: userId, task_id })))
          .onConflict((oc) => oc.doNothing())
          .execute();
      else
        await db
          .deleteFrom('hidden_tasks')
          .where('user_id', '=', userId)
          .where('task_id', 'in', ids)
          .execute();
      return c.json({ code: 0, msg: 'ok', data: { changed: ids.length } }, 200, NO_STORE);
    },
  );
}
