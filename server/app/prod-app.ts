// The production server as one Hono app (server/entry/prod.ts only listens): security headers, optional
// sign-in, compression, the same Node side as dev (`/v1`, `/__console`, `/emulator`, `/callbacks`)
// and the built single-page app from dist/ with long caching for hashed assets.
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import type { ConsoleInfo } from '../../src/api/console-info-schema';
import { COMPRESSIBLE_CONTENT_TYPE_REGEX, compress } from 'hono/compress';
import { existsSync, readFileSync } from 'node:fs';
import { ServerResponse } from 'node:http';
import { join, resolve } from 'node:path';
import { createAuth } from '../auth/auth';
import { presignOrigins } from '../config/config';
import { hostGuard } from '../http/host-guard';
import { isCallbackInbox, sameSiteOnly } from '../http/same-site';
import { IDENTITY_KEY } from '../identity/request-identity';
import type { IdentityStore } from '../identity/store';
import { createNodeApp, NODE_PATH_PREFIXES, type NodeApp } from './node-app';
import { browserGoneSignal, deferredBody } from '../http/node-request';
import { brotliAssets } from '../static/prod-brotli';
import { routePagesOf } from '../static/route-preloads';
import type { ProdConfig } from './prod-config';
import { securityHeaders } from '../http/security-headers';
import { NO_STORE } from '../http/no-store';

/** How often /healthz reads the follower's figures from the database, at most. */
const FOLLOWING_FIGURES_MS = 5_000;

/** The follower's figures for /healthz, read again at most every FOLLOWING_FIGURES_MS; null when unreadable. */
function healthOfFollowing(nodeApp: NodeApp) {
  let read: { at: number; figures: Promise<unknown> } | undefined;
  return () => {
    if (!nodeApp.follower) return Promise.resolve(undefined);
    if (!read || Date.now() - read.at > FOLLOWING_FIGURES_MS)
      read = {
        at: Date.now(),
        figures: nodeApp.follower.stats().then(
          (stats) => ({
            tasks: stats.following,
            oldestUnfinishedSeconds: stats.oldestCreatedAt
              ? Math.round((Date.now() - stats.oldestCreatedAt.getTime()) / 1000)
              : null,
            pausedUntil: stats.brakedUntil?.toISOString() ?? null,
            lastError: stats.lastError && {
              kind: stats.lastError.kind,
              httpStatus: stats.lastError.httpStatus,
              msg: stats.lastError.msg.slice(0, 200),
              at: stats.lastError.at.toISOString(),
            },
          }),
          () => null,
        ),
      };
    return read.figures;
  };
}

/** The server's health: 200 once its database is ready, 503 before. */
export const HEALTH_PATH = '/healthz';
export const IMMUTABLE = 'public, max-age=31536000, immutable';
const FILE_LIKE =
  /\.(?:m?js|css|map|json|txt|xml|ico|png|jpe?g|gif|svg|webp|avif|woff2?|webmanifest|php|env)$/i;

export interface ProdApp {
  app: Hono;
  /** Resolves once the database is open and migrated; rejects when it cannot be used. */
  ready: Promise<unknown>;
  close(): Promise<void>;
}

interface ProdAppOptions {
  /** Defaults to `createNodeApp(config.server)`; tests and the demo pass their own. */
  nodeApp?: NodeApp;
  /** Extra fields merged into `/__console/config` (the demo's seeded tasks). */
  consoleInfoExtra?: () => Pick<ConsoleInfo, 'demo' | 'demoRun' | 'demoTasks'>;
}

/** SSE must reach the browser event by event; a compression stream would hold events back. */
const compressible = (type: string) =>
  COMPRESSIBLE_CONTENT_TYPE_REGEX.test(type) && !type.startsWith('text/event-stream');

function isNodePath(path: string) {
  return NODE_PATH_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/** serveStatic has no cache option, and headers set in its onFound hook come too late. */
function withCacheControl(value: string): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if ((c.res.status === 200 || c.res.status === 206) && !c.res.headers.has('cache-control'))
      c.res.headers.set('cache-control', value);
  };
}

/** The page says whether a sign-in is asked for, so the header's Sign out is laid out in the first render. */
const SIGN_IN_META = '<meta name="console-sign-in" content="required" />';

function markSignIn(html: string, signIn: boolean): string {
  return signIn ? html.replace('</head>', `  ${SIGN_IN_META}\n  </head>`) : html;
}

