// The Node side (emulator, recorder, /__console/*) for tests: one app per test (or per file) on the
// file's in-memory database (./database.ts), with a DATA_DIR of its own, emptied after each test,
// requests made as a person.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { Role } from '../../src/api/roles';
import { readServerConfig } from '../config/config';
import type { Database } from '../db/database';
import { createNodeApp, type NodeApp, type NodeAppOptions } from '../app/node-app';
import { resetTestDatabase, testDatabase } from './database';
import { asPerson } from './identity';

/** The origin the tests' requests name (vite dev's). */
export const TEST_ORIGIN = 'http://127.0.0.1:5173';

interface TestNodeAppSetup {
  /** Environment variables beside DATA_DIR and CALLBACK_SECRET. */
  env?: Record<string, string | undefined>;
  /**
   * createNodeApp's options beside the file's database and an instant, quiet emulator
   * (`database: undefined`: the app opens its own in DATA_DIR, as `npm start` does).
   */
  options?: NodeAppOptions;
}

export function testNodeApp(name: string, fileSetup: TestNodeAppSetup = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), `${name}-`));
  const secret = `${name}-secret-0123456789abcdef`;
  let current: { nodeApp: NodeApp; database: Database } | undefined;
  const get = () => {
    if (!current) throw new Error('testNodeApp: open() first');
    return current;
  };
  /** An app on this folder and the file's database; `setup` instead of the file's. */
  const make = async ({ env = {}, options = {} }: TestNodeAppSetup = fileSetup): Promise<NodeApp> =>
    createNodeApp(readServerConfig({ DATA_DIR: dataDir, CALLBACK_SECRET: secret, ...env }), {
      database: await testDatabase(),
      ...options,
      emulator: { timeScale: 0, log: () => {}, ...options.emulator },
    });
  const request = (path: string, init?: RequestInit, requestEnv?: Record<string, unknown>) =>
    get().nodeApp.app.request(`${TEST_ORIGIN}${path}`, init, requestEnv);
  return {
    dataDir,
    secret,
    /**
     * A fresh app on an emptied database, in place of the open one (call in beforeEach, or in a test
     * that needs other settings); `setup` instead of the file's.
     */
    async open(setup?: TestNodeAppSetup): Promise<NodeApp> {
      await current?.nodeApp.close();
      current = undefined;
      const database = await resetTestDatabase();
      const nodeApp = await make(setup);
      current = { nodeApp, database };
      return nodeApp;
    },
    /**
     * An app on the database as it is (not emptied) that is not the open one: a second instance, or
     * one on rows the test wrote first. The test closes it.
     */
    make,
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
    /** Closes the open app and empties the folder for the next test. */
    async close() {
      await current?.nodeApp.close();
      current = undefined;
      rmSync(dataDir, { recursive: true, force: true });
      mkdirSync(dataDir);
    },
    remove: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

type TestNodeApp = ReturnType<typeof testNodeApp>;

/**
 * testNodeApp with the file's hooks: opened before each test and closed after it (or once for the
 * whole file with `per: 'file'`), its folder removed at the end.
 */
export function useTestNodeApp(
  name: string,
  setup?: TestNodeAppSetup,
  per: 'test' | 'file' = 'test',
): TestNodeApp {
  const server = testNodeApp(name, setup);
  const open = async () => {
    await server.open();
  };
  if (per === 'test') {
    beforeEach(open);
    afterEach(() => server.close());
  } else beforeAll(open);
  afterAll(async () => {
    await server.close();
    server.remove();
  });
  return server;
}
