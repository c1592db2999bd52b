import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { routePreloadsPlugin } from './server/static/route-preloads';
import { consoleServerPlugin } from './server/app/vite-plugin';

// The same Host allow-list as `npm start` (server/http/host-guard.ts); Vite allows loopback and IPs itself.
const allowedHosts = [
  ...(process.env.ALLOWED_HOSTS ?? '').split(/[\s,]+/).filter(Boolean),
  ...(process.env.PUBLIC_BASE_URL ? [new URL(process.env.PUBLIC_BASE_URL).hostname] : []),
];

/**
 * Our own modules that the automatic split would ship as many small files, each fetched with the
 * same screens: one file per group (separate gzip streams compress worse, and every file costs its
 * import glue). Each group holds only what the screens fetching it use at once.
 */
const APP_CHUNKS: [RegExp, string][] = [
  // Used by (nearly) every screen.
  [
    /src\/(components\/ui\/(button|platform|lazy-part)|api\/(rules|http-url|is-record)|features\/image-to-video\/animate-link)\.tsx?$/,
    'shared',
  ],
  // TanStack Query in one file: split by which hooks each screen uses, it was three files
  // (7.7 + 2.7 + 1.0 KB gzip) that every screen using one of them fetches together, and separate
  // gzip streams compress worse. Its dependencies (React) stay in the entry; useQueries ships with
  // the poller, its only user. With it, small modules only the screens that query use.
  [/node_modules\/@tanstack\/(query-core|react-query)\/(?!.*\/(queriesObserver|useQueries)\.js$)/, 'query'],
  [/src\/api\/(query-client|task-types)\.tsx?$/, 'query'],
  // The Tasks list and the task page: what both show (their folders are in FOLDER_CHUNKS).
  [/src\/api\/task-view-rule\.ts$/, 'tasks'],
  // The task page alone, with the request's files it lists.
  [/src\/api\/request-files\.ts$/, 'task-detail-screen'],
  // The callback stream and the inbox's API (Callbacks screen, or while following tasks).
  [
    /src\/features\/callbacks\/(inbox-live|inbox-subscription|inbox-api|apply-callback|connection-state)\.ts$/,
    'inbox',
  ],
  // Translate video, with the language list it asks for as it opens.
  [
    /src\/(features\/video-translate\/(?!video-form-schema)[\w-]+|forms\/uploads\/video-file-controls)\.tsx?$/,
    'video-translate-screen',
  ],
  // Create image's form with its reference images list (Image to video loads the list on its own
  // later, in the modes that show it, with this form's code).
  [
    /src\/(features\/image-generate\/(image-generate-form|image-summary|aspect-ratio-picker|use-create-images|reference-images-field|image-form-model|image-url-format)|forms\/uploads\/use-list-files)\.tsx?$/,
    'image-generate-form',
  ],
  // Image to video: the screen and its form arrive together.
  [
    /src\/features\/image-to-video\/(image-to-video-screen|image-to-video-form|use-create-videos|use-image-orientation|use-model-and-mode|video-form-model|video-choices|video-error-place|video-summary)\.tsx?$|src\/api\/image-to-video-rules\.ts$/,
    'image-to-video',
  ],
];

/**
 * Folders whose modules travel as one chunk: a file moved or renamed inside a folder stays in its
 * chunk, and a new folder gets one only by being named here.
 */
const FOLDER_CHUNKS: [folder: string, chunk: string][] = [
  // What the Tasks list and the task page both show, and the team's list under both.
  ['src/features/tasks/shared/', 'tasks'],
  ['src/features/tasks/team/', 'tasks'],
  // The task page alone.
  ['src/features/tasks/detail/', 'task-detail-screen'],
  // The poller's status query and its cap on requests in flight: a task lookup loads them together.
  ['src/features/tasks/polling/', 'task-polling'],
];

function chunkOf(id: string): string | null {
  const path = id.replaceAll('\\', '/');
  const folder = FOLDER_CHUNKS.find(([prefix]) => path.includes(`/${prefix}`) && !/\.test\.tsx?$/.test(path));
  return folder?.[1] ?? APP_CHUNKS.find(([test]) => test.test(path))?.[1] ?? null;
}

export default defineConfig({
  plugins: [react(), tailwindcss(), consoleServerPlugin(), routePreloadsPlugin()],
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
          groups: [{ name: chunkOf, debugName: 'app-chunks', includeDependenciesRecursively: false }],
        },
      },
    },
  },
});
