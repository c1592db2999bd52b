// Mounts the Node side into `vite` (dev) and `vite preview` as connect middleware, so both serve
// the same `/v1` backend choice as production with no extra process to start.
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { createPgConfig } from '@electric-sql/pglite/node-postgres';
import { getRequestListener } from '@hono/node-server';
import type { Connect, Plugin } from 'vite';
import { readServerConfig } from '../config/config';
import { providePglite } from '../db/database';
import { createNodeApp, NODE_PATH_PREFIXES, type NodeApp } from './node-app';

function middleware(nodeApp: NodeApp): Connect.NextHandleFunction {
  const listener = getRequestListener(nodeApp.app.fetch);
  return (req, res, next) => {
    const url = req.url ?? '/';
    if (NODE_PATH_PREFIXES.some((prefix) => url.startsWith(prefix))) {
      void listener(req, res);
      return;
    }
    next();
  };
}

export function consoleServerPlugin(): Plugin {
  let nodeApp: NodeApp | undefined;
  const start = () => {
    if (!nodeApp) {
      providePglite({ PGlite, pg_trgm, createPgConfig });
      nodeApp = createNodeApp(readServerConfig());
      // Vite keeps serving the app; the database's problem is said once, plainly.
      nodeApp.database.catch((error: Error) => console.error(`[media-console] database: ${error.message}`));
    }
    return nodeApp;
  };
  return {
    name: 'media-console-server',
    configureServer(server) {
      server.middlewares.use(middleware(start()));
      server.httpServer?.once('close', () => void nodeApp?.close());
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware(start()));
      server.httpServer?.once('close', () => void nodeApp?.close());
    },
  };
}
