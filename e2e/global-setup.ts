// Every worker's app and the specs' own servers serve a build of the current tree, never a stale
// dist/ (and a fresh clone has none): build the app and the server once per run into folders of their
// own. Then one migrated PGlite, which every server's DATA_DIR starts as a copy of.
import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import { makePgliteTemplate } from '../server/testing/pglite-template';

export const E2E_DIST_DIR = 'node_modules/.cache/media-console-e2e-dist';
/** The production server as `npm run build` makes it (plain JavaScript, run with node). */
export const E2E_SERVER_ENTRY = 'node_modules/.cache/media-console-e2e-server/prod.js';

function viteBuild(...args: string[]) {
  execFileSync('npx', ['vite', 'build', '--configLoader', 'runner', '--logLevel', 'warn', ...args], {
    stdio: 'inherit',
  });
}

export default async function globalSetup(): Promise<() => void> {
  viteBuild('--outDir', E2E_DIST_DIR, '--emptyOutDir');
  viteBuild('--config', 'vite.server.config.ts', '--outDir', dirname(E2E_SERVER_ENTRY));
  return makePgliteTemplate();
}
