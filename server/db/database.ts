// The server's database: PGlite (PostgreSQL compiled to WebAssembly) in DATA_DIR by default, a real
// PostgreSQL server with DATABASE_URL. Both are driven through node-postgres (PGlite ships a
// node-postgres connection of its own), so Kysely's one PostgreSQL dialect serves both.
import { Kysely, PostgresDialect } from 'kysely';
import { join } from 'node:path';
import pg from 'pg';
import { makePglite, needsInitdb } from './make-pglite';
import { migrate } from './migrations';
import type { Schema } from './schema';

export type { Schema } from './schema';
export type Db = Kysely<Schema>;

export const PGLITE_DIR = 'pglite';
/** DATABASE_URL for a throwaway PGlite that keeps nothing (tests, quick demos). */
export const MEMORY_URL = 'memory://';

interface DatabaseOptions {
  /** Where PGlite keeps its files (`<dataDir>/pglite`); `memory://` keeps them in memory. */
  dataDir: string;
  /** `postgres://…`: a real server instead of PGlite; `memory://`: PGlite kept in memory only. */
  databaseUrl?: string;
  /**
   * With `memory://`: the database to start from, a tarball of a data folder (PGlite's
   * `dumpDataDir`), instead of an empty one. The tests start each from their run's migrated template:
   * in memory, the files PGlite opens, truncates and writes cost nothing of the disk's system calls.
   */
  loadDataDir?: Blob;
}

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Calls `onPayload` for every NOTIFY on `channel`; resolves to an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

// int8 (ids, epoch milliseconds) as numbers: every value the console keeps fits in 2^53.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? Number
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const url = options.databaseUrl;
  if (url && url !== MEMORY_URL) return (await migrated(openPostgres(url))).database;
  if (url === MEMORY_URL) return (await migrated(await openPglite(MEMORY_URL, options.loadDataDir))).database;
  // Making the database (initdb) grows PGlite's WebAssembly memory to ~700 MB, which never shrinks:
  // it runs in a child process (./make-pglite.ts), and this one opens the files it made.
  const path = join(options.dataDir, PGLITE_DIR);
  if (needsInitdb(path)) await makePglite(path, await pgliteStartParams());
  const first = await migrated(await openPglite(path));
  if (first.applied === 0) return first.database;
  // Migrations grow that memory too (~35 MB on a new database, more with a console's rows to index).
  // Opened again, the same files need what serving needs (docs/performance.md, "The light default").
  await first.database.close();
  return (await migrated(await openPglite(path))).database;
}

async function migrated(database: Database): Promise<{ database: Database; applied: number }> {
  try {
    return { database, applied: await migrate(database.db as Kysely<unknown>) };
  } catch (error) {
    await database.close();
    throw error;
  }
}

function openPostgres(url: string): Database {
  // JIT off for the console's sessions: its statements read small rollups and index ranges, and at
  // 10M tasks PostgreSQL's cost estimates switch JIT on for some of them, adding 40-100 ms of
  // compilation to a statement that runs in a few (docs/performance.md). Options in DATABASE_URL win.
  const pool = new pg.Pool({ connectionString: url, types, max: 10, options: '-c jit=off' });
  // An idle client that loses its server must not take the process down; the next query reports it.
  pool.on('error', (error) => console.error(`[db] idle connection failed: ${error.message}`));
  let listener: Promise<pg.PoolClient> | undefined;
  let closed = false;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  // One connection holds every LISTEN of this process. When it is lost (a server restart), it is
  // made again and every handler is woken once, so streams catch up on what they may have missed.
  const connectListener = (): Promise<pg.PoolClient> =>
    pool.connect().then(async (client) => {
      client.on('notification', (message) => {
        for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
      });
      client.on('error', (error) => {
        console.error(`[db] LISTEN connection lost: ${error.message}`);
        client.release(error);
        listener = undefined;
        if (!closed) setTimeout(() => void relisten(), 1000).unref();
      });
      for (const channel of handlers.keys()) await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      return client;
    });
  const relisten = async () => {
    if (closed || listener) return;
    listener = connectListener();
    try {
      await listener;
      for (const set of handlers.values()) for (const handler of set) handler('');
    } catch {
      listener = undefined;
      if (!closed) setTimeout(() => void relisten(), 1000).unref();
    }
  };
  return {
    db: new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) }),
    kind: 'postgres',
    async listen(channel, onPayload) {
      let set = handlers.get(channel);
      const fresh = !set;
      if (!set) handlers.set(channel, (set = new Set()));
      set.add(onPayload);
      if (!listener) listener = connectListener();
      else if (fresh) await (await listener).query(`listen ${pg.escapeIdentifier(channel)}`);
      await listener;
      return async () => void set.delete(onPayload);
    },
    close: once(async () => {
      closed = true;
      const client = await listener?.catch(() => undefined);
      client?.release();
      await pool.end();
    }),
  };
}

