// The callback inbox as a Hono sub-app. The service POSTs completion callbacks to
// /callbacks/<secret>; the console reads them back as a list and as Server-Sent Events, at
// /__console/callbacks (CONSOLE_CALLBACKS_PATH), so the secret never has to reach a browser. A
// stored callback is a hint for its task, never its result (./hints.ts).
import { Hono, type Context } from 'hono';
import { clientKey } from '../http/client-address';
import type { TrustedProxies } from '../http/trusted-proxies';
import { readBodyText, TOO_LARGE } from './read-body';
import { createSenderLimit } from './sender-limit';
import {
  callbackBodySchema,
  CONSOLE_CALLBACKS_PATH,
  TASK_TYPES,
  type CallbackBody,
} from '../../src/api/schemas';
import { MAX_JSON_DEPTH, storableJson, TOO_DEEP } from '../db/storable';
import { requestOrigin } from '../http/request-origin';
import type { CallbackHints } from './hints';
import { resolveCallbackSecret, secretMatches } from './secret';
import type { StoredCallback } from './log-entry';
import type { CallbackStore } from './store';
import { databaseInputErrors, refuseUnstorableText } from '../http/request-text';
import { holdOpen } from '../http/sse-lifetime';
import { boundedSSE, createStreamLimits, type StreamLimits } from '../http/stream-limits';
import { NO_STORE } from '../http/no-store';

/** A callback body (the inbox and a callback added by hand): the documented 1 MB. */
export const CALLBACK_MAX_BYTES = 1024 * 1024;
/** Envelope code for a body that is not a valid callback (the interface's own validation code). */
const INVALID_CALLBACK_CODE = 100001;
const SSE_PAGE = 500;
const PAGE_MAX = 500;

interface CallbackInboxOptions {
  dataDir: string;
  /** CALLBACK_SECRET; when absent a secret is made once and kept in dataDir. */
  secret?: string;
  /** Per-sender brake (CALLBACK_RATE_LIMIT per second, burst 10× that); 0 turns it off. */
  ratePerSecond?: number;
  /** Peers whose X-Forwarded-For names the sender (TRUSTED_PROXIES); loopback when unset. */
  trustedProxies?: TrustedProxies;
  now?: () => number;
  store: CallbackStore;
  /** Caps on open event streams, shared with the task stream (server/http/stream-limits.ts). */
  streams?: StreamLimits;
  /** What a stored callback does to its task (the console's inbox); without it, the log only. */
  hints?: CallbackHints;
}

/**
 * One page of the log is at most this many bytes of JSON (at least one callback), whatever `limit`
 * says; the store loads no more than that (sizes first), it never loads a page and then trims it.
 */
export const PAGE_MAX_BYTES = 2 * 1024 * 1024;
/** One batch of an event stream's catch-up: a stream far behind holds at most this much at once. */
export const SSE_BATCH_MAX_BYTES = 2 * 1024 * 1024;
/**
 * Per sender, well above the ingest target (2,000/s): the service is one sender, and a legitimate
 * burst of its results must never be refused. The brake is for a runaway sender, not for load.
 */
export const DEFAULT_CALLBACK_RATE = 5000;

export interface CallbackInbox {
  app: Hono;
  /** `/callbacks/<secret>`: where the service POSTs. The events are at `${path}/events`. */
  path: string;
  store: CallbackStore;
  close(): Promise<void>;
}

/** `application/json` or a type built on it (`application/problem+json`), with parameters or none. */
function isJsonType(type: string): boolean {
  // The pattern is made here, not once at load, so that the mutation run can tell its variants apart.
  return /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type);
}

function fail(c: Context, status: 400 | 403 | 404 | 413 | 415 | 429, code: number, msg: string) {
  return c.json({ code, msg }, status);
}

function describeIssues(body: unknown, issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const taskType = (body as { task_type?: unknown } | null)?.task_type;
  if (!(TASK_TYPES as readonly unknown[]).includes(taskType)) {
    return `task_type must be one of ${TASK_TYPES.join(', ')}`;
  }
  return (
    issues
      .slice(0, 3)
      // Stryker disable next-line ConditionalExpression,StringLiteral: a body with a known task_type is an object, so each issue has a path; 'body' is only a fallback.
      .map((issue) => `${issue.path.length ? issue.path.join('.') : 'body'}: ${issue.message}`)
      .join('; ')
  );
}

function toEvent(entry: StoredCallback) {
  return { id: String(entry.id), event: 'callback', data: JSON.stringify(entry) };
}

