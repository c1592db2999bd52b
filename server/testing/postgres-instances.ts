// For integration test files on a real PostgreSQL server: one throwaway cluster per file, a fresh
// database per test, and console instances on it (as behind a load balancer), all tidied up after.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { readServerConfig } from '../config';
import type { Db } from '../db/database';
import { createNodeApp, type NodeApp } from '../node-app';
import type { TaskCounts } from '../tasks/list';
import { startTestPostgres, type TestPostgres } from './postgres';

export function usePostgresInstances(secret: string) {
  let server: TestPostgres;
  const dirs: string[] = [];
  let databases = 0;
  beforeAll(async () => {
    server = await startTestPostgres();
  }, 60_000);
  afterAll(() => {
    server?.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return {
    freshDatabase: () => server.createDatabase(`console_${++databases}`),
    instance(url: string): NodeApp {
      const dataDir = mkdtempSync(join(tmpdir(), 'pg-instance-'));
      dirs.push(dataDir);
      return createNodeApp(
        readServerConfig({
          DATA_DIR: dataDir,
          DATABASE_URL: url,
          CALLBACK_SECRET: secret,
          CALLBACK_RATE_LIMIT: '0',
        }),
        { emulator: { timeScale: 0, log: () => {} } },
      );
    },
  };
}

/** The tab counts as a full scan of `tasks` gives them, to check the kept ones against. */
export async function scannedCounts(
  db: Db,
  filter: { kind?: string; creator?: string } = {},
): Promise<TaskCounts> {
  let query = db.selectFrom('tasks');
  if (filter.kind) query = query.where('kind', '=', filter.kind);
  if (filter.creator) query = query.where('creator', '=', filter.creator);
  const rows = await query
    .select(['phase', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('phase')
    .execute();
  const counts = { all: 0, running: 0, succeeded: 0, failed: 0 };
  for (const row of rows) {
    counts[row.phase] = Number(row.n);
    counts.all += Number(row.n);
  }
  return counts;
}