/** PGlite's three modules, as the embedded database needs them. */
interface PgliteModules {
  PGlite: typeof import('@electric-sql/pglite').PGlite;
  pg_trgm: typeof import('@electric-sql/pglite/contrib/pg_trgm').pg_trgm;
  createPgConfig: typeof import('@electric-sql/pglite/node-postgres').createPgConfig;
}

let provided: PgliteModules | undefined;

/**
 * For a host that cannot import on demand: under `vite dev` the server's modules run in Vite's
 * module runner, which is closed once the config has loaded, so a later import() from them fails;
 * server/app/vite-plugin.ts imports PGlite up front and hands it over here.
 */
export function providePglite(modules: PgliteModules): void {
  provided = modules;
}

/** PGlite's modules, loaded on first use: ~45 MB of memory a console on DATABASE_URL never needs. */
async function loadPglite(): Promise<PgliteModules> {
  if (provided) return provided;
  const [{ PGlite }, { pg_trgm }, { createPgConfig }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('@electric-sql/pglite/node-postgres'),
  ]);
  return { PGlite, pg_trgm, createPgConfig };
}

/**
 * PostgreSQL's settings for PGlite, beside PGlite's own (`PGlite.defaultStartParams`: among them
 * `-F`, no fsync, which loses nothing to a killed process: its writes are already the kernel's).
 * WebAssembly memory only grows, so every buffer PostgreSQL ever fills stays resident:
 * - shared_buffers: PostgreSQL's default of 128 MB is set up (touched) at start, whole; 16 MB holds
 *   the console's working set, and the kernel's page cache keeps the rest of the files warm
 *   (docs/performance.md, "Memory": 527 -> ~150 MB idle with the flag in server/entry/prod.ts);
 * - maintenance_work_mem: an index build (the trigram indexes of a migration) may use 64 MB by
 *   default, then kept for the life of the process; 16 MB builds them in a few more passes.
 */
const PGLITE_SETTINGS = ['shared_buffers=16MB', 'maintenance_work_mem=16MB'];

async function pgliteStartParams(): Promise<string[]> {
  const { PGlite } = await loadPglite();
  return [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((setting) => ['-c', setting])];
}

/** PGlite on the files at `path` (`memory://` for none, or those of `loadDataDir`). */
async function openPglite(path: string, loadDataDir?: Blob): Promise<Database> {
  const { PGlite, pg_trgm, createPgConfig } = await loadPglite();
  const pglite = await PGlite.create(path, {
    extensions: { pg_trgm },
    startParams: await pgliteStartParams(),
    loadDataDir,
  });
  // PGlite is one connection; node-postgres' pool of one serializes transactions over it.
  const pool = new pg.Pool({ ...createPgConfig(pglite), types, max: 1 });
  return {
    db: new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) }),
    kind: 'pglite',
    // LISTEN goes to PGlite directly, beside the pool: run while the pool's one connection is inside a
    // transaction (a limit's check, the result copier's claim), PGlite refuses it ("unexpected state
    // STARTED"). Holding that connection meanwhile puts it between transactions.
    async listen(channel, onPayload) {
      const between = <T>(work: () => Promise<T>) =>
        pool.connect().then(async (client) => {
          try {
            return await work();
          } finally {
            client.release();
          }
        });
      const unsubscribe = await between(() => pglite.listen(channel, onPayload));
      // Once the pool is closing there is no transaction left to wait for.
      return () => (pool.ending || pool.ended ? unsubscribe() : between(unsubscribe));
    },
    close: once(async () => {
      await pool.end();
      await pglite.close();
    }),
  };
}

/** Closing twice (an app and its owner both tidying up) is harmless. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close());
}
