// `GET /__console/tasks/<id>/download/<result|captions>`: a task's result file from the same
// origin, named from its request (Content-Disposition, RFC 6266), so a download is "Japanese -
// All-hands recap.mp4" rather than the service's opaque file name. The URL is the one the team's
// record holds (from the service's own answer, never the browser's word), fetched through the
// outbound guard and streamed, never held in memory.
import type { Hono } from 'hono';
import { contentDisposition, downloadName, extensionOf } from '../../src/api/download-name';
import type { Database } from '../db/database';
import type { TasksTableRow } from '../db/schema';
import { ROLE_FIELDS } from '../results/queue';
import { keptRow } from '../results/kept-rows';
import { serveKept } from '../results/serve';
import type { ResultRole, ResultStore } from '../results/store';
import { taskTitle } from './request-fields';
import { NO_STORE } from '../http/no-store';

const FIELDS = {
  result: (kind: string) => (kind === 'image_generate' ? ['image_url', 'thumbnail_url'] : ['video_url']),
  captions: () => ['caption_url'],
} as const;
const DEFAULT_EXTENSION: Record<string, string> = { image_generate: 'png', captions: 'ass' };
const PASSED_HEADERS = ['content-type', 'content-length', 'last-modified', 'etag'];

const ROLE_OF = Object.fromEntries(
  Object.entries(ROLE_FIELDS).map(([role, field]) => [field, role as ResultRole]),
) as Record<string, ResultRole>;

export type TaskFileKind = keyof typeof FIELDS;

/**
 * A task's `file` (its result, or its captions) as the team's record names it: the service's URL,
 * the download's name ("Japanese - All-hands recap.mp4") and the role its kept copy has; undefined
 * while the task has no such file.
 */
export function taskFile(
  task: TasksTableRow,
  file: TaskFileKind,
): { url: string; name: string; role?: ResultRole } | undefined {
  const field = FIELDS[file](task.kind).find((name) => {
    const value = task.result[name];
    return typeof value === 'string' && /^https?:\/\//i.test(value);
  });
  if (!field) return undefined;
  const url = task.result[field] as string;
  const extension =
    extensionOf(url) ?? DEFAULT_EXTENSION[file === 'captions' ? 'captions' : task.kind] ?? 'mp4';
  return { url, name: downloadName({ ...task, title: taskTitle(task) }, extension), role: ROLE_OF[field] };
}

export function mountDownloads(
  app: Hono,
  database: Promise<Database>,
  fetchResult: typeof fetch,
  /** The team's store: a kept copy is served from there (server/results), not fetched again. */
  resultStore?: Promise<ResultStore>,
): void {
  app.get('/__console/tasks/:id/download/:file', async (c) => {
    const file = c.req.param('file');
    if (file !== 'result' && file !== 'captions')
      return c.json({ code: 404, msg: 'No such file of a task' }, 404, NO_STORE);
    const { db } = await database;
    const task = await db
      .selectFrom('tasks')
      .selectAll()
      .where('id', '=', c.req.param('id'))
      .executeTakeFirst();
    if (!task) return c.json({ code: 404, msg: 'This console has no record of that task' }, 404, NO_STORE);
    const found = taskFile(task, file);
    if (!found) return c.json({ code: 404, msg: 'This task has no such file yet' }, 404, NO_STORE);
    const { url, name, role } = found;
    const kept = resultStore && role ? await keptRow(db, task.id, role, 0) : undefined;
    if (kept?.store_key) return serveKept(c.req.raw, kept, await resultStore!, name);
    let upstream: Response;
    try {
      upstream = await fetchResult(url, { signal: c.req.raw.signal });
    } catch {
      return c.json({ code: 502, msg: 'The file could not be fetched from the service' }, 502, NO_STORE);
    }
    if (!upstream.ok || !upstream.body) {
      await upstream.body?.cancel().catch(() => undefined);
      return c.json(
        { code: 502, msg: `The service answered HTTP ${upstream.status} for the file` },
        502,
        NO_STORE,
      );
    }
    const headers = new Headers({ 'content-disposition': contentDisposition(name), ...NO_STORE });
    for (const header of PASSED_HEADERS) {
      const value = upstream.headers.get(header);
      if (value) headers.set(header, value);
    }
    headers.set('x-content-type-options', 'nosniff');
    return new Response(upstream.body, { status: 200, headers });
  });
}
