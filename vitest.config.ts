import react from '@vitejs/plugin-react';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

/**
 * Test files that need a module registry of their own: those that replace a module (`vi.mock`,
 * `vi.doMock`), which would stay replaced for the next file of the worker, and component tests that
 * bring the server's code (a real inbox or database beside the page), whose singletons the next file
 * would inherit in a different state (a CI run failed the Callbacks screen's tests that way).
 */
function testsThatNeedTheirOwnRegistry(folders: string[], needs: RegExp): string[] {
  return folders.flatMap((folder) =>
    readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.test\.tsx?$/.test(file))
      .map((file) => `${folder}/${file}`)
      .filter((path) => needs.test(readFileSync(path, 'utf8'))),
  );
}
const REPLACES_MODULES = /\bvi\.(mock|doMock)\(/;
const REPLACES_MODULES_OR_BRINGS_THE_SERVER = /\bvi\.(mock|doMock)\(|from '(\.\.\/)+server\//;

/**
 * A project whose test files share one module registry per worker (`isolate: false`): Hono, PGlite,
 * Kysely and React are loaded once per worker, not once per file, which took a third of Vitest's time
 * (docs/testing.md, "Module state in unit tests"). The files that need their own registry get a
 * sibling project with isolation. The setup file undoes stubbed globals and spies after each file.
 */
function sharedRegistry(
  name: string,
  folders: string[],
  needsOwnRegistry: RegExp,
  test: { setupFiles: string[] },
): TestProjectInlineConfiguration[] {
  const include = folders.map((folder) => `${folder}/**/*.test.{ts,tsx}`);
  const isolated = testsThatNeedTheirOwnRegistry(folders, needsOwnRegistry);
  return [
    { extends: true, test: { ...test, name, include, exclude: isolated, isolate: false } },
    { extends: true, test: { ...test, name: `${name}-isolated`, include: isolated } },
  ];
}

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  test: {
    environment: 'node',
    globalSetup: ['./server/testing/vitest-global-setup.ts'],
    pool: 'threads',
    maxWorkers: 2,
    // Server tests open an embedded database (PGlite, about a second alone); on a busy 2-core
    // machine that grows past 15 s, so the bounds leave room for it.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // Testing Library, jest-dom and an IndexedDB stand-in: the browser's code needs them, the
      // server's does not (loading them in every server test file cost seconds of each run).
      ...sharedRegistry('browser', ['src'], REPLACES_MODULES_OR_BRINGS_THE_SERVER, {
        setupFiles: ['./src/test/setup.ts'],
      }),
      ...sharedRegistry('server', ['server', 'scripts'], REPLACES_MODULES, {
        setupFiles: ['./server/testing/vitest-setup.ts'],
      }),
    ],
  },
});
