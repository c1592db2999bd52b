// A throwaway PostgreSQL server for integration tests, end-to-end tests and the benchmark: a
// cluster made with initdb in a temporary folder, on a free loopback port, removed afterwards.
// Run as root, the server runs as the `postgres` user (PostgreSQL refuses to run as root).
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
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

export async function startTestPostgres(port?: number): Promise<TestPostgres> {
  const bin = postgresBin();
  const dir = mkdtempSync(join(tmpdir(), 'console-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  let uid = 0;
  let gid = 0;
  if (asRoot) {
    uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const run = (command: string, args: string[]) => {
    const result = asRoot
      ? spawnSync('runuser', ['-u', 'postgres', '--', join(bin, command), ...args], { encoding: 'utf8' })
      : spawnSync(join(bin, command), args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr || result.stdout}`);
  };
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
  let stopped = false;
  const base = `postgres://postgres@127.0.0.1:${chosen}`;
  return {
    url: `${base}/postgres`,
    createDatabase(name) {
      run('createdb', ['-h', '127.0.0.1', '-p', String(chosen), '-U', 'postgres', name]);
      return `${base}/${name}`;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        // A server process still leaving as the folder goes can make one removal fail: try again.
        rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
      }
    },
  };
}
