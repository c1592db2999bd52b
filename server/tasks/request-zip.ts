// `GET /__console/requests/<id>/zip`: every result file of one request as one zip named after it
// ("Harbour at dawn.zip"), its tasks in the request's order; the request page's "Download all".
// Who may read the request may download it (viewers too), as with a task's own download.
import type { Hono } from 'hono';
import { safeFileStem } from '../../src/api/download-name';
import { ZIP_TASKS_MAX } from '../../src/api/bulk-rules';
import type { Database } from '../db/database';
import type { ResultStore } from '../results/store';
import { zipOfTasks } from './bulk';
import { NO_STORE } from '../http/no-store';

/** "Harbour at dawn", from a title that may be a long prompt (cut as file names are); "Request" when nothing is left. */
export function requestZipStem(title: string | null): string {
  return safeFileStem(title ?? '') || 'Request';
}

export function mountRequestZip(
  app: Hono,
  database: Promise<Database>,
  fetchResult: typeof fetch,
  resultStore?: Promise<ResultStore>,
): void {
  app.get('/__console/requests/:id/zip', async (c) => {
    const { db } = await database;
    const request = await db
      .selectFrom('requests')
      .select(['title', 'task_ids'])
      .where('id', '=', c.req.param('id'))
      .executeTakeFirst();
    if (!request)
      return c.json({ code: 404, msg: 'This console has no record of that request' }, 404, NO_STORE);
    const ids = (Array.isArray(request.task_ids) ? request.task_ids : []).slice(0, ZIP_TASKS_MAX);
    const zip = await zipOfTasks(
      db,
      ids,
      () => `${requestZipStem(request.title)}.zip`,
      fetchResult,
      resultStore,
      c.req.raw.signal,
    );
    return zip ?? c.json({ code: 404, msg: 'This request has no results to download' }, 404, NO_STORE);
  });
}
