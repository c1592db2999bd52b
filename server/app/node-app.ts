// The Node side as one Hono app, mounted three ways: in `vite` dev, in `vite preview`, and in the
// production server. It answers the console's own config, `/v1/*` (proxy or emulator) and the
// emulator's media files.
import { Hono } from 'hono';
import type { ServerConfig } from '../config/config';
import { importCallbackLog } from '../callbacks/import-log';
import { openDatabase, type Database } from '../db/database';
import type { Emulator, EmulatorOptions } from '../emulator/app';
import type { Chain } from '../http/chain';
import { importSignedOutSessions } from '../auth/signed-out-sessions';
import { createTaskRecorder } from '../tasks/recorder';
import type { Follower } from '../follow/follower';
import { createWebhookSender, type WebhookSender } from '../notify/sender';
import { createWebhookRoutes } from '../notify/routes';
import type { CopyJob } from '../results/copy-job';
import type { ResultStore } from '../results/store';
import { recordTraffic } from '../tasks/record-traffic';
import { limitsGuard } from '../limits/routes';
import { accessGuard } from '../identity/access';
import { createOpenApiRoutes } from '../openapi/openapi';
import { createApiTokens, type ApiTokens } from '../identity/api-tokens';
import { createPeopleRoutes } from '../identity/people-routes';
import { createTokenRoutes } from '../identity/token-routes';
import { LOCAL_ADMIN, type Identity } from '../identity/request-identity';
import { createIdentityStore, type IdentityStore } from '../identity/store';
import { isCallbackInbox, sameSiteOnly } from '../http/same-site';
import { nodeBodyLimits } from './body-limits';
import type { BodyLimits } from '../http/body-limits';
import { auditAfter } from './audit-hooks';
import { mountConsoleConfig } from './console-config';
import { offeredLanguagesOf } from './offered-languages';
import { ownAddressesOf, resultFetchOf, webhookFetchOf } from './own-addresses';
import { hookRecorder } from './recorder-hooks';
import { mountRecordRoutes } from './record-routes';
import { createResultKeeping } from './result-keeping';
import { createTaskTracking } from './task-tracking';
import { mountV1Backend } from './v1-backend';

/** Paths the Node side answers; everything else belongs to the single-page app. */
export const NODE_PATH_PREFIXES = ['/v1/', '/__console/', '/emulator/', '/callbacks/', '/s/'] as const;

export interface NodeApp {
  app: Hono;
  /** The in-process emulator when API_BASE_URL is unset (the demo seeds tasks into it). */
  emulator?: Emulator;
  /**
   * With API_BASE_URL: a GET under `/v1/` (status polls, most of the traffic) answered in the
   * caller's own context by exactly the handlers `app` runs for it, in the same order (role check,
   * limits, recorder, inbox marker, proxy), without `app`'s routing and second middleware chain.
   * The caller has put the verified identity in the context (IDENTITY_KEY), as its sign-in layer
   * does; nothing on this path reads the request's origin, only its path.
   */
  v1Get?: Chain;
  /** Open, migrated, with any old callback log imported; rejects when the database is unusable. */
  database: Promise<Database>;
  /** People, sessions and the audit log (server/identity/store.ts). */
  identity: IdentityStore;
  /** What each route may be sent (server/app/body-limits.ts); absent on a test's stand-in. */
  bodyLimits?: BodyLimits;
  /** Personal API tokens (server/identity/api-tokens.ts): the sign-in layer in front checks them. */
  apiTokens?: ApiTokens;
  /** The copy job that keeps result files in the team's store (server/results). */
  results?: CopyJob;
  /** Follows every unfinished task of the record to its end (server/follow). */
  follower?: Follower;
  /** Sends the webhooks' messages when requests end (server/notify). */
  webhooks?: WebhookSender;
  close(): Promise<void>;
}

