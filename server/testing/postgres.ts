// A throwaway PostgreSQL server for integration tests, end-to-end tests and the benchmark: a
// cluster made with initdb in a temporary folder, on a free loopback port, removed afterwards.
// Run as root, the server runs as the `postgres` user (PostgreSQL refuses to run as root).
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  url: string;
  /** A fresh, empty database on the same server. */
  createDatabase(name: string): string;
  stop(): void;
}

/** The newest Debian PostgreSQL binaries, or PG_BIN. */
function postgresBin(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  const found = versions
    .map((version) => join(root, version, 'bin'))
    .find((bin) => existsSync(join(bin, 'initdb')));
  if (!found)
    throw new Error(
      'PostgreSQL binaries not found: apt-get install postgresql (or set PG_BIN to its bin folder)',
    );
  return found;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** initdb, start and stop for a throwaway cluster; as root, each as the `postgres` user. */
function clusterCommands() {
  const bin = postgresBin();
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) => {
    const result = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { encoding: 'utf8' })
      : spawnSync(join(bin, command), args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
  };
  return { run, asRoot };
}

/** Where a cluster lives: its folder (data, log, socket) and port. */
interface Cluster {
  dir: string;
  port: number;
}

/** A new cluster in a folder of its own under `parent`; a start that fails leaves nothing behind. */
async function startCluster({ port, parent = tmpdir() }: { port?: number; parent?: string } = {}) {
  const { run, asRoot } = clusterCommands();
  const dir = mkdtempSync(join(parent, 'console-pg-'));
  const data = join(dir, 'data');
  try {
    if (asRoot) {
      const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
      const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
      chownSync(dir, uid, gid);
    }
    chmodSync(dir, 0o700);
    const chosen = port ?? (await freePort());
    run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--no-instructions']);
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-w',
      '-o',
      `-p ${chosen} -k ${dir} -c listen_addresses=127.0.0.1`,
      'start',
    ]);
    return { dir, port: chosen } satisfies Cluster;
  } catch (error) {
    removeCluster(dir);
    throw error;
  }
}

/**
 * A cluster on a free port, tried again on another port when the start fails: a port found free can
 * be taken by another program before PostgreSQL binds it.
 */
async function startClusterOnAFreePort(parent?: string): Promise<Cluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startCluster({ parent });
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/** Stops the cluster in `dir` if it runs (whatever stage its start reached) and removes the folder. */
function removeCluster(dir: string): void {
  try {
    if (existsSync(join(dir, 'data', 'postmaster.pid')))
      clusterCommands().run('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
  } catch {
    // Not running after all (a start that failed before it was up): only the folder is left.
  } finally {
    // A server process still leaving as the folder goes can make one removal fail: try again.
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

/** Each name made unique on the cluster, as test files of one run share it. */
function databasesOn(cluster: Cluster, { unique }: { unique: boolean }) {
  const base = `postgres://postgres@127.0.0.1:${cluster.port}`;
  const where = ['-h', '127.0.0.1', '-p', String(cluster.port), '-U', 'postgres'];
  const { run } = clusterCommands();
  const made: string[] = [];
  return {
    url: `${base}/postgres`,
    createDatabase(name: string): string {
      const database = unique ? `${name}_${randomBytes(5).toString('hex')}` : name;
      run('createdb', [...where, database]);
      made.push(database);
      return `${base}/${database}`;
    },
    /** Drops every database made here, connections and all; a failed drop does not stop the others. */
    dropAll(): void {
      const failures: unknown[] = [];
      for (const database of made.splice(0)) {
        try {
          run('dropdb', [...where, '--force', database]);
        } catch (error) {
          failures.push(error);
        }
      }
      if (failures.length) throw new AggregateError(failures, 'some test databases could not be dropped');
    },
  };
}

/** A cluster of its own: `stop()` removes it. */
export async function startTestPostgres(port?: number): Promise<TestPostgres> {
  const cluster = port ? await startCluster({ port }) : await startClusterOnAFreePort();
  const { url, createDatabase } = databasesOn(cluster, { unique: false });
  let stopped = false;
  return {
    url,
    createDatabase,
    stop() {
      if (stopped) return;
      stopped = true;
      removeCluster(cluster.dir);
    },
  };
}

// One cluster per test run, shared by its test files: an initdb and a start for each of a dozen files
// were a second or more of CPU each. The runner's global set-up makes a folder (SHARED_CLUSTER_DIR);
// the first file that needs PostgreSQL starts the cluster inside it and writes where it is, the others
// wait for that, and the set-up's teardown stops every cluster in the folder, even one still starting
// when the run was interrupted. Each file still gets databases of its own and drops them.
export const SHARED_CLUSTER_DIR = 'TEST_POSTGRES_RUN_DIR';

/** For a test runner's global set-up; returns its teardown. Nested runners share the outer one's. */
export function shareOneClusterPerRun(): () => void {
  if (process.env[SHARED_CLUSTER_DIR]) return () => {};
  const runDir = mkdtempSync(join(tmpdir(), 'console-pg-run-'));
  // The `postgres` user (the server's, when the tests run as root) reaches its cluster's folder inside.
  chmodSync(runDir, 0o711);
  process.env[SHARED_CLUSTER_DIR] = runDir;
  return () => {
    delete process.env[SHARED_CLUSTER_DIR];
    try {
      for (const entry of readdirSync(runDir))
        if (entry.startsWith('console-pg-')) removeCluster(join(runDir, entry));
    } finally {
      rmSync(runDir, { recursive: true, force: true });
    }
  };
}

type Started = { cluster: Cluster } | { error: string };

function readStarted(runDir: string): Started | undefined {
  try {
    return JSON.parse(readFileSync(join(runDir, 'cluster.json'), 'utf8')) as Started;
  } catch {
    return undefined;
  }
}

async function sharedCluster(runDir: string): Promise<Cluster> {
  let starter = true;
  try {
    mkdirSync(join(runDir, 'starting')); // atomic: exactly one file of the run starts it
  } catch {
    starter = false;
  }
  if (starter) {
    let started: Started;
    try {
      started = { cluster: await startClusterOnAFreePort(runDir) };
    } catch (error) {
      started = { error: String(error) };
    }
    try {
      writeFileSync(join(runDir, 'cluster.json.part'), JSON.stringify(started));
      renameSync(join(runDir, 'cluster.json.part'), join(runDir, 'cluster.json'));
    } catch (error) {
      // The run ended while this was starting (its folder is gone): nothing may outlive it.
      if ('cluster' in started) removeCluster(started.cluster.dir);
      throw error;
    }
  }
  // initdb on a loaded 2-core machine has taken tens of seconds (the hooks that wait allow 120 s).
  const deadline = Date.now() + 110_000;
  for (;;) {
    const started = readStarted(runDir);
    if (started && 'error' in started)
      throw new Error(`the run's PostgreSQL did not start: ${started.error}`);
    if (started) return started.cluster;
    if (Date.now() > deadline) throw new Error(`the run's PostgreSQL did not start within 110 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * PostgreSQL for a test file: the run's shared cluster when the runner set one up
 * (`shareOneClusterPerRun`), else a cluster of its own. Either way `stop()` leaves nothing behind.
 */
export async function testPostgres(): Promise<TestPostgres> {
  const runDir = process.env[SHARED_CLUSTER_DIR];
  if (!runDir) return startTestPostgres();
  const { url, createDatabase, dropAll } = databasesOn(await sharedCluster(runDir), { unique: true });
  return { url, createDatabase, stop: dropAll };
}
