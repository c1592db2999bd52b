// Component tests opt into jsdom with `// @vitest-environment jsdom`; these matchers and the
// IndexedDB stand-in are harmless in the node environment used by server tests.
import '@testing-library/jest-dom/vitest';
import 'fake-indexeddb/auto';