export function createCallbackInbox(options: CallbackInboxOptions): CallbackInbox {
  const secret = resolveCallbackSecret(options.dataDir, options.secret);
  const { store } = options;
  const closeStreams = new Set<() => void>();
  const streams = options.streams ?? createStreamLimits();
  const app = new Hono();
  const path = `/callbacks/${secret}`;
  const rate = options.ratePerSecond ?? DEFAULT_CALLBACK_RATE;
  const senders = createSenderLimit({
    database: store.database,
    perSecond: rate,
    burst: rate * 10,
    now: options.now,
  });

  // Every route checks the secret first, so a wrong one looks exactly like a missing page. (The
  // pattern matches `/callbacks/<secret>` itself too.)
  app.use('/callbacks/:secret/*', async (c, next) => {
    if (!secretMatches(secret, c.req.param('secret'))) return fail(c, 404, 404, 'Not found');
    await next();
  });
  // The log's `task` filter goes into SQL: a NUL in it is a 400, never a database error.
  app.use('/callbacks/:secret/*', refuseUnstorableText());
  app.onError(databaseInputErrors('callbacks'));

  app.post(
    '/callbacks/:secret',
    async (c, next) => {
      const wait = await senders.take(clientKey(c, options.trustedProxies));
      if (wait > 0) {
        c.header('retry-after', String(wait));
        return fail(c, 429, 429, 'Too many callbacks from this sender; send it again later');
      }
      // Stryker disable next-line StringLiteral: no header and any text that is not a JSON type are refused alike.
      if (!isJsonType(c.req.header('content-type') ?? '')) {
        return fail(c, 415, 415, 'A callback must be sent with Content-Type: application/json');
      }
      await next();
    },
    (c) => receiveCallback(c, store, options.hints),
  );

  app.get('/callbacks/:secret/log', async (c) => {
    const before = Number(c.req.query('before'));
    const limit = Math.min(Math.max(Number(c.req.query('limit')) || 100, 1), PAGE_MAX);
    const task = c.req.query('task')?.trim() || undefined;
    const [page, lastId] = await Promise.all([
      store.page({
        before: Number.isInteger(before) && before > 0 ? before : undefined,
        limit,
        task,
        // A page is also capped by size (callbacks may be 1 MB each), as it is read.
        maxBytes: PAGE_MAX_BYTES,
      }),
      store.lastId(),
    ]);
    const { total, items } = page;
    return c.json({ code: 0, msg: 'ok', data: { total, lastId, items } }, 200, NO_STORE);
  });

  app.get('/callbacks/:secret/events', (c) => callbackEvents(c, store, streams, closeStreams));

  // The browser's door to the same routes, without the secret: POST a pasted callback, GET /log and
  // /events. The production server keeps it behind the sign-in (every /__console path is).
  // A page elsewhere cannot post callbacks through a signed-in browser: the app's one cross-site
  // rule (server/http/same-site.ts) refuses it before here.
  const forward = (c: Context) => {
    const url = new URL(c.req.url);
    url.pathname = `${path}${url.pathname.slice(CONSOLE_CALLBACKS_PATH.length)}`;
    // The same request at the inbox's own path; its signal goes along, so a stream whose
    // reader went away ends here too.
    const raw = c.req.raw;
    const init = {
      method: raw.method,
      headers: raw.headers,
      body: raw.body,
      signal: raw.signal,
      duplex: 'half',
    };
    // Without the Node request: its body now feeds `raw.body` (a web stream), and the inbox must
    // read that stream, not the socket beneath it. Read from both, the web stream pauses the socket
    // once its queue is full (about 64 KB) and the socket reader waits forever: a callback of
    // ~100 KB or more added by hand was never answered.
    const { incoming: _socket, ...env } = (c.env ?? {}) as Record<string, unknown>;
    return app.fetch(new Request(url, init as RequestInit), env);
  };
  app.post(CONSOLE_CALLBACKS_PATH, forward);
  app.get(CONSOLE_CALLBACKS_PATH, forward);
  app.get(`${CONSOLE_CALLBACKS_PATH}/log`, forward);
  app.get(`${CONSOLE_CALLBACKS_PATH}/events`, forward);

  // Anything else under /callbacks/ (no secret, unknown sub-path) is a plain JSON 404; the pattern
  // matches `/callbacks` itself too.
  app.all('/callbacks/*', (c) => fail(c, 404, 404, 'Not found'));

  return {
    app,
    path,
    store,
    async close() {
      for (const end of closeStreams) end();
    },
  };
}

