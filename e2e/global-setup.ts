// Every worker's app and the specs' own servers serve a build of the current tree, never a stale
// dist/ (and a fresh clone has none): build the app and the server once per run into folders of their
// own. Then one migrated PGlite, which every server's DATA_DIR starts as a copy of, and one PostgreSQL
// cluster for the specs that need one (server/testing/postgres.ts).
import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';
import { setUpTestRun } from '../server/testing/test-run';

/**
 * E2E_PREBUILT=1: dist/ and dist-server/ were built from this very tree a moment ago (CI runs
 * `npm run build` just before `npm test`), so the run serves them instead of building again.
 */
const PREBUILT = process.env.E2E_PREBUILT === '1';
export const E2E_DIST_DIR = PREBUILT ? 'dist' : 'node_modules/.cache/media-console-e2e-dist';
/** The production server as `npm run build` makes it (plain JavaScript, run with node). */
export const E2E_SERVER_ENTRY = PREBUILT
  ? 'dist-server/prod.js'
  : 'node_modules/.cache/media-console-e2e-server/prod.js';

function viteBuild(...args: string[]) {
  execFileSync('npx', ['vite', 'build', '--configLoader', 'runner', '--logLevel', 'warn', ...args], {
    stdio: 'inherit',
  });
}

export default async function globalSetup(): Promise<() => void> {
  if (!PREBUILT) {
    viteBuild('--outDir', E2E_DIST_DIR, '--emptyOutDir');
    viteBuild('--config', 'vite.server.config.ts', '--outDir', dirname(E2E_SERVER_ENTRY));
  }
  return setUpTestRun();
}
