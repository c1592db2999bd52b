import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

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
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['src/**/*.test.{ts,tsx}'],
          // Testing Library, jest-dom and an IndexedDB stand-in: the browser's code needs them, the
          // server's does not (loading them in every server test file cost seconds of each run).
          setupFiles: ['./src/test/setup.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'server', include: ['server/**/*.test.ts', 'scripts/**/*.test.ts'] },
      },
    ],
  },
});
