// A new PGlite data folder runs initdb inside WebAssembly: 5-15 s on a busy 2-core machine, where
// opening a copy of an existing folder takes about a second. A test run therefore makes one
// migrated data folder (the template) and every test database is a copy of it. No production code
// knows about this: a copy is an ordinary DATA_DIR that `openDatabase` opens and migrates as usual.
// The template itself is kept between runs (node_modules/.cache), under a key made of what decides
// its contents: Vitest and then Playwright in one `npm test`, and every single-spec run after, copy it
// instead of paying initdb again.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, PGLITE_DIR } from '../db/database';

/** Where finished templates are kept between runs, one folder per key. */
const TEMPLATE_CACHE = join('node_modules', '.cache', 'media-console-pglite-template');

/**
 * The files whose contents decide what a migrated database holds (the schema's code and the
 * PGlite build that wrote the files): a change to any of them makes a new template.
 */
const TEMPLATE_INPUTS = [
  'server/db/migrations.ts',
  'server/db/commit-callbacks.ts',
  'server/db/database.ts',
  'server/db/make-pglite.ts',
  'node_modules/@electric-sql/pglite/package.json',
];

export function templateKey(inputs: readonly string[] = TEMPLATE_INPUTS): string {
  const hash = createHash('sha256');
  for (const file of inputs) hash.update(readFileSync(file)).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/**
 * The cached template's DATA_DIR for this tree, made (and migrated) only when missing. Made in a
 * folder of its own and renamed into place, so a run killed half-way never leaves a partial one and
 * two runs making it at once both end with a whole one.
 */
async function cachedTemplate(): Promise<string> {
  const ready = join(TEMPLATE_CACHE, templateKey());
  if (existsSync(join(ready, PGLITE_DIR))) return ready;
  mkdirSync(TEMPLATE_CACHE, { recursive: true });
  const making = mkdtempSync(join(TEMPLATE_CACHE, 'making-'));
  const database = await openDatabase({ dataDir: making });
  await database.close();
  try {
    renameSync(making, ready);
  } catch {
    rmSync(making, { recursive: true, force: true }); // another run put its copy there first
  }
  return ready;
}

/** Names the run whose template the workers copy; global set-up sets it, workers inherit it. */
const TEMPLATE_RUN_ENV = 'MEDIA_CONSOLE_TEST_RUN';

/** Everything a run makes (the template and every copy) lives here and goes with the run. */
function runFolder(runId: string): string {
  return join(tmpdir(), `media-console-test-${runId}`);
}

/**
 * Makes this run's template (a DATA_DIR holding a migrated PGlite), points the environment at it,
 * and returns the function that removes the run's folder. Called once by each runner's global set-up.
 */
export async function makePgliteTemplate(): Promise<() => void> {
  const runId = `${process.pid}-${Date.now().toString(36)}`;
  const folder = runFolder(runId);
  mkdirSync(join(folder, 'template'), { recursive: true });
  cpSync(join(await cachedTemplate(), PGLITE_DIR), join(folder, 'template', PGLITE_DIR), { recursive: true });
  process.env[TEMPLATE_RUN_ENV] = runId;
  return () => removeRunFolder(folder);
}

/**
 * Removes the run's folder at its end. A file still being written there (a server's last write as it
 * stops) makes a removal fail now and then: it is tried again, and a folder that still will not go is
 * reported, not made the run's failure (a failed global teardown turns a green run red with no test
 * failed).
 */
export function removeRunFolder(folder: string): void {
  try {
    rmSync(folder, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  } catch (error) {
    console.warn(`[tests] could not remove ${folder}: ${(error as Error).message}`);
  }
}

/**
 * A new DATA_DIR holding a copy of the run's migrated PGlite, inside the run's folder (removed with
 * the run). Without a template (a file run by a tool that skipped global set-up) it is an empty
 * folder in the system's temporary folder, and the database is made from scratch, only slower.
 */
export function copyOfTemplate(): string {
  const dataDir = emptyDataDir();
  copyTemplateInto(dataDir);
  return dataDir;
}

/**
 * A new, empty DATA_DIR in the run's folder, for a server whose database is handed to it (a copy of
 * the 40 MB template costs ~0.4 s, which a test should not pay for a database nobody opens).
 */
export function emptyDataDir(): string {
  const runId = process.env[TEMPLATE_RUN_ENV];
  return runId
    ? mkdtempSync(join(runFolder(runId), 'data-'))
    : mkdtempSync(join(tmpdir(), 'media-console-test-'));
}

/** Puts a copy of the run's migrated PGlite into `dataDir` (an existing DATA_DIR without one). */
export function copyTemplateInto(dataDir: string): void {
  const runId = process.env[TEMPLATE_RUN_ENV];
  const template = runId ? join(runFolder(runId), 'template', PGLITE_DIR) : undefined;
  if (template && existsSync(template)) cpSync(template, join(dataDir, PGLITE_DIR), { recursive: true });
}
