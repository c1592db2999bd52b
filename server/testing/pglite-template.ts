// A new PGlite data folder runs initdb inside WebAssembly: 5-15 s on a busy 2-core machine, where
// opening a copy of an existing folder takes about a second. A test run therefore makes one
// migrated data folder (the template) and every test database is a copy of it. No production code
// knows about this: a copy is an ordinary DATA_DIR that `openDatabase` opens and migrates as usual.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, PGLITE_DIR } from '../db/database';

/** Names the run whose template the workers copy; global set-up sets it, workers inherit it. */
export const TEMPLATE_RUN_ENV = 'MEDIA_CONSOLE_TEST_RUN';

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
  const database = await openDatabase({ dataDir: join(folder, 'template') });
  await database.close();
  process.env[TEMPLATE_RUN_ENV] = runId;
  return () => rmSync(folder, { recursive: true, force: true });
}

/**
 * A new DATA_DIR holding a copy of the run's migrated PGlite, inside the run's folder (removed with
 * the run). Without a template (a file run by a tool that skipped global set-up) it is an empty
 * folder in the system's temporary folder, and the database is made from scratch, only slower.
 */
export function copyOfTemplate(): string {
  const runId = process.env[TEMPLATE_RUN_ENV];
  const dataDir = runId
    ? mkdtempSync(join(runFolder(runId), 'data-'))
    : mkdtempSync(join(tmpdir(), 'media-console-test-'));
  copyTemplateInto(dataDir);
  return dataDir;
}

/** Puts a copy of the run's migrated PGlite into `dataDir` (an existing DATA_DIR without one). */
export function copyTemplateInto(dataDir: string): void {
  const runId = process.env[TEMPLATE_RUN_ENV];
  const template = runId ? join(runFolder(runId), 'template', PGLITE_DIR) : undefined;
  if (template && existsSync(template)) cpSync(template, join(dataDir, PGLITE_DIR), { recursive: true });
}
