// The Node side (emulator, recorder, /__console/*) for tests: one app per test on the file's
// in-memory database (./database.ts), with a DATA_DIR of its own, requests made as a person.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach } from 'vitest';
import type { Role } from '../../src/api/roles';
import { readServerConfig } from '../config/config';
import type { Database } from '../db/database';
import { createNodeApp, type NodeApp, type NodeAppOptions } from '../app/node-app';
import { resetTestDatabase } from './database';
import { asPerson } from './identity';

/** The origin the tests' requests name (vite dev's). */
export const TEST_ORIGIN = 'http://127.0.0.1:5173';

interface TestNodeAppSetup {
  /** Environment variables beside DATA_DIR and CALLBACK_SECRET. */
  env?: Record<string, string | undefined>;
  /** createNodeApp's options beside the database and an instant, quiet emulator. */
  options?: NodeAppOptions;
}

export function testNodeApp(name: string, { env = {}, options = {} }: TestNodeAppSetup = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  const secret = `${name}-secret-0123456789abcdef`;
  let current: { nodeApp: NodeApp; database: Database } | undefined;
  const get = () => {
    if (!current) throw new Error('testNodeApp: open() first');
    return current;
  };
  const request = (path: string, init?: RequestInit, requestEnv?: Record<string, unknown>) =>
    get().nodeApp.app.request(`${TEST_ORIGIN}${path}`, init, requestEnv);
  return {
    dataDir,
    secret,
    /** A fresh app on an emptied database; call in beforeEach. */
    async open(): Promise<NodeApp> {
      const database = await resetTestDatabase();
      const nodeApp = createNodeApp(
        readServerConfig({ DATA_DIR: dataDir, CALLBACK_SECRET: secret, ...env }),
        {
          database,
          ...options,
          emulator: { timeScale: 0, log: () => {}, ...options.emulator },
        },
      );
      current = { nodeApp, database };
      return nodeApp;
    },
    get nodeApp() {
      return get().nodeApp;
    },
    get database() {
      return get().database;
    },
    /** A request to the app as the page makes it (a same-origin path), with the env a sign-in layer hands over. */
    request,
    /** A request made by `user`. */
    requestAs: (user: string, path: string, init?: RequestInit, role: Role = 'creator') =>
      request(path, init, asPerson(user, role)),
    /** A JSON POST made by `user`. */
    postJsonAs: (user: string, path: string, body: unknown, role: Role = 'creator') =>
      request(
        path,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
        asPerson(user, role),
      ),
    close: () => current?.nodeApp.close(),
    remove: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

type TestNodeApp = ReturnType<typeof testNodeApp>;

/** testNodeApp with the file's hooks: opened before each test, closed after it, its folder removed at the end. */
export function useTestNodeApp(name: string, setup?: TestNodeAppSetup): TestNodeApp {
  const server = testNodeApp(name, setup);
  beforeEach(async () => {
    await server.open();
  });
  afterEach(() => server.close());
  afterAll(server.remove);
  return server;
}