export function createProdApp(config: ProdConfig, options: ProdAppOptions = {}): ProdApp {
  const distDir = resolve(config.distDir);
  const indexPath = join(distDir, 'index.html');
  if (!existsSync(indexPath))
    throw new Error(`${indexPath} not found: run \`npm run build\` before \`npm start\``);
  // Read once: the build does not change under a running server, and index.html is tiny.
  const indexHtml = markSignIn(readFileSync(indexPath, 'utf8'), !config.open);
  // Each screen's page names the files that screen needs, so they download with the entry.
  const pageFor = routePagesOf(distDir, indexHtml);
  // The sign-in below always hands the Node side an identity; one arriving without is refused.
  const nodeApp = options.nodeApp ?? createNodeApp(config.server, { anonymous: null });

  const apiOrigin = config.server.apiBaseUrl ? new URL(config.server.apiBaseUrl).origin : undefined;
  const app = new Hono();
  app.use(
    hostGuard({
      bindHost: config.host,
      publicBaseUrl: config.server.publicBaseUrl,
      allowedHosts: config.allowedHosts,
    }),
  );
  app.use(
    securityHeaders({
      // The S3 store's origin too when large kept files redirect there (S3_PRESIGN_ABOVE_MB).
      mediaOrigins: [
        ...(apiOrigin ? [apiOrigin] : []),
        ...config.mediaOrigins,
        ...presignOrigins(config.server.results),
      ],
      hsts: config.server.publicBaseUrl?.startsWith('https:'),
    }),
  );
  // The Node side's one cross-site rule (server/http/same-site.ts) holds for the sign-in forms too: a
  // page elsewhere cannot sign a visitor in to someone else's account, or out.
  app.use(sameSiteOnly({ exempt: isCallbackInbox }));
  app.use(compress({ contentTypeFilter: compressible }));
  // nginx buffers responses by default, which would hold server-sent events back too.
  app.use(async (c, next) => {
    await next();
    if (c.res.headers.get('content-type')?.startsWith('text/event-stream'))
      c.res.headers.set('x-accel-buffering', 'no');
  });

  answerHealth(app, nodeApp);

  const auth = createAuth({
    store: nodeApp.identity,
    password: config.appPassword,
    open: config.open,
    localAccounts: true,
    oidc: config.oidc,
    trustedHeader: config.trustedAuthHeader,
    trustedHeaderAdmins: config.trustedAuthAdmins,
    sessionSecret: config.sessionSecret,
    publicBaseUrl: config.server.publicBaseUrl,
    trustedProxies: config.server.trustedProxies,
    maxFailuresTotal: config.loginFailuresTotal,
    apiTokens: nodeApp.apiTokens,
  });
  app.route('/', auth.routes);
  app.use(auth.guard);

  const toNodeSide = nodeSideFetch(nodeApp, config.server.publicBaseUrl);

  app.get('/__console/config', async (c) => {
    const response = await toNodeSide(c);
    if (!response.ok) return response;
    const info = (await response.json()) as ConsoleInfo;
    const answer: ConsoleInfo = {
      ...info,
      auth: auth.required,
      ...options.consoleInfoExtra?.(),
    };
    return c.json(answer, 200, NO_STORE);
  });

  app.all('*', async (c, next) => {
    if (!isNodePath(c.req.path)) return next();
    // Status polls: in this context, through the same handlers (node-app.ts, v1Get).
    if (nodeApp.v1Get && c.req.method === 'GET' && c.req.path.startsWith('/v1/')) return nodeApp.v1Get(c);
    return toNodeSide(c);
  });

  app.use(
    '/assets/*',
    brotliAssets(distDir, IMMUTABLE),
    withCacheControl(IMMUTABLE),
    serveStatic({ root: distDir }),
  );
  // A missing hashed file is a 404, never the HTML page (nosniff would refuse it as a script anyway).
  app.all('/assets/*', (c) => c.text('Not found', 404));

  // index.html goes through the SPA route below, so it always gets no-cache.
  app.use(
    '*',
    withCacheControl('public, max-age=3600'),
    serveStatic({
      root: distDir,
      rewriteRequestPath: (path) => (path === '/' || path === '/index.html' ? '/__none__' : path),
    }),
  );

  const spa = (c: Context) => {
    // A missing file is a 404, not a screen (task ids may hold dots, so only file-like endings count).
    if (FILE_LIKE.test(c.req.path)) return c.text('Not found', 404);
    return c.html(pageFor(c.req.path), 200, { 'cache-control': 'no-cache' });
  };
  app.get('*', spa);

  const ready = nodeApp.database.then(async (database) => {
    if (!config.open) await printSetupLink(nodeApp.identity, config);
    return database;
  });
  return { app, ready, close: () => nodeApp.close() };
}