export interface NodeAppOptions {
  emulator?: Partial<EmulatorOptions>;
  /** A database opened by the caller (tests share one); it stays open when the app closes. */
  database?: Database;
  /**
   * Who a request is when no sign-in layer in front handed an identity over: the local admin by
   * default (`npm run dev` and `vite preview` on loopback, tests); null refuses such a request
   * (`npm start`, whose sign-in layer always hands one over).
   */
  anonymous?: Identity | null;
  /** The clock of the spending limits' UTC days and months (tests move it); Date.now by default. */
  now?: () => number;
  /**
   * Runs the copy job of result files in the background. Default: on when the app opens its own
   * database; tests that hand one over drive `results.drain()` themselves.
   */
  keepResults?: boolean;
  /**
   * Follows every unfinished task in the background. Default: on when the app opens its own
   * database; tests that hand one over drive `follower.drain()` themselves.
   */
  followTasks?: boolean;
  /** Sends webhook deliveries in the background; default as followTasks; tests drain `webhooks`. */
  sendWebhooks?: boolean;
  /** The result store (tests); default from `config.results`. */
  resultStore?: ResultStore;
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

/**
 * The guards every route runs behind, in this order: one cross-site rule for every change, whichever
 * backend answers /v1 (server/http/same-site.ts; the inbox's secret path is the service's, not a
 * browser's); a role for each route (server/identity/access.ts); and every body bounded while it
 * streams, before any route reads it (server/app/body-limits.ts).
 */
function mountGuards(
  app: Hono,
  config: ServerConfig,
  options: NodeAppOptions,
  database: Promise<Database>,
  identity: IdentityStore,
) {
  const sameSite = sameSiteOnly({ exempt: isCallbackInbox, everyMethodUnder: '/v1/' });
  app.use(sameSite);
  const apiTokens = createApiTokens(database, identity, options.now);
  const access = accessGuard({
    anonymous: options.anonymous === undefined ? LOCAL_ADMIN : (options.anonymous ?? undefined),
    seen: (who) => (who.source === 'local-admin' ? identity.ensureLocalAdmin() : undefined),
    apiTokens,
  });
  app.use(access);
  const bodyLimits = nodeBodyLimits(config.uploadMaxBytes);
  app.use(bodyLimits.middleware);
  return { sameSite, access, bodyLimits, apiTokens };
}

/** Starts the background work the options ask for, once the database is open. */
function startBackgroundWork(
  options: NodeAppOptions,
  database: Promise<Database>,
  work: { webhooks: WebhookSender; results: CopyJob; follower: Follower },
) {
  // By default on when the app opens its own database; tests that hand one over drive them.
  const own = !options.database;
  if (options.sendWebhooks ?? own) void database.then(() => work.webhooks.start()).catch(() => undefined);
  if (options.keepResults ?? own) void database.then(() => work.results.start()).catch(() => undefined);
  if (options.followTasks ?? own) void database.then(() => work.follower.start()).catch(() => undefined);
}

export function createNodeApp(config: ServerConfig, options: NodeAppOptions = {}): NodeApp {
  const app = new Hono();
  const database = options.database ? Promise.resolve(options.database) : prepareDatabase(config);
  // Whoever starts the app awaits `database` and reports a failure; it must not be unhandled here.
  database.catch(() => {});
  const identity = createIdentityStore(database);
  const { sameSite, access, bodyLimits, apiTokens } = mountGuards(app, config, options, database, identity);
  app.route('/', createPeopleRoutes(identity));
  app.route('/', createTokenRoutes(apiTokens));
  app.route('/', createOpenApiRoutes());
  // The emulator's settings steer the backend for everyone: a change goes in the audit log.
  app.post(
    '/emulator/settings',
    auditAfter(identity, 'settings.change', () => 'emulator'),
  );

  const own = ownAddressesOf(config);
  const { follower, hints, store, inbox, streams } = createTaskTracking(app, config, database, own);
  app.route('/', inbox.app);
  // Registered before the proxy or the emulator, so it sees every /v1 answer they give. A callback
  // can beat the creation answer: once the tasks are recorded, one already logged is looked at.
  const recorder = createTaskRecorder(database);
  // Spending limits (server/limits): a creation past one is refused before it reaches the proxy or
  // the emulator; one that fits is held until the recorder (inside) has recorded its tasks.
  const limits = limitsGuard(database, {
    now: options.now,
    offeredLanguages: offeredLanguagesOf(config, app),
  });
  const record = recordTraffic(recorder, inbox.path);
  app.use('/v1/*', limits);
  app.use('/v1/*', record);
  const resultFetch = resultFetchOf(config, own, app);
  const keeping = createResultKeeping(config, database, resultFetch, options.resultStore);
  const { results, resultStore } = keeping;
  // Webhooks told when a request ends (server/notify).
  const webhooks = createWebhookSender({
    database,
    publicBaseUrl: config.publicBaseUrl,
    fetch: webhookFetchOf(config),
  });
  hookRecorder(recorder, {
    follower,
    hints,
    results,
    webhooks,
    boards: () => boardRoutes,
    ownOrigin: own.ownOrigin,
  });
  startBackgroundWork(options, database, { webhooks, results, follower });
  app.route('/', createWebhookRoutes(database, identity));
  const { taskRoutes, boardRoutes } = mountRecordRoutes(app, {
    config,
    database,
    identity,
    streams,
    follower,
    resultFetch,
    keeping,
    now: options.now,
  });
  const marker = mountConsoleConfig(app, config, inbox.path);

  const closers: (() => Promise<void> | void)[] = [
    async () => {
      // No new status checks; then the store: it refuses new callbacks and waits for the ones being committed.
      await follower.close();
      await webhooks.close();
      await recorder.flush();
      await store.close();
      await inbox.close();
      await taskRoutes.close();
      await boardRoutes.close();
      await results.close();
      if (!options.resultStore) await (await resultStore.catch(() => undefined))?.close?.();
      if (!options.database) await (await database.catch(() => undefined))?.close();
    },
  ];
  const before = [sameSite, access, bodyLimits.middleware, limits, record, ...marker];
  const { emulator, v1Get } = mountV1Backend(app, config, database, own, before, options.emulator);
  if (emulator) closers.push(() => emulator.close());

  return {
    app,
    emulator,
    v1Get,
    database,
    identity,
    bodyLimits,
    apiTokens,
    results,
    follower,
    webhooks,
    async close() {
      await Promise.all(closers.map((close) => close()));
    },
  };
}
