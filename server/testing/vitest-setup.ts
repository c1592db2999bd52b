// Server test files share one module registry per worker (vitest.config.ts): what a file stubbed or
// spied on is put back when it ends, so the next file starts from the real globals and modules.
import { afterAll, vi } from 'vitest';
import { removeDataDirsOfEarlierFiles, removeDataDirsOfThisFile } from './pglite-template';

// A run that stops at its first failing test (a mutation run, for every mutant it kills) never runs
// that file's after-all hooks below; where files run one at a time, the next file removes what it left.
if (process.env.TEST_FILES_ONE_AT_A_TIME === '1') removeDataDirsOfEarlierFiles();

afterAll(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
  // Last of the file's after-all hooks (they run in reverse order): its servers are closed by now.
  removeDataDirsOfThisFile();
});
