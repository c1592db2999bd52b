// What every test run (Vitest's and Playwright's) sets up once for all its files: a migrated PGlite
// that test databases copy, and one PostgreSQL cluster for the files that need one.
import { makePgliteTemplate } from './pglite-template';
import { shareOneClusterPerRun } from './postgres';

/** For a runner's global set-up; returns its teardown. */
export async function setUpTestRun(): Promise<() => void> {
  const removeTemplate = await makePgliteTemplate();
  const stopCluster = shareOneClusterPerRun();
  return () => {
    try {
      stopCluster();
    } finally {
      removeTemplate();
    }
  };
}
