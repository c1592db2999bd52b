// `GET /__console/results/<task>/<role>/<index>`: a kept result file (./serve.ts). A viewer may
// read it (server/identity/access.ts). Only a row the copy job marked `kept` is served, by the key
// it wrote; nothing in the path reaches the store as a path.
import { Hono } from 'hono';
import type { Database, Db } from '../db/database';
import { removedReason, removeKept, retentionDays } from './copy-job';
import { serveKept } from './serve';
import { storageUsage } from './usage';
import { RESULT_ROLES, type ResultRole, type ResultStore } from './store';
import { NO_STORE } from '../http/no-store';
import { keptRow } from './kept-rows';

const RESULTS_PATH = '/__console/results';

/** The same-origin address of a kept file. */
const keptPath = (taskId: string, role: string, index: number) =>
  `${RESULTS_PATH}/${encodeURIComponent(taskId)}/${role}/${index}`;

export type KeptFiles = Partial<Record<ResultRole, string>>;

/** Where each task's files stand: the kept ones by role (their same-origin paths), and any lost. */
export interface TaskCopies {
  kept: KeptFiles;
  /** Roles whose copy failed or whose link expired first. */
  lost: ResultRole[];
  /**
   * Roles whose kept copy was removed: by the team's retention (RESULTS_KEEP_DAYS, `days`) or by
   * an admin; `at` is when (ms).
   */
  removed?: Partial<Record<ResultRole, { days?: number; at: number }>>;
  /** Roles still waiting to be copied. */
  pending: ResultRole[];
}

export async function copiesOf(db: Db, taskIds: readonly string[]): Promise<Map<string, TaskCopies>> {
  const found = new Map<string, TaskCopies>();
  if (taskIds.length === 0) return found;
  const rows = await db
    .selectFrom('result_copies')
    .select(['task_id', 'role', 'idx', 'state', 'kept_at', 'error', 'updated_at'])
    .where('task_id', 'in', [...taskIds])
    .where('idx', '=', 0)
    .execute();
  for (const row of rows) {
    if (!(RESULT_ROLES as readonly string[]).includes(row.role)) continue;
    const role = row.role as ResultRole;
    let entry = found.get(row.task_id);
    if (!entry) found.set(row.task_id, (entry = { kept: {}, lost: [], pending: [] }));
    if (row.state === 'kept') entry.kept[role] = keptPath(row.task_id, role, row.idx);
    // An expired row that was kept once: removed from the store (removeKept), not lost.
    else if (row.state === 'expired' && row.kept_at) {
      const days = retentionDays(row.error);
      (entry.removed ??= {})[role] = { ...(days && { days }), at: new Date(row.updated_at).getTime() };
    } else if (row.state === 'failed' || row.state === 'expired') entry.lost.push(role);
    else entry.pending.push(role);
  }
  return found;
}

export function createResultRoutes(
  database: Promise<Database>,
  store: Promise<ResultStore>,
  /** A task's kept files were removed: its view changed. */
  onRemoved?: (taskId: string) => void,
): Hono {
  const app = new Hono();
  app.get(`${RESULTS_PATH}/:task/:role/:index`, async (c) => {
    const role = c.req.param('role');
    const index = c.req.param('index');
    if (!(RESULT_ROLES as readonly string[]).includes(role) || !/^\d{1,4}$/.test(index))
      return c.json({ code: 404, msg: 'No such result file' }, 404, NO_STORE);
    const { db } = await database;
    const row = await keptRow(db, c.req.param('task'), role, Number(index));
    if (!row?.store_key) return c.json({ code: 404, msg: 'This file is not kept here' }, 404, NO_STORE);
    return serveKept(c.req.raw, row, await store);
  });
  // Admins: remove a task's kept files from the store (the service's links, if still alive, stay).
  app.delete(`${RESULTS_PATH}/:task`, async (c) => {
    const { db } = await database;
    const rows = await db
      .selectFrom('result_copies')
      .select(['id', 'store_key'])
      .where('task_id', '=', c.req.param('task'))
      .where('state', '=', 'kept')
      .execute();
    const removed = await removeKept(db, await store, rows, removedReason());
    onRemoved?.(c.req.param('task'));
    return c.json({ code: 0, msg: 'ok', data: { removed } }, 200, NO_STORE);
  });
  // Admins (server/identity/access.ts): what the store holds and what waits to be copied.
  app.get('/__console/storage', async (c) => {
    const { db } = await database;
    const kind = await store.then(
      (opened) => opened.kind,
      () => 'unavailable',
    );
    return c.json({ code: 0, msg: 'ok', data: await storageUsage(db, kind) }, 200, NO_STORE);
  });
  return app;
}
