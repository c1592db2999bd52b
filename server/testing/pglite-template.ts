// A new PGlite data folder runs initdb inside WebAssembly: 5-15 s on a busy 2-core machine, where
// opening a copy of an existing folder takes about a second. A test run therefore makes one
// migrated data folder (the template) and every test database is a copy of it. No production code
// knows about this: a copy is an ordinary DATA_DIR that `openDatabase` opens and migrates as usual.
// The template itself is kept between runs (node_modules/.cache), under a key made of what decides
// its contents: Vitest and Playwright in one `npm test`, and every single-spec run after, copy it
// instead of paying initdb again.
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  cpSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { Blob as NodeBlob } from 'node:buffer';
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
 * two runs making it at once both end with a whole one. `npm test` starts Vitest and Playwright side
 * by side, so in a fresh clone both would run initdb: the first takes a lock and makes it, the other
 * waits for it (or makes its own if the first dies or takes longer than initdb ever does).
 */
export async function cachedTemplate({
  cache = TEMPLATE_CACHE,
  key = templateKey(),
  make = makeTemplate,
  waitMs = 120_000,
}: {
  cache?: string;
  key?: string;
  /** Makes the template in `making` (tests give a stand-in for initdb). */
  make?: (making: string) => Promise<void>;
  waitMs?: number;
} = {}): Promise<string> {
  const ready = join(cache, key);
  const isReady = () => existsSync(join(ready, PGLITE_DIR));
  if (isReady()) return ready;
  mkdirSync(cache, { recursive: true });
  const lock = join(cache, `${key}.making`);
  const state = takeLock(lock);
  if (state === 'held') await waitFor(() => isReady() || !lockHeld(lock), waitMs);
  try {
    // Made meanwhile: by the run this one waited for, or one that finished just before the lock.
    if (isReady()) return ready;
    const making = mkdtempSync(join(cache, 'making-'));
    await make(making);
    try {
      renameSync(making, ready);
    } catch {
      rmSync(making, { recursive: true, force: true }); // another run put its copy there first
    }
    return ready;
  } finally {
    if (state === 'mine') {
      locksHeldHere.delete(lock);
      if (lockPid(lock) === process.pid) rmSync(lock, { force: true });
    }
  }
}

/**
 * A file naming the process that makes the template, written whole and then linked into place, so
 * nobody reads it half-written. 'none': no lock can be had here (a read-only cache); the template is
 * made without one.
 */
function takeLock(lock: string, tries = 2): 'mine' | 'held' | 'none' {
  const mine = `${lock}.${process.pid}`;
  try {
    writeFileSync(mine, String(process.pid));
    linkSync(mine, lock);
    locksHeldHere.add(lock);
    return 'mine';
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return 'none';
    if (lockHeld(lock) || tries <= 1) return 'held';
    rmSync(lock, { force: true }); // left by a run that died
    return takeLock(lock, tries - 1);
  } finally {
    rmSync(mine, { force: true });
  }
}

