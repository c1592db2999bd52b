// What every test run (Vitest's and Playwright's) sets up once for all its files: a migrated PGlite
// that test databases copy, one PostgreSQL cluster for the files that need one, and one folder for
// the emulators' painted images.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePgliteTemplate } from './pglite-template';
import { shareOneClusterPerRun } from './postgres';

/** For a runner's global set-up; returns its teardown. */
export async function setUpTestRun(): Promise<() => void> {
  const removeTemplate = await makePgliteTemplate();
  const stopCluster = shareOneClusterPerRun();
  const removePainted = sharePaintedImages();
  return () => {
    try {
      stopCluster();
    } finally {
      removeTemplate();
      removePainted();
    }
  };
}

/**
 * Every emulator of the run keeps its painted images in one folder (EMULATOR_PAINTED_DIR): each demo
 * server paints some 170 at its start, a few seconds of CPU, and the runs start three. `npm test`
 * (scripts/test-all.mjs) gives both runners one folder; a runner started alone makes its own.
 */
function sharePaintedImages(): () => void {
  if (process.env.EMULATOR_PAINTED_DIR) return () => {};
  const dir = mkdtempSync(join(tmpdir(), 'media-console-painted-'));
  process.env.EMULATOR_PAINTED_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
