// Making a new PGlite database (PostgreSQL's initdb, inside WebAssembly) grows PGlite's memory to
// ~700 MB, and WebAssembly memory never shrinks: a console that made its database on its first
// start kept it to the end (docs/performance.md, "The light default"). So initdb runs in a child
// process that exits once the files are on disk, taking that memory with it; the console then opens
// the files it made like any existing database (~180 MB). Not a worker thread: one measured 144 MB
// still resident in the console after the thread had ended.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { execFile } from 'node:child_process';

/**
 * The child's whole program: CommonJS, so it needs no file of its own in the build (`dist-server` is
 * one bundle) and no TypeScript loader under tsx or Vitest. Its one argument is JSON.
 */
const INITDB_PROGRAM = `
const { pglite, path, startParams } = JSON.parse(process.argv[1]);
require(pglite).PGlite.create(path, { startParams })
  .then((database) => database.close())
  .then(() => process.exit(0), (error) => { console.error(error); process.exit(1); });
`;

/** Whether `path` holds no database yet: missing, or an empty folder. */
export function needsInitdb(path: string): boolean {
  return !existsSync(path) || readdirSync(path).length === 0;
}

/**
 * Makes a new database at `path` in a child process. It is made in a sibling folder and renamed into
 * place once complete, so a process killed halfway leaves no half-made database at `path` (the
 * next start makes it again).
 */
export async function makePglite(path: string, startParams: string[]): Promise<void> {
  const parent = dirname(path);
  const prefix = `.${basename(path)}-making-`;
  mkdirSync(parent, { recursive: true });
  // What a start killed while making the database left behind (one process owns a DATA_DIR).
  for (const name of readdirSync(parent))
    if (name.startsWith(prefix)) rmSync(join(parent, name), { recursive: true, force: true });
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
    execFile(process.execPath, ['-e', INITDB_PROGRAM, argument], (error, _stdout, stderr) =>
      error ? reject(new Error(`making the database failed: ${stderr.trim() || error.message}`)) : resolve(),
    );
  });
}
