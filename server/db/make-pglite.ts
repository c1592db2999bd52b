// Making a new PGlite database (PostgreSQL's initdb, inside WebAssembly) grows PGlite's memory to
// ~700 MB, and WebAssembly memory never shrinks: a console that made its database on its first
// start kept it to the end (docs/performance.md, "The light default"). So initdb runs in a child
// process that exits once the files are on disk, taking that memory with it; the console then opens
// the files it made like any existing database (~180 MB). Not a worker thread: one measured 144 MB
// still resident in the console after the thread had ended.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { execFile } from 'node:child_process';

/**
 * The child's whole program: CommonJS, so it needs no file of its own in the build (`dist-server` is
 * one bundle) and no TypeScript loader under tsx or Vitest. Its one argument is JSON. It ends when
 * its standard input closes, which happens when the console does, however it ends (SIGKILL too): a
 * child left running would keep writing ~700 MB worth of initdb into a folder the next start clears.
 */
const INITDB_PROGRAM = `
const { pglite, path, startParams } = JSON.parse(process.argv[1]);
process.stdin.on('end', () => process.exit(1)).resume();
require(pglite).PGlite.create(path, { startParams })
  .then((database) => database.close())
  .then(() => process.exit(0), (error) => { console.error(error); process.exit(1); });
`;

/**
 * Whether `path` holds no database yet. PGlite decides by PG_VERSION, as PostgreSQL does: without it,
 * it would run initdb in this process (and start on whatever else the folder holds). So a folder
 * with files but no PG_VERSION is refused rather than guessed at or cleared.
 */
export function needsInitdb(path: string): boolean {
  if (!existsSync(path)) return true;
  const names = readdirSync(path);
  if (names.includes('PG_VERSION')) return false;
  if (names.length === 0) return true;
  throw new Error(
    `${path} holds files but no database (no PG_VERSION): move them away, or point DATA_DIR at another folder`,
  );
}

/**
 * Makes a new database at `path` in a child process. It is made in a sibling folder and renamed into
 * place once complete, so a process killed halfway leaves no half-made database at `path` (the next
 * start makes it again). An empty `path` that is a mount point of its own cannot be replaced by a
 * rename: the database is made in it directly.
 */
export async function makePglite(path: string, startParams: string[]): Promise<void> {
  const parent = dirname(path);
  mkdirSync(parent, { recursive: true });
  if (existsSync(path) && statSync(path).dev !== statSync(parent).dev) return runInitdb(path, startParams);
  const prefix = `.${basename(path)}-making-`;
  // What a start killed while making the database left behind (one process owns a DATA_DIR).
  for (const name of readdirSync(parent))
    if (name.startsWith(prefix)) rmSync(join(parent, name), { recursive: true, force: true, maxRetries: 3 });
  const making = join(parent, `${prefix}${process.pid}`);
  mkdirSync(making);
  try {
    await runInitdb(making, startParams);
    rmSync(path, { recursive: true, force: true });
    renameSync(making, path);
  } finally {
    rmSync(making, { recursive: true, force: true });
  }
}

function runInitdb(path: string, startParams: string[]): Promise<void> {
  const pglite = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  const argument = JSON.stringify({ pglite, path, startParams });
  return new Promise((resolve, reject) => {
    // execFile gives the child a pipe for its standard input, held open until this process ends.
    execFile(process.execPath, ['-e', INITDB_PROGRAM, argument], (error, _stdout, stderr) =>
      error ? reject(new Error(`making the database failed: ${stderr.trim() || error.message}`)) : resolve(),
    );
  });
}
