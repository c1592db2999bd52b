// For integration test files on a real PostgreSQL server (the run's shared cluster, ./postgres.ts), a fresh
// database per test, and console instances on it (as behind a load balancer), all tidied up after.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { readServerConfig } from '../config/config';
import { createNodeApp, type NodeApp } from '../app/node-app';
import { testPostgres, type TestPostgres } from './postgres';

export function usePostgresInstances(secret: string) {
  let server: TestPostgres;
  const dirs: string[] = [];
  let databases = 0;
  beforeAll(async () => {
    server = await testPostgres();
  }, 120_000);
  afterAll(() => {
    server?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return {
    freshDatabase: () => server.createDatabase(`console_${++databases}`),
    /** An instance on `url`; `env` adds to (or overrides) its variables. */
    instance(url: string, env: Record<string, string> = {}): NodeApp {
      const dataDir = mkdtempSync(join(tmpdir(), 'pg-instance-'));
      dirs.push(dataDir);
      return createNodeApp(
        readServerConfig({
          DATA_DIR: dataDir,
          DATABASE_URL: url,
          CALLBACK_SECRET: secret,
          CALLBACK_RATE_LIMIT: '0',
          ...env,
        }),
        { emulator: { timeScale: 0, log: () => {} } },
      );
    },
  };
}
