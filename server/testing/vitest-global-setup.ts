// Vitest's global set-up: one migrated PGlite for the whole run, copied by every test database, and
// one PostgreSQL cluster for the files that need one, started by the first of them.
import { makePgliteTemplate } from './pglite-template';
import { shareOneClusterPerRun } from './postgres';

export default async function setup(): Promise<() => void> {
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
