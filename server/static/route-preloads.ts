// No screen is in the entry chunk: each is fetched only once the entry has arrived and run and the
// router asks for it: a waterfall, the longest part of a first visit's largest paint on a slow phone. The build writes which files each such screen needs
// (route-preloads.json, beside index.html) and the production server names them in the page it
// serves for that route as <link rel="modulepreload">, so they download alongside the entry. The
// bytes are the same (scripts/check-route-weight.ts counts them either way); only the wait goes.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Plugin } from 'vite';
import { html } from 'hono/html';

export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

/**
 * The lazily loaded screen of each route (src/app/routes.tsx). `route-preloads.test.ts` checks that
 * every navigation entry is here, so a new screen is not left to the waterfall.
 */
export const ROUTE_SCREENS: Record<string, string> = {
  '/': 'src/features/image-generate/image-generate-screen.tsx',
  '/translate': 'src/features/video-translate/video-translate-screen.tsx',
  '/image-to-video': 'src/features/image-to-video/image-to-video-screen.tsx',
  '/tasks': 'src/features/tasks/list/tasks-screen.tsx',
  '/tasks/:taskId': 'src/features/tasks/detail/task-detail-screen.tsx',
  '/insights': 'src/features/insights/insights-screen.tsx',
  '/callbacks': 'src/features/callbacks/callbacks-screen.tsx',
  '/boards': 'src/features/tasks/boards/boards-screen.tsx',
  '/boards/:boardId': 'src/features/tasks/boards/board-screen.tsx',
  '/compare': 'src/features/tasks/boards/compare-screen.tsx',
};

type RoutePreloads = Record<string, string[]>;

interface ChunkInfo {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  moduleIds: readonly string[];
  imports: string[];
}

/** Every file a chunk imports statically, itself first, skipping those already counted. */
function staticClosure(start: string, chunks: Map<string, ChunkInfo>, skip: Set<string>): string[] {
  const files: string[] = [];
  const visit = (fileName: string) => {
    if (skip.has(fileName) || files.includes(fileName)) return;
    files.push(fileName);
    for (const imported of chunks.get(fileName)?.imports ?? []) visit(imported);
  };
  visit(start);
  return files;
}

/** From the bundle: for each route, the files its screen needs that the entry does not already bring. */
export function routePreloadsOf(bundle: Record<string, { type: string }>, root: string): RoutePreloads {
  const chunks = new Map(
    Object.values(bundle)
      .filter((output): output is ChunkInfo => output.type === 'chunk')
      .map((chunk) => [chunk.fileName, chunk]),
  );
  const entry = [...chunks.values()].find((chunk) => chunk.isEntry);
  // index.html already preloads the entry and its static imports.
  const inEntry = new Set(entry ? staticClosure(entry.fileName, chunks, new Set()) : []);
  const preloads: RoutePreloads = {};
  for (const [route, screen] of Object.entries(ROUTE_SCREENS)) {
    const id = join(root, screen).replaceAll('\\', '/');
    // A screen may share its chunk with modules grouped beside it (vite.config.ts, APP_CHUNKS).
    const chunk = [...chunks.values()].find((candidate) =>
      candidate.moduleIds.some((moduleId) => moduleId.replaceAll('\\', '/') === id),
    );
    if (!chunk) throw new Error(`route-preloads: no chunk holds ${screen}`);
    if (inEntry.has(chunk.fileName)) continue;
    preloads[route] = staticClosure(chunk.fileName, chunks, inEntry);
  }
  return preloads;
}

export function routePreloadsPlugin(): Plugin {
  let root = process.cwd();
  return {
    name: 'route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      this.emitFile({
        type: 'asset',
        fileName: ROUTE_PRELOADS_FILE,
        source: `${JSON.stringify(routePreloadsOf(bundle, root), null, 2)}\n`,
      });
    },
  };
}

/** The route pattern a path falls under, or undefined (`/tasks/:taskId` takes one segment). */
export function routeOf(path: string, routes: readonly string[]): string | undefined {
  const trimmed = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return routes.find((route) => {
    const pattern = route.split('/');
    const parts = trimmed.split('/');
    return (
      pattern.length === parts.length &&
      pattern.every((part, index) => (part.startsWith(':') ? parts[index] !== '' : part === parts[index]))
    );
  });
}

/**
 * index.html for each path: with the modulepreload links of its route's screen, or as built. A build
 * without the file (an older one) serves index.html unchanged.
 */
export function routePagesOf(distDir: string, indexHtml: string): (path: string) => string {
  const file = join(distDir, ROUTE_PRELOADS_FILE);
  const preloads: RoutePreloads = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as RoutePreloads)
    : {};
  const pages = new Map(
    Object.entries(preloads).map(([route, files]) => {
      const links = files
        .map(
          (fileName) =>
            html`    <link rel="modulepreload" crossorigin fetchpriority="low" href="/${fileName}">\n`,
        )
        .join('');
      return [route, indexHtml.replace('</head>', `${links}  </head>`)] as const;
    }),
  );
  const routes = [...pages.keys()];
  return (path) => {
    const route = routeOf(path, routes);
    return (route && pages.get(route)) ?? indexHtml;
  };
}
