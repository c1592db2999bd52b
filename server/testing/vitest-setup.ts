// Server test files share one module registry per worker (vitest.config.ts): what a file stubbed or
// spied on is put back when it ends, so the next file starts from the real globals and modules.
import { afterAll, vi } from 'vitest';
import { removeDataDirsOfEarlierFiles, removeDataDirsOfThisFile } from './pglite-template';

// What earlier files left: a file's after-all hooks do not run when a run stops at its first failing
// test, as a mutation run does for every mutant it kills. A file's set-up runs before its own code,
// so nothing of this file is made yet.
if (process.env.TEST_FILES_ONE_AT_A_TIME === '1') removeDataDirsOfEarlierFiles();
else removeDataDirsOfThisFile();

afterAll(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  // Last of the file's after-all hooks (they run in reverse order): its servers are closed by now.
  removeDataDirsOfThisFile();
});
