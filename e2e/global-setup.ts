// The production-server specs serve a build of the current tree, never a stale dist/ (and a fresh
// clone has none): build once per run into a folder of their own.
import { execFileSync } from 'node:child_process';

export const E2E_DIST_DIR = 'node_modules/.cache/media-console-e2e-dist';

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
}
