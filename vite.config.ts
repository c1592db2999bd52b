import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompressPlugin } from './server/static/prod-brotli';
import { routePreloadsPlugin } from './server/static/route-preloads';
import { consoleServerPlugin } from './server/app/vite-plugin';

// The same Host allow-list as `npm start` (server/http/host-guard.ts); Vite allows loopback and IPs itself.
const allowedHosts = [
  ...(process.env.ALLOWED_HOSTS ?? '').split(/[\s,]+/).filter(Boolean),
  ...(process.env.PUBLIC_BASE_URL ? [new URL(process.env.PUBLIC_BASE_URL).hostname] : []),
];

/**
 * Folders whose modules travel as one chunk, so a file moved or renamed inside a folder stays in its
 * chunk and a new folder gets one only by being named here. Each chunk holds what the screens
 * fetching it use at once (separate files compress worse and each costs its import glue). The
 * longest folder that holds a module decides; `null` leaves a subfolder to the automatic split (the
 * forms' zod schemas, loaded on a form's first focus). Modules outside every folder here go where
 * the automatic split puts them: with their only importer, or in a file shared by their importers.
 */
const FOLDER_CHUNKS: [folder: string, chunk: string | null][] = [
  // Used by (nearly) every screen: the button, the lazy part's frame, the rules as plain values, and
  // Animate's link, which every screen showing images offers.
  ['src/components/ui/core/', 'shared'],
  ['src/api/core/', 'shared'],
  // Two small modules most screens use: split on their own they are two more requests everywhere.
  ['src/components/ui/styles.ts', 'shared'],
  ['src/components/ui/typing-target.ts', 'shared'],
  // React and its JSX runtime in one file, out of the entry: chunks the entry imports (shared) use
  // the runtime too, and taking it from the entry would be a cycle that runs them before it.
  ['node_modules/react/', 'react'],
  // TanStack Query in one file: split by which hooks each screen uses, it was three files that
  // every screen using one of them fetches together. Its dependencies (React) stay in the entry.
  ['node_modules/@tanstack/query-core/', 'query'],
  ['node_modules/@tanstack/react-query/', 'query'],
  // ...but not the mutation hook and its observer: they go with the few screens that change things,
  // so Tasks and the forms do not carry them.
  ['node_modules/@tanstack/react-query/build/modern/useMutation.js', null],
  ['node_modules/@tanstack/query-core/build/modern/mutationObserver.js', null],
  // With it, the query client and the task types: only the screens that query use them.
  ['src/api/query/', 'query'],
  // Which tasks a Tasks view shows: with what the Tasks list and the task page both show.
  ['src/api/task-view/', 'tasks'],
  // What the Tasks list and the task page both show, and the team's list under both.
  ['src/features/tasks/shared/', 'tasks'],
  ['src/features/tasks/team/', 'tasks'],
  // The task page alone, with the request's files it lists.
  ['src/features/tasks/detail/', 'task-detail-screen'],
  ['src/api/task-detail/', 'task-detail-screen'],
  // The callback stream and the inbox's API (Callbacks screen, or while following tasks).
  ['src/features/callbacks/inbox/', 'inbox'],
  // Create image's form with its reference images list (Image to video loads the list on its own
  // later, in the modes that show it, with this form's code).
  ['src/features/image-generate/form/', 'image-generate-form'],
  // Image to video: the screen and its form arrive together.
  ['src/features/image-to-video/', 'image-to-video'],
  ['src/api/image-to-video/', 'image-to-video'],
  ['src/features/image-to-video/schema/', null],
  // The image's prompt offered after Animate: loaded when it shows, not with the form.
  ['src/features/image-to-video/suggestion/', null],
  // Animate's link, which the Tasks screens show on every image: not the form's code.
  ['src/features/image-to-video/link/', 'shared'],
  // Reviews: the cards' badge and the Review button with the cards' shared code (no file of their
  // own); the dialog, its panel, API and rules in one chunk, loaded when Review is first pressed.
  ['src/features/reviews/', 'reviews'],
  ['src/api/reviews', 'reviews'],
  ['src/features/reviews/review-slot', 'tasks'],
  ['src/features/reviews/review-button', 'tasks'],
  // The Review button of a task's page and a board's items: not on Tasks, where cards show the badge only.
  ['src/features/reviews/review-button.tsx', 'review-button'],
  // Translate video, with the language list it asks for as it opens.
  ['src/features/video-translate/', 'video-translate-screen'],
  ['src/features/video-translate/schema/', null],
];

function chunkOf(id: string): string | null {
  const path = id.replaceAll('\\', '/');
  if (/\.test\.tsx?$/.test(path)) return null;
  let best: [string, string | null] | undefined;
  for (const rule of FOLDER_CHUNKS) {
    if (path.includes(`/${rule[0]}`) && rule[0].length > (best?.[0].length ?? -1)) best = rule;
  }
  return best?.[1] ?? null;
}

export default defineConfig({
  plugins: [react(), tailwindcss(), consoleServerPlugin(), routePreloadsPlugin(), precompressPlugin()],
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
    // No preload helper: it and the lists of each lazy chunk's imports cost every route ~1.1 KB. A
    // first visit's files are named in its page by the server (route-preloads.ts) and a navigation
    // link fetches its screen ahead (prefetchScreen in src/app/routes.tsx); a lazy part inside a
    // screen fetches its own imports once it has arrived, one round trip later.
    modulePreload: false,
    rolldownOptions: {
      output: {
        // A chunk is named by its hash alone: each name is written in every chunk that imports it and in
        // the preload lists, and the readable part cost every route ~0.7 KB.
        chunkFileNames: 'assets/[hash].js',
        entryFileNames: 'assets/[hash].js',
        codeSplitting: {
          groups: [{ name: chunkOf, debugName: 'app-chunks', includeDependenciesRecursively: false }],
        },
      },
    },
  },
});
