// The Node side as one Hono app, mounted three ways: in `vite` dev, in `vite preview`, and in the
// production server. It answers the console's own config, `/v1/*` (proxy or emulator) and the
// emulator's media files.
import { Hono, type Context } from 'hono';
import { sql } from 'kysely';
import type { ConsoleInfo } from '../../src/api/console-info-schema';
import { API_PATHS } from '../../src/api/paths';
import { TARGET_LANGUAGES } from '../../src/api/schemas';
import type { TaskType } from '../../src/api/core/rules';
import { createCallbackHints } from '../callbacks/hints';
import { importCallbackLog } from '../callbacks/import-log';
import { createCallbackInbox } from '../callbacks/inbox';
import { consoleInboxMarker } from '../proxy/console-inbox-marker';
import { CallbackStore } from '../callbacks/store';
import { DEFAULT_FOLLOW_RATE_PER_SECOND, type ServerConfig } from '../config/config';
import { openDatabase, type Database } from '../db/database';
import { createEmulator, type Emulator, type EmulatorOptions } from '../emulator/app';
import { createGuardedFetch } from '../proxy/outbound';
import { createPreviewRoutes } from '../preview/preview-route';
import { createProxyApp, createProxyHandlers } from '../proxy/proxy';
import { chain, type Chain } from '../http/chain';
import { UploadQuota } from '../http/upload-quota';
import { databaseUploadTallies } from '../limits/upload-tallies';
import { createStreamLimits } from '../http/stream-limits';
import { requestOrigin } from '../http/request-origin';
import { importSignedOutSessions } from '../auth/signed-out-sessions';
import { createTaskRecorder, TASKS_CHANNEL } from '../tasks/recorder';
import { createFollower, type Follower } from '../follow/follower';
import { createFollowRoutes } from '../follow/routes';
import { createWebhookSender, type WebhookSender } from '../notify/sender';
import { createWebhookRoutes } from '../notify/routes';
import { isTerminalStatus } from '../../src/api/status';
import { createCopyJob, type CopyJob } from '../results/copy-job';
import { openResultStore } from '../results/open-store';
import { createResultRoutes } from '../results/routes';
import type { ResultStore } from '../results/store';
import { recordTraffic } from '../tasks/record-traffic';
import { createTaskRoutes } from '../tasks/routes';
import { createBoardRoutes } from '../boards/routes';
import { createShareRoutes } from '../shares/routes';
import { createShareVisitorRoutes } from '../shares/visitor';
import { announceBoardsHolding } from '../boards/live';
import { createReviewRoutes } from '../reviews/routes';
import { createInsightsRoutes } from '../insights/routes';
import { createLimitsRoutes, limitsGuard } from '../limits/routes';
import { accessGuard } from '../identity/access';
import { createOpenApiRoutes } from '../openapi/openapi';
import { createApiTokens, type ApiTokens } from '../identity/api-tokens';
import { createPeopleRoutes } from '../identity/people-routes';
import { createTokenRoutes } from '../identity/token-routes';
import {
  IDENTITY_KEY,
  identityOf,
  LOCAL_ADMIN,
  SYSTEM_IDENTITY,
  type Identity,
} from '../identity/request-identity';
import { createIdentityStore, type IdentityStore } from '../identity/store';
import { isCallbackInbox, sameSiteOnly } from '../http/same-site';
import { nodeBodyLimits } from './body-limits';
import type { BodyLimits } from '../http/body-limits';
import { NO_STORE } from '../http/no-store';

/** Paths the Node side answers; everything else belongs to the single-page app. */
export const NODE_PATH_PREFIXES = ['/v1/', '/__console/', '/emulator/', '/callbacks/', '/s/'] as const;

/** What the console serves that its emulator may fetch from itself: media, samples, the inbox. */
const OWN_PATHS = /^\/(emulator\/(media|samples|uploads)|callbacks)\//;

/** The status query of each kind, as the browser's client sends it (src/api/paths.ts). */
const STATUS_PATHS: Record<TaskType, (id: string) => string> = {
  image_generate: API_PATHS.imageGenerateTask,
  video_translate: API_PATHS.videoTranslateTask,
  image_to_video: API_PATHS.imageToVideoTask,
};

const bareHost = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

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

/** How long the service's list of target languages is believed before it is asked again. */
const LANGUAGES_TTL_MS = 10 * 60_000;

