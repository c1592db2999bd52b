// Component tests opt into jsdom with `// @vitest-environment jsdom`; these matchers and the
// IndexedDB stand-in are harmless in the node environment used by server tests.
import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { configure } from '@testing-library/react';
import { afterAll, beforeAll, vi } from 'vitest';

// The forms load zod, the client and the history store on first use (as in the browser); the first
// such import in a test file is transformed on the spot, which can take seconds on a loaded 2-core
// machine (a form's first submit can take over 5 s with both test runners busy). findBy* and
// waitFor wait up to 15 s instead of 1 s; a passing test waits no longer for it.
configure({ asyncUtilTimeout: 15_000 });

// jsdom's Blob lacks arrayBuffer(), which every browser the console supports has (the upload check
// reads a file's first bytes with it); FileReader, which jsdom has, stands in.
if (typeof FileReader !== 'undefined' && typeof Blob !== 'undefined' && !Blob.prototype.arrayBuffer) {
  Blob.prototype.arrayBuffer = function arrayBuffer(this: Blob) {
    return new Promise<ArrayBuffer>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.onerror = () => reject(reader.error);
      reader.readAsArrayBuffer(this);
    });
  };
}

// Test files of a worker share one module registry and one jsdom (`isolate: false`, vitest.config.ts):
// each file starts with this browser's storage and task history empty, as a fresh page would, and
// what it stubbed or spied on is put back when it ends.
afterAll(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});
beforeAll(async () => {
  if (typeof window === 'undefined') return;
  localStorage.clear();
  sessionStorage.clear();
  const { emptyHistory } = await import('@/testing/history');
  await emptyHistory();
});
