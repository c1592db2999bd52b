// What every test run (Vitest's and Playwright's) sets up once for all its files: a migrated PGlite
// that test databases copy, one PostgreSQL cluster for the files that need one, and one folder for
// the emulators' painted images.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makePgliteTemplate } from './pglite-template';
import { SHARED_CLUSTER_DIR, shareOneClusterPerRun } from './postgres';
import { startRunWatchdog } from './run-watchdog';

/**
 * For a runner's global set-up; returns its teardown. A watchdog does the teardown's work if the
 * runner is killed before it.
 */
export async function setUpTestRun(): Promise<() => void> {
  const template = await makePgliteTemplate();
  const outerCluster = process.env[SHARED_CLUSTER_DIR];
  const stopCluster = shareOneClusterPerRun();
  const painted = sharePaintedImages();
  const ownCluster = outerCluster ? undefined : process.env[SHARED_CLUSTER_DIR];
  startRunWatchdog({
    folders: [template.folder, ...(painted.folder ? [painted.folder] : [])],
    clusterParents: ownCluster ? [ownCluster] : [],
  });
  return () => {
    try {
      stopCluster();
    } finally {
      template.remove();
      painted.remove();
    }
  };
}

/**
 * Every emulator of the run keeps its painted images in one folder (EMULATOR_PAINTED_DIR): each demo
 * server paints some 170 at its start, a few seconds of CPU, and the runs start three. `npm test`
 * (scripts/test-all.mjs) gives both runners one folder; a runner started alone makes its own.
 */
function sharePaintedImages(): { folder?: string; remove: () => void } {
  if (process.env.EMULATOR_PAINTED_DIR) return { remove: () => {} };
  const folder = mkdtempSync(join(tmpdir(), 'media-console-painted-'));
  process.env.EMULATOR_PAINTED_DIR = folder;
  return { folder, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
