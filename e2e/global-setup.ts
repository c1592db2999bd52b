// The production-server specs serve a build of the current tree, never a stale dist/ (and a fresh
// clone has none): build once per run into a folder of their own.
import { execFileSync } from 'node:child_process';
import { dirname } from 'node:path';

export const E2E_DIST_DIR = 'node_modules/.cache/media-console-e2e-dist';
/** The production server as `npm run build` makes it (plain JavaScript, run with node). */
export const E2E_SERVER_ENTRY = 'node_modules/.cache/media-console-e2e-server/prod.js';

export default function globalSetup() {
  execFileSync(
    'npx',
    [
      'vite',
      'build',
      '--configLoader',
      'runner',
      '--outDir',
      E2E_DIST_DIR,
      '--emptyOutDir',
      '--logLevel',
      'warn',
    ],
    {
      stdio: 'inherit',
    },
  );
  execFileSync(
    'npx',
    [
      'vite',
      'build',
      '--configLoader',
      'runner',
      '--config',
      'vite.server.config.ts',
      '--outDir',
      dirname(E2E_SERVER_ENTRY),
    ],
    { stdio: 'inherit' },
  );
}
