// Component tests opt into jsdom with `// @vitest-environment jsdom`; these matchers and the
// IndexedDB stand-in are harmless in the node environment used by server tests.
import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
import { configure } from '@testing-library/react';

// The forms load zod, the client and the history store on first use (as in the browser); the first
// such import in a test file is transformed on the spot, which can take seconds on a loaded 2-core
// machine. findBy*/waitFor wait up to 5 s instead of 1 s; a passing test waits no longer for it.
configure({ asyncUtilTimeout: 5_000 });