/** The log as an event stream: what the client missed (from Last-Event-ID or `since`), then each new callback. */
function callbackEvents(
  c: Context,
  store: CallbackStore,
  streams: StreamLimits,
  closeStreams: Set<() => void>,
): Response | Promise<Response> {
  // EventSource sends Last-Event-ID itself on reconnect; `since` serves the first connection of a
  // page that remembers what it already applied.
  // `since=end` is a page with no past: it wants only what arrives from now on.
  const lastEventId = c.req.header('last-event-id');
  const since = c.req.query('since');
  return boundedSSE(c, streams, 'callback', async (out) => {
    const lastId = await store.lastId();
    const requested =
      lastEventId !== undefined ? Number(lastEventId) : since === 'end' ? lastId : Number(since ?? 0);
    let sent = Number.isInteger(requested) && requested > 0 ? requested : 0;
    // An id beyond the log means the log was reset (database emptied): send everything again.
    if (sent > lastId) sent = 0;
    // One catch-up at a time, and at most one more wanted: callbacks arriving while a client is
    // slow ask for one more pass, they never queue a pass each.
    let running: Promise<void> | undefined;
    let again = false;
    const catchUp = async () => {
      // In batches bounded by count and bytes: a client far behind never makes the server hold
      // the log at once. An empty batch means caught up (a short one may only have met the byte
      // bound); streams at the same position share each query. Each write is awaited, so a client
      // that does not read holds one batch until its stream is dropped (server/http/stream-limits.ts).
      while (!out.closed) {
        const batch = await store.since(sent, SSE_PAGE, SSE_BATCH_MAX_BYTES);
        if (!batch.length) return;
        for (const entry of batch) {
          if (!(await out.send(toEvent(entry)))) return;
          sent = entry.id;
        }
      }
    };
    const flush = (): Promise<void> => {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        do {
          again = false;
          await catchUp();
        } while (again && !out.closed);
      })().finally(() => (running = undefined));
      return running;
    };
    // Subscribe before the catch-up so nothing stored in between is missed; `sent` dedupes.
    const unsubscribe = store.subscribe(() => void flush().catch(() => out.stream.abort()));
    const open = holdOpen(out, closeStreams);
    try {
      await out.send({ event: 'ready', data: JSON.stringify({ lastId }), retry: 2000 });
      await flush();
      await open;
    } finally {
      unsubscribe();
    }
  });
}

/** Reads, checks and stores one callback; the reply says what becomes of its task. */
async function receiveCallback(c: Context, store: CallbackStore, hints: CallbackHints | undefined) {
  let body: unknown;
  try {
    const text = await readBodyText(c, CALLBACK_MAX_BYTES);
    if (text === TOO_LARGE) return fail(c, 413, 413, 'A callback body must be at most 1 MB');
    body = JSON.parse(text);
  } catch {
    return fail(c, 400, INVALID_CALLBACK_CODE, 'The body is not valid JSON');
  }
  const parsed = callbackBodySchema.safeParse(body);
  if (!parsed.success) return fail(c, 400, INVALID_CALLBACK_CODE, describeIssues(body, parsed.error.issues));
  // The raw body, not the parsed one: support staff must see exactly what the service sent,
  // save for text PostgreSQL cannot hold (U+0000, lone surrogates), written out as `\u0000`.
  const storable = storableJson(body);
  if (storable === TOO_DEEP)
    return fail(c, 400, INVALID_CALLBACK_CODE, `The body is nested more than ${MAX_JSON_DEPTH} levels deep`);
  try {
    const { entry, duplicate } = await store.append(storable as CallbackBody);
    // After the commit: the reply says what becomes of the task; a status check runs on its own.
    const task = await hints?.received(entry.body, requestOrigin(c)).catch((error: unknown) => {
      console.error(
        `[callbacks] could not look up the task of callback ${entry.id}: ${(error as Error).message}`,
      );
      return undefined;
    });
    return c.json({ code: 0, msg: 'ok', data: { id: entry.id, duplicate, ...(task && { task }) } });
  } catch (error) {
    // Not acknowledged, so the service delivers it again later; nothing is lost.
    console.error(`[callbacks] could not store a callback: ${(error as Error).message}`);
    return c.json({ code: 500, msg: 'The callback could not be stored; send it again later' }, 500);
  }
}