/**
 * The target languages the service offers: the emulator's are TARGET_LANGUAGES; a real service is
 * asked through this app (the proxy adds the token), once per LANGUAGES_TTL_MS, and when it cannot
 * say, the console's own list stands in (a minute, then it is asked again).
 */
function offeredLanguagesOf(config: ServerConfig, app: Hono): () => Promise<readonly string[]> {
  if (!config.apiBaseUrl) return () => Promise.resolve(TARGET_LANGUAGES);
  let cached: { list: readonly string[]; until: number } | undefined;
  return async () => {
    if (cached && Date.now() < cached.until) return cached.list;
    const answer = await Promise.resolve(
      app.fetch(
        new Request(`http://localhost${API_PATHS.targetLanguages}`, {
          headers: { accept: 'application/json' },
        }),
        { [IDENTITY_KEY]: SYSTEM_IDENTITY },
      ),
    )
      .then((response: Response) => response.json() as Promise<{ code?: unknown; data?: unknown }>)
      .catch(() => undefined);
    const list = answer?.code === 0 && Array.isArray(answer.data) ? answer.data : undefined;
    cached =
      list && list.length && list.every((item: unknown) => typeof item === 'string')
        ? { list: list as string[], until: Date.now() + LANGUAGES_TTL_MS }
        : { list: TARGET_LANGUAGES, until: Date.now() + 60_000 };
    return cached.list;
  };
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

  const identity = createIdentityStore(database);
  // One cross-site rule for every change, whichever backend answers /v1 (server/http/same-site.ts),
  // before anything else runs; the inbox's secret path is the service's, not a browser's.
  const sameSite = sameSiteOnly({ exempt: isCallbackInbox, everyMethodUnder: '/v1/' });
  app.use(sameSite);
  const apiTokens = createApiTokens(database, identity, options.now);
  // Before every route: each one needs a role (server/identity/access.ts).
  const access = accessGuard({
    anonymous: options.anonymous === undefined ? LOCAL_ADMIN : (options.anonymous ?? undefined),
    seen: (who) => (who.source === 'local-admin' ? identity.ensureLocalAdmin() : undefined),
    apiTokens,
  });
  app.use(access);
  // Every body is bounded while it streams, before any route reads it (server/app/body-limits.ts).
  const bodyLimits = nodeBodyLimits(config.uploadMaxBytes);
  app.use(bodyLimits.middleware);
  app.route('/', createPeopleRoutes(identity));
  app.route('/', createTokenRoutes(apiTokens));
  app.route('/', createOpenApiRoutes());
  // The emulator's settings steer the backend for everyone: a change goes in the audit log.
  app.post('/emulator/settings', async (c, next) => {
    await next();
    if (c.res.ok)
      await identity
        .audit({ actor: identityOf(c), action: 'settings.change', target: 'emulator' })
        .catch((error: Error) => console.error(`[audit] ${error.message}`));
  });

  // The log only: a callback moves no task by itself, it makes the console ask the service (hints).
  const store = new CallbackStore(database);
  // This console's own host names: the in-process emulator's media (and the inbox) are served here.
  const ownHosts = new Set(['localhost', '127.0.0.1', '::1']);
  if (config.publicBaseUrl) ownHosts.add(bareHost(new URL(config.publicBaseUrl).hostname));
  const resultOrigins = new Set([
    ...(config.apiBaseUrl ? [new URL(config.apiBaseUrl).origin] : []),
    ...(config.mediaOrigins ?? []),
  ]);
  const ownOrigin = config.publicBaseUrl ?? 'http://localhost';
  // The server follows every unfinished task itself (server/follow): through this app, as a
  // browser's status query would go, so the proxy adds the token (or the emulator answers) and the
  // traffic recorder records the answer like any status answer.
  const follower = createFollower({
    database,
    ask: async (kind, id) =>
      app.fetch(
        new Request(`${ownOrigin}${STATUS_PATHS[kind](id)}`, { headers: { accept: 'application/json' } }),
        { [IDENTITY_KEY]: SYSTEM_IDENTITY },
      ),
    ratePerSecond: config.followRatePerSecond ?? DEFAULT_FOLLOW_RATE_PER_SECOND,
    // No status query for the kind here: a callback already received is the only news there will be.
    onEnded: async (id, end) => {
      if (end === 'unavailable') await hints.noStatusQuery(id, ownOrigin);
    },
  });
  const hints = createCallbackHints({
    database,
    askSoon: () => follower.wake(),
    // The service's results come from its own origin or MEDIA_ORIGINS (which the page's CSP lets
    // media load from); the emulator's from this console's /emulator/ paths.
    trustedResultUrl: (url, origin) =>
      config.apiBaseUrl
        ? resultOrigins.has(url.origin)
        : (url.origin === new URL(origin).origin || ownHosts.has(bareHost(url.hostname))) &&
          url.pathname.startsWith('/emulator/'),
  });
  // One allowance of event streams for both kinds (callbacks, tasks): per session and in total.
  const streams = createStreamLimits({ perSession: config.streamsPerSession, total: config.streamsTotal });
  const inbox = createCallbackInbox({
    dataDir: config.dataDir,
    secret: config.callbackSecret,
    ratePerSecond: config.callbackRateLimit,
    trustedProxies: config.trustedProxies,
    store,
    streams,
    hints,
  });
  closers.push(async () => {
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
  });
  app.route('/', inbox.app);
  // Registered before the proxy or the emulator, so it sees every /v1 answer they give. A callback
  // can beat the creation answer: once the tasks are recorded, one already logged is looked at.
  const recorder = createTaskRecorder(database);
  const recordCreated = recorder.created;
  recorder.created = async (...args) => {
    await recordCreated(...args);
    follower.wake();
    const ids = args[2].map((task) => task.id);
    // "Save to board" on a creation form: the new tasks join the board as recorded.
    const boardId = args[5]?.boardId;
    if (boardId) await boardRoutes.addCreated(boardId, ids, args[3]);
    await hints.created(ids, ownOrigin);
  };
  // Spending limits (server/limits): a creation past one is refused before it reaches the proxy or
  // the emulator; one that fits is held until the recorder (inside) has recorded its tasks.
  const limits = limitsGuard(database, {
    now: options.now,
    offeredLanguages: offeredLanguagesOf(config, app),
  });
  const record = recordTraffic(recorder, inbox.path);
  app.use('/v1/*', limits);
  app.use('/v1/*', record);
  // Result downloads (server/tasks/download.ts): through the outbound guard; the in-process
  // emulator's media are answered here.
  // The service's own origin and MEDIA_ORIGINS, which an admin configured, are trusted wherever they
  // are (a team's service or media on its own network); every other address must be public.
  const resultFetch = createGuardedFetch({
    local: (url, init) =>
      ownHosts.has(bareHost(url.hostname)) && /^\/emulator\/(media|samples)\//.test(url.pathname)
        ? app.fetch(new Request(url, init))
        : config.apiBaseUrl && resultOrigins.has(url.origin)
          ? fetch(url, { ...init, redirect: 'manual' })
          : undefined,
  });
  // A kept or removed file changes the task's view: the Tasks screen hears of it like any change.
  const announceTask = (taskId: string) => {
    void database
      .then(({ db }) => sql`select pg_notify(${TASKS_CHANNEL}, ${taskId})`.execute(db))
      .catch(() => undefined);
  };
  // Result files kept in the team's store (server/results): copied through the same guard.
  const resultStore = options.resultStore
    ? Promise.resolve(options.resultStore)
    : openResultStore(config.results, config.dataDir);
  resultStore.catch((error: Error) => console.error(`[results] store: ${error.message}`));
  const results = createCopyJob({
    database,
    store: resultStore,
    fetch: resultFetch,
    maxBytes: config.results?.maxBytes ?? 5000 * 1024 * 1024,
    keepDays: config.results?.keepDays,
    onKept: announceTask,
  });
  // Webhooks told when a request ends (server/notify): to public addresses through the same guard,
  // or to the team's own network where WEBHOOK_PRIVATE_ORIGINS names it.
  const privateWebhookOrigins = new Set(config.webhookPrivateOrigins ?? []);
  const webhooks = createWebhookSender({
    database,
    publicBaseUrl: config.publicBaseUrl,
    fetch: createGuardedFetch({
      local: (url, init) => (privateWebhookOrigins.has(url.origin) ? fetch(url, init) : undefined),
    }),
  });
  const recordStatus = recorder.status;
  recorder.status = async (...args) => {
    const written = await recordStatus(...args);
    if (written && args[2].status === 'SUCCEEDED') results.wake();
    if (written && isTerminalStatus(String(args[2].status))) webhooks.wake();
    return written;
  };
  if (options.sendWebhooks ?? !options.database) {
    void database.then(() => webhooks.start()).catch(() => undefined);
  }
  app.route('/', createWebhookRoutes(database, identity));
  if (options.keepResults ?? !options.database) {
    void database.then(() => results.start()).catch(() => undefined);
  }
  if (options.followTasks ?? !options.database) {
    void database.then(() => follower.start()).catch(() => undefined);
  }
  // Removing a task's kept files is an admin's action: it goes in the audit log.
  app.delete('/__console/results/:task', async (c, next) => {
    await next();
    if (c.res.ok)
      await identity
        .audit({ actor: identityOf(c), action: 'results.remove', target: c.req.param('task') })
        .catch((error: Error) => console.error(`[audit] ${error.message}`));
  });
  app.route('/', createResultRoutes(database, resultStore, announceTask));
  const taskRoutes = createTaskRoutes(database, streams, resultFetch, resultStore);
  app.route('/', taskRoutes.app);
  app.route('/', createFollowRoutes(database, follower));
  // Stars and boards (server/boards), live on every instance through their own channel.
  const boardRoutes = createBoardRoutes(database, streams, resultFetch, resultStore);
  app.route('/', boardRoutes.app);
  // Share links (server/shares): made by creators, opened by visitors with no account.
  app.route('/', createShareRoutes(database, { now: options.now, publicBaseUrl: config.publicBaseUrl }));
  app.route(
    '/',
    createShareVisitorRoutes(database, resultStore, {
      now: options.now,
      trustedProxies: config.trustedProxies,
    }),
  );
  // Comments and decisions on results (server/reviews): a change is announced as a change of the
  // task (its cards, its page, its request's page) and of the boards holding it (their pages).
  app.route(
    '/',
    createReviewRoutes(database, async (trx, taskId) => {
      await sql`select pg_notify(${TASKS_CHANNEL}, ${taskId})`.execute(trx);
      await announceBoardsHolding(trx, taskId);
    }),
  );
  app.route('/', createInsightsRoutes(database));
  // Previews of pasted external images (server/preview): through the same guard as downloads.
  app.route('/', createPreviewRoutes(resultFetch));
  app.route('/', createLimitsRoutes(database, identity, { now: options.now }));

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
  const marker = consoleInboxMarker(inboxUrl, inbox.path.slice('/callbacks/'.length));
  app.use('/v1/*', ...marker);

  app.get('/__console/config', (c) => {
    // The in-process emulator reaches the inbox at the address the browser used; a real service
    // needs PUBLIC_BASE_URL, the console's address as seen from the internet. The browser gets it
    // without the secret: it sends the marker, and the server fills the address in (above).
    const callbackUrl = inboxUrl(c);
    const info: ConsoleInfo = {
      ...backend,
      callbackAddress: callbackUrl && `${new URL(callbackUrl).origin}/callbacks/…`,
      callbackUrlReachable: Boolean(callbackUrl),
      uploadMaxBytes: config.uploadMaxBytes,
    };
    const who = identityOf(c);
    if (who) info.user = { id: who.userId, name: who.name, role: who.role, source: who.source };
    return c.json(info, 200, NO_STORE);
  });

  // Each person's uploaded bytes per day, counted in the database every instance shares.
  const uploadTallies = databaseUploadTallies(database);
  let v1Get: NodeApp['v1Get'];
  if (config.apiBaseUrl) {
    const proxyOptions = {
      apiBaseUrl: config.apiBaseUrl,
      apiToken: config.apiToken,
      uploadMaxBytes: config.uploadMaxBytes,
      uploadQuota: new UploadQuota(config.uploadQuotaBytesPerDay, Date.now, uploadTallies),
    };
    const proxy = createProxyHandlers(proxyOptions);
    app.route('/', createProxyApp(proxyOptions, proxy));
    // Every handler this app runs for a GET under /v1 (node-app.test.ts checks the router agrees).
    v1Get = chain([sameSite, access, bodyLimits.middleware, limits, record, ...marker, ...proxy]);
  } else {
    // The emulator fetches reference images and POSTs callbacks on anyone's word: only public
    // addresses, except this console's own media and inbox, which are answered in-process.
    const local = createEmulator({
      dataDir: config.dataDir,
      uploadMaxBytes: config.uploadMaxBytes,
      ...(config.uploadQuotaBytesPerDay && { uploadQuotaBytesPerDay: config.uploadQuotaBytesPerDay }),
      ...(config.uploadDiskMaxBytes && { uploadDiskMaxBytes: config.uploadDiskMaxBytes }),
      uploadTallies,
      fetch: createGuardedFetch({
        local: (url, init) =>
          ownHosts.has(bareHost(url.hostname)) && OWN_PATHS.test(url.pathname)
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