function lockPid(lock: string): number | undefined {
  try {
    const pid = Number(readFileSync(lock, 'utf8'));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The locks this process holds, to tell them from one an earlier process with the same pid left. */
const locksHeldHere = new Set<string>();

/**
 * The lock names a process that is alive and holds it. A lock naming this process that it did not
 * take was left by an earlier process with the same pid (in a container, pids repeat).
 */
function lockHeld(lock: string): boolean {
  const pid = lockPid(lock);
  if (pid === undefined) return false;
  if (pid === process.pid) return locksHeldHere.has(lock);
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, another user's
  }
}

async function waitFor(done: () => boolean, ms: number): Promise<void> {
  for (const end = Date.now() + ms; !done() && Date.now() < end;)
    await new Promise((resolve) => setTimeout(resolve, 100));
}

/** initdb and the migrations, in `making`. */
async function makeTemplate(making: string): Promise<void> {
  const database = await openDatabase({ dataDir: making });
  await database.close();
}

/** Names the run whose template the workers copy; global set-up sets it, workers inherit it. */
const TEMPLATE_RUN_ENV = 'MEDIA_CONSOLE_TEST_RUN';

/** Everything a run makes (the template and every copy) lives here and goes with the run. */
function runFolder(runId: string): string {
  return join(tmpdir(), `media-console-test-${runId}`);
}

/**
 * Makes this run's template (a DATA_DIR holding a migrated PGlite), points the environment at it,
 * and returns the run's folder and the function that removes it. Called once by each runner's global
 * set-up.
 */
export async function makePgliteTemplate(): Promise<{ folder: string; remove: () => void }> {
  const runId = `${process.pid}-${Date.now().toString(36)}`;
  const folder = runFolder(runId);
  mkdirSync(join(folder, 'template'), { recursive: true });
  cpSync(join(await cachedTemplate(), PGLITE_DIR), join(folder, 'template', PGLITE_DIR), { recursive: true });
  process.env[TEMPLATE_RUN_ENV] = runId;
  return { folder, remove: () => removeRunFolder(folder) };
}

/** The run's template as one tarball, for databases kept in memory (`templateDump`). */
const DUMP_FILE = 'template.tar';

/**
 * Writes the run's template as a tarball into the run's folder (from the cached one, made once per
 * key): a test database loaded from it lives in memory, where PGlite's file work costs no system
 * calls (a test's reset of ~30 tables took ~0.16 s of CPU on disk, ~0.03 s in memory). Called by
 * Vitest's global set-up; Playwright's servers run on DATA_DIRs.
 */
export async function makeTemplateDump(): Promise<void> {
  const runId = process.env[TEMPLATE_RUN_ENV];
  if (!runId) return;
  const cached = join(TEMPLATE_CACHE, `${templateKey()}.tar`);
  if (!existsSync(cached)) {
    // From the run's own copy, which may change as PGlite opens it; the cached template may not.
    const { PGlite } = await import('@electric-sql/pglite');
    const pglite = await PGlite.create(join(runFolder(runId), 'template', PGLITE_DIR));
    const dump = await pglite.dumpDataDir('none');
    await pglite.close();
    const part = `${cached}.${process.pid}.part`;
    writeFileSync(part, Buffer.from(await dump.arrayBuffer()));
    renameSync(part, cached); // whole or not at all, if two runs make it at once
  }
  copyFileSync(cached, join(runFolder(runId), DUMP_FILE));
}

/**
 * The run's template as a tarball (`makeTemplateDump`), or undefined where there is none. Node's
 * Blob: jsdom's (component tests) has no arrayBuffer(), which PGlite reads it with.
 */
export function templateDump(): Blob | undefined {
  const runId = process.env[TEMPLATE_RUN_ENV];
  const dump = runId ? join(runFolder(runId), DUMP_FILE) : undefined;
  return dump && existsSync(dump) ? (new NodeBlob([readFileSync(dump)]) as Blob) : undefined;
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

/** The DATA_DIRs the running test file made, removed when it ends (`removeDataDirsOfThisFile`). */
const madeByThisFile = new Set<string>();

/**
 * A new, empty DATA_DIR in the run's folder, for a server whose database is handed to it (a copy of
 * the 40 MB template costs ~0.4 s, which a test should not pay for a database nobody opens).
 */
export function emptyDataDir(): string {
  const dataDir = newFolder('data-');
  madeByThisFile.add(dataDir);
  return dataDir;
}

/**
 * A copy that outlives the file that made it: the database the test files of one module registry
 * share in turn (./database.ts). Named apart from the files' own, so that no file's clean-up takes it.
 */
export function keptCopyOfTemplate(): string {
  const dataDir = newFolder('kept-');
  copyTemplateInto(dataDir);
  return dataDir;
}

function newFolder(prefix: 'data-' | 'kept-'): string {
  const runId = process.env[TEMPLATE_RUN_ENV];
  return runId
    ? mkdtempSync(join(runFolder(runId), prefix))
    : mkdtempSync(join(tmpdir(), 'media-console-test-'));
}

/**
 * Removes the DATA_DIRs the test file made (40 MB each with a database): the run's folder would
 * otherwise hold every one until the run ends.
 */
export function removeDataDirsOfThisFile(): void {
  for (const dataDir of madeByThisFile) removeFolder(dataDir);
  madeByThisFile.clear();
}

/**
 * Removes every file's DATA_DIR in the run's folder (never a kept one). Only where one test file
 * runs at a time (the mutation run, vitest.stryker.config.ts), from a file's set-up, before its own
 * code: there a run stops at the first failing test, as it does for every mutant it kills, and that
 * file's after-all hooks, which would remove its copies, never run. The files of one worker do not
 * share a module registry either (an isolated file has its own), so no list in memory knows them all;
 * the folder does. With two files at once it would remove the other's databases.
 */
export function removeDataDirsOfEarlierFiles(): void {
  const runId = process.env[TEMPLATE_RUN_ENV];
  if (!runId || !existsSync(runFolder(runId))) return;
  for (const name of readdirSync(runFolder(runId)))
    if (name.startsWith('data-')) removeFolder(join(runFolder(runId), name));
  madeByThisFile.clear();
}

function removeFolder(folder: string): void {
  rmSync(folder, { recursive: true, force: true, maxRetries: 3, retryDelay: 100 });
}

/** Puts a copy of the run's migrated PGlite into `dataDir` (an existing DATA_DIR without one). */
export function copyTemplateInto(dataDir: string): void {
  const runId = process.env[TEMPLATE_RUN_ENV];
  const template = runId ? join(runFolder(runId), 'template', PGLITE_DIR) : undefined;
  if (template && existsSync(template)) cpSync(template, join(dataDir, PGLITE_DIR), { recursive: true });
}
