import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { consoleServerPlugin } from './server/vite-plugin';

// The same Host allow-list as `npm start` (server/host-guard.ts); Vite allows loopback and IPs itself.
const allowedHosts = [
  ...(process.env.ALLOWED_HOSTS ?? '').split(/[\s,]+/).filter(Boolean),
  ...(process.env.PUBLIC_BASE_URL ? [new URL(process.env.PUBLIC_BASE_URL).hostname] : []),
];

export default defineConfig({
  plugins: [react(), tailwindcss(), consoleServerPlugin()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      'use-sync-external-store/shim/index.js': fileURLToPath(
        new URL('./src/app/use-sync-external-store-shim.ts', import.meta.url),
      ),
    },
  },
  // Only VITE_-prefixed variables can reach the bundle; API_TOKEN is never one of them.
  envPrefix: 'VITE_',
  server: { host: process.env.HOST ?? 'localhost', port: 5173, allowedHosts },
  preview: { host: process.env.HOST ?? 'localhost', port: 4173, allowedHosts },
  // Dependencies that only lazily loaded modules import: prebundled at start, so the dev server does
  // not discover them on first use and reload the page mid-session to re-optimise.
  optimizeDeps: {
    include: [
      'zod/mini',
      '@hookform/resolvers/zod',
      '@tanstack/react-query',
      '@tanstack/react-virtual',
      'idb-keyval',
    ],
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // Every browser the es2022 target reaches that lacks <link rel=modulepreload> still loads each
    // chunk when it is imported; the polyfill would cost every route ~0.2 KB gzip to fetch ahead.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // TanStack Query in one file: split by which hooks each screen uses, it was three files
            // (7.7 + 2.7 + 1.0 KB gzip) that every screen using one of them fetches together, and
            // separate gzip streams compress worse. Its dependencies (React) stay in the entry.
            {
              name: 'query',
              test: (id) =>
                /node_modules[\\/]@tanstack[\\/](query-core|react-query)[\\/]/.test(id) &&
                !/[\\/](queriesObserver|useQueries)\.js$/.test(id),
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
  },
});
