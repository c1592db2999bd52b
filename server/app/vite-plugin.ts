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

/** What the plugin offers its caller (Vite's `plugin.api`): a promise for the Node side's shutdown. */
export interface ConsoleServerPluginApi {
  /** Settles once the Node side (and its database) has closed, after Vite's HTTP server closed. */
  closed(): Promise<void>;
}

export function consoleServerPlugin(): Plugin<ConsoleServerPluginApi> {
  let nodeApp: NodeApp | undefined;
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= Promise.resolve(nodeApp?.close()).then(() => undefined);
  };
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
    api: { closed: () => closing ?? Promise.resolve() },
    configureServer(server) {
      server.middlewares.use(middleware(start()));
      server.httpServer?.once('close', close);
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware(start()));
      server.httpServer?.once('close', close);
    },
  };
}