/** How long the first admin's set-up link works. */
const SETUP_LINK_TTL_MS = 24 * 3600 * 1000;

/**
 * A console that asks for a sign-in and has no admin yet (besides the shared APP_PASSWORD account,
 * which may not be wanted) prints a one-time link that makes the first admin's local account.
 */
async function printSetupLink(store: IdentityStore, config: ProdConfig): Promise<void> {
  const admins = (await store.listPeople()).filter(
    (p) => p.role === 'admin' && p.source !== 'local-admin' && p.source !== 'shared-password',
  );
  if (admins.length > 0) return;
  // Behind a proxy that signs people in (or with single sign-on giving admins), no link is needed.
  if (config.trustedAuthHeader && config.trustedAuthAdmins.length > 0) return;
  if (config.oidc && config.oidc.adminValues.length > 0) return;
  const token = await store.createLink({ purpose: 'setup', role: 'admin', ttlMs: SETUP_LINK_TTL_MS });
  const base =
    config.server.publicBaseUrl ??
    `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${config.port}`;
  console.log(
    `This console has no admin yet. Open this one-time link within 24 hours to create the first admin account:\n  ${base}/setup/${token}`,
  );
}

/** GET HEALTH_PATH: the database's state and, once open, how the following of unfinished tasks goes. */
function answerHealth(app: Hono, nodeApp: NodeApp): void {
  // For a load balancer or an orchestrator: 200 once the database is open and migrated, 503 while
  // it opens (the server listens before: docs/operations.md). Public, like the sign-in page; it
  // tells nothing but that.
  let database: 'opening' | 'ready' | 'failed' = 'opening';
  nodeApp.database.then(
    () => (database = 'ready'),
    () => (database = 'failed'),
  );
  // With it, how the server's following of unfinished tasks goes (server/follow): how many, the
  // oldest one's age, and the last error from the service (no task id: this route is public), read
  // at most every few seconds however often it is asked.
  const following = healthOfFollowing(nodeApp);
  app.get(HEALTH_PATH, async (c) =>
    c.json(
      {
        status: database === 'ready' ? 'ok' : database === 'opening' ? 'starting' : 'failed',
        database,
        ...(database === 'ready' && { following: await following() }),
      },
      database === 'ready' ? 200 : 503,
      { ...NO_STORE, ...(database === 'opening' && { 'retry-after': '1' }) },
    ),
  );
}

/** The Node side's answer to a request of this app, with the verified identity and the public address. */
function nodeSideFetch(nodeApp: NodeApp, publicBaseUrl: string | undefined) {
  // Behind a TLS-terminating proxy the server sees http://127.0.0.1:PORT; links the Node side builds
  // from the request (emulator media, callback URL) must use the public address instead.
  const publicOrigin = publicBaseUrl ? new URL(publicBaseUrl).origin : undefined;
  return (c: Context) => {
    const url = new URL(c.req.url);
    // The node side is its own app: the verified identity travels in its env, never in a header.
    const env = { ...(c.env as object), [IDENTITY_KEY]: c.get(IDENTITY_KEY as never) };
    if (!publicOrigin || url.origin === publicOrigin) return nodeApp.app.fetch(c.req.raw, env);
    const raw = c.req.raw;
    const { outgoing } = (c.env ?? {}) as { outgoing?: unknown };
    // Copying the request as a whole would start reading its socket; an upload is read from the
    // socket itself (server/proxy/upload-stream.ts), so the copy takes its body and signal lazily.
    const init =
      outgoing instanceof ServerResponse
        ? ({
            method: raw.method,
            headers: raw.headers,
            body: deferredBody(raw),
            signal: browserGoneSignal(outgoing),
            duplex: 'half',
          } as RequestInit)
        : raw;
    return nodeApp.app.fetch(new Request(`${publicOrigin}${url.pathname}${url.search}`, init), env);
  };
}
