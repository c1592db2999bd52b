// The Node side (emulator, recorder, /__console/tasks) for component tests of the task screens:
// one app per test on the file's in-memory database, and the browser's same-origin fetch routed to it.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readServerConfig } from '../config/config';
import type { Database } from '../db/database';
import { createNodeApp, type NodeApp } from '../app/node-app';
import { resetTestDatabase } from './database';

export const SCREEN_ORIGIN = 'http://127.0.0.1:5173';

export function screenServer(name: string) {
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  let current: { nodeApp: NodeApp; database: Database } | undefined;
  const get = () => {
    if (!current) throw new Error('screenServer: open() first');
    return current;
  };
  return {
    /** A fresh app on an emptied database; call in beforeEach. */
    async open() {
      const database = await resetTestDatabase();
      const nodeApp = createNodeApp(
        readServerConfig({ DATA_DIR: dataDir, CALLBACK_SECRET: `${name}-secret-0123456789` }),
        { database, emulator: { timeScale: 0, log: () => {} } },
      );
      current = { nodeApp, database };
    },
    get database() {
      return get().database;
    },
    /** A request to the app as the page makes it (a same-origin path). */
    request: (path: string, init?: RequestInit, env?: Record<string, unknown>) =>
      get().nodeApp.app.request(`${SCREEN_ORIGIN}${path}`, init, env),
    close: () => current?.nodeApp.close(),
    remove: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}
