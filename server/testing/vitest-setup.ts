// Server test files share one module registry per worker (vitest.config.ts): what a file stubbed or
// spied on is put back when it ends, so the next file starts from the real globals and modules.
import { afterAll, vi } from 'vitest';
import { removeDataDirsOfThisFile } from './pglite-template';

afterAll(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  // Last of the file's after-all hooks (they run in reverse order): its servers are closed by now.
  removeDataDirsOfThisFile();
});
