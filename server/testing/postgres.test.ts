// The run's shared PostgreSQL cluster: files that ask at the same moment get one cluster, each its own
// databases, a file's stop() drops only its own, and the runner's teardown removes the cluster.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { shareOneClusterPerRun, testPostgres } from './postgres';

const RUN_DIR = 'TEST_POSTGRES_RUN_DIR';
const outer = process.env[RUN_DIR];
afterEach(() => {
  if (outer === undefined) delete process.env[RUN_DIR];
  else process.env[RUN_DIR] = outer;
});

async function databaseNames(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      'select datname from pg_database where not datistemplate order by datname',
    );
    return rows.map((row) => row.datname);
  } finally {
    await client.end();
  }
}

describe('one PostgreSQL cluster per test run', { timeout: 120_000 }, () => {
  it('is started once for files asking together, gives each its own databases, and is stopped by the teardown', async () => {
    // This test stands in for a runner of its own, outside the run it is part of.
    delete process.env[RUN_DIR];
    const teardown = shareOneClusterPerRun();
    const runDir = process.env[RUN_DIR]!;
    let url = '';
    try {
      const [first, second] = await Promise.all([testPostgres(), testPostgres()]);
      expect(first.url).toBe(second.url);
      url = first.url;
      const mine = first.createDatabase('files');
      const theirs = second.createDatabase('files');
      expect(mine).not.toBe(theirs);
      const name = (url: string) => new URL(url).pathname.slice(1);
      expect(await databaseNames(first.url)).toEqual(expect.arrayContaining([name(mine), name(theirs)]));

      // A file done with its databases drops them, connected or not, and leaves the others.
      const connected = new pg.Client({ connectionString: mine });
      await connected.connect();
      connected.on('error', () => {});
      first.stop();
      const left = await databaseNames(first.url);
      expect(left).not.toContain(name(mine));
      expect(left).toContain(name(theirs));
      await connected.end().catch(() => {});
      // As if the run ended while the cluster was still starting (before it said where it is): the
      // teardown still stops it.
      rmSync(join(runDir, 'cluster.json'));
    } finally {
      teardown();
    }
    expect(existsSync(runDir)).toBe(false);
    await expect(databaseNames(url)).rejects.toThrow(/ECONNREFUSED/);
    expect(process.env[RUN_DIR]).toBeUndefined();
  });

  it('leaves an outer runner its cluster: a nested set-up neither replaces nor removes it', () => {
    process.env[RUN_DIR] = '/tmp/an-outer-run';
    shareOneClusterPerRun()();
    expect(process.env[RUN_DIR]).toBe('/tmp/an-outer-run');
  });

  it('without a runner, starts a cluster of its own and stops it on stop()', async () => {
    delete process.env[RUN_DIR];
    const own = await testPostgres();
    try {
      expect(await databaseNames(own.url)).toEqual(['postgres']);
    } finally {
      own.stop();
    }
    await expect(databaseNames(own.url)).rejects.toThrow(/ECONNREFUSED/);
  });
});
