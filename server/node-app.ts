// The Node side as one Hono app, mounted three ways: in `vite` dev, in `vite preview`, and in the
// production server. It answers the console's own config, `/v1/*` (proxy or emulator) and the
// emulator's media files.
import { Hono, type Context } from 'hono';
import type { ConsoleInfo } from '../src/api/console-info-schema';
import { importCallbackLog } from './callbacks/import-log';
import { createCallbackInbox } from './callbacks/inbox';
import { consoleInboxMarker } from './console-inbox-marker';
import { CallbackStore } from './callbacks/store';
import type { ServerConfig } from './config';
import { openDatabase, type Database } from './db/database';
import { createEmulator, type Emulator, type EmulatorOptions } from './emulator/app';
import { createGuardedFetch } from './outbound';
import { createProxyApp } from './proxy';
import { createStreamLimits } from './stream-limits';
import { requestOrigin } from './request-origin';
import { importSignedOutSessions } from './signed-out-sessions';
import { createTaskRecorder } from './tasks/recorder';
import { recordTraffic } from './tasks/record-traffic';
import { createTaskRoutes } from './tasks/routes';

/** Paths the Node side answers; everything else belongs to the single-page app. */
export const NODE_PATH_PREFIXES = ['/v1/', '/__console/', '/emulator/', '/callbacks/'] as const;

/** What the console serves that its emulator may fetch from itself: media, samples, the inbox. */
const OWN_PATHS = /^\/(emulator\/(media|samples|uploads)|callbacks)\//;

export interface NodeApp {
  app: Hono;
  /** The in-process emulator when API_BASE_URL is unset (the demo seeds tasks into it). */
  emulator?: Emulator;
  /** Open, migrated, with any old callback log imported; rejects when the database is unusable. */
  database: Promise<Database>;
  close(): Promise<void>;
}

export interface NodeAppOptions {
  emulator?: Partial<EmulatorOptions>;
  /** A database opened by the caller (tests share one); it stays open when the app closes. */
  database?: Database;
}

/** Opens the database of `config` and brings an earlier version's DATA_DIR into it. */
async function prepareDatabase(config: ServerConfig): Promise<Database> {
  const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    const imported = await importCallbackLog(database.db, config.dataDir);
    if (imported) console.log(`[db] imported ${imported} callback(s) from the file log in ${config.dataDir}`);
    await importSignedOutSessions(database, config.dataDir);
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

export function createNodeApp(config: ServerConfig, options: NodeAppOptions = {}): NodeApp {
  const app = new Hono();
  const closers: (() => Promise<void> | void)[] = [];
  let emulator: Emulator | undefined;

  const database = options.database ? Promise.resolve(options.database) : prepareDatabase(config);
  // Whoever starts the app awaits `database` and reports a failure; it must not be unhandled here.
  database.catch(() => {});

  // A callback also moves its task on, in the same transaction as the callback itself.
  const store = new CallbackStore(database, { moveTasks: true });
  // One allowance of event streams for both kinds (callbacks, tasks): per session and in total.
  const streams = createStreamLimits({ perSession: config.streamsPerSession, total: config.streamsTotal });
  const inbox = createCallbackInbox({
    dataDir: config.dataDir,
    secret: config.callbackSecret,
    ratePerSecond: config.callbackRateLimit,
    trustedProxies: config.trustedProxies,
    store,
    streams,
  });
  closers.push(async () => {
    // The store first: it refuses new callbacks and waits for the ones being committed.
    await store.close();
    await inbox.close();
    await taskRoutes.close();
    if (!options.database) await (await database.catch(() => undefined))?.close();
  });
  app.route('/', inbox.app);
  // Registered before the proxy or the emulator, so it sees every /v1 answer they give.
  app.use('/v1/*', recordTraffic(createTaskRecorder(database), inbox.path));
  const taskRoutes = createTaskRoutes(database, streams);
  app.route('/', taskRoutes.app);

  const backend: Pick<ConsoleInfo, 'backend' | 'apiHost' | 'tokenConfigured'> = config.apiBaseUrl
    ? {
        backend: 'remote',
        apiHost: new URL(config.apiBaseUrl).host,
        tokenConfigured: Boolean(config.apiToken),
      }
    : { backend: 'emulator', apiHost: null, tokenConfigured: true };
  /** The inbox address the service can reach, or null when none is known (a real API without PUBLIC_BASE_URL). */
  const inboxUrl = (c: Context) => {
    const base = config.publicBaseUrl ?? (config.apiBaseUrl ? undefined : requestOrigin(c));
    return base ? `${base}${inbox.path}` : null;
  };
  app.use('/v1/*', ...consoleInboxMarker(inboxUrl));

  app.get('/__console/config', (c) => {
    // The in-process emulator reaches the inbox at the address the browser used; a real service
    // needs PUBLIC_BASE_URL, the console's address as seen from the internet.
    const callbackUrl = inboxUrl(c);
    const info: ConsoleInfo = {
      ...backend,
      callbackUrl,
      callbackUrlReachable: Boolean(callbackUrl),
      callbackInboxPath: inbox.path,
      uploadMaxBytes: config.uploadMaxBytes,
    };
    return c.json(info, 200, { 'cache-control': 'no-store' });
  });

  if (config.apiBaseUrl) {
    app.route(
      '/',
      createProxyApp({
        apiBaseUrl: config.apiBaseUrl,
        apiToken: config.apiToken,
        uploadMaxBytes: config.uploadMaxBytes,
      }),
    );
  } else {
    // The emulator fetches reference images and POSTs callbacks on anyone's word: only public
    // addresses, except this console's own media and inbox, which are answered in-process.
    const ownHosts = new Set(['localhost', '127.0.0.1', '::1']);
    if (config.publicBaseUrl) ownHosts.add(new URL(config.publicBaseUrl).hostname.replace(/^\[|\]$/g, ''));
    const local = createEmulator({
      dataDir: config.dataDir,
      uploadMaxBytes: config.uploadMaxBytes,
      fetch: createGuardedFetch({
        local: (url, init) =>
          ownHosts.has(url.hostname.replace(/^\[|\]$/g, '')) && OWN_PATHS.test(url.pathname)
            ? app.fetch(new Request(url, init))
            : undefined,
      }),
      ...options.emulator,
    });
    emulator = local;
    closers.push(() => local.close());
    app.route('/', local.app);
  }

  return {
    app,
    emulator,
    database,
    async close() {
      await Promise.all(closers.map((close) => close()));
    },
  };
}
