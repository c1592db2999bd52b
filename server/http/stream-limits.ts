// Limits of the Node side's event streams (the callback stream and the task stream), shared by both:
// how many may be open per session and in total, and how much a stream may hold for a client that
// does not read. An open stream costs a socket (a file handle) and, while its client does not read,
// whatever is queued for it: without these limits one signed-in teammate could use up the file
// handles with thousands of streams, or the memory with streams that never read.
import type { Context } from 'hono';
import { streamSSE, type SSEMessage, type SSEStreamingApi } from 'hono/streaming';
import { clientKey } from './client-address';

const DEFAULT_STREAMS_PER_SESSION = 8;
const DEFAULT_STREAMS_TOTAL = 200;
/** A write not taken by the socket within this time means the client has stopped reading. */
const STREAM_STALL_MS = 30_000;
/**
 * Context (or env) key of the signed-in session's id, set by the sign-in guard (server/auth/auth.ts) and
 * handed to the Node side by server/app/prod-app.ts. Only a verified session counts as one: a cookie the
 * client made up would otherwise be a fresh allowance each time.
 */
// Stryker disable next-line StringLiteral: fixed at load, before a test can switch the mutant on; the guard's test holds its value
export const SESSION_ID_KEY = 'consoleSessionId';

export interface StreamLimitsOptions {
  /** STREAMS_PER_SESSION: open streams per session (or per client address without a sign-in). */
  perSession?: number;
  /** STREAMS_TOTAL: open streams of this process. */
  total?: number;
  /**
   * Bytes queued for one stream (written but not yet taken by its socket) beyond which the stream is
   * dropped; 2 MiB unless set. One event is always let through whatever its size (a callback may be
   * 1 MB), so a stream holds at most this much plus one event. A burst of task changes is queued at
   * once for every stream (a group commit names up to 200 tasks of a few KB): well under this.
   */
  maxPendingBytes?: number;
  stallMs?: number;
}

export interface StreamStats {
  /** Streams open now. */
  open: number;
  /** Bytes queued for all open streams and not yet taken by their sockets. */
  pendingBytes: number;
  /** The most `pendingBytes` has been since the limits were made. */
  peakPendingBytes: number;
  /** Streams dropped because their client did not read. */
  dropped: number;
}

export interface StreamLimits {
  readonly perSession: number;
  readonly total: number;
  readonly maxPendingBytes: number;
  readonly stallMs: number;
  stats(): StreamStats;
  /** Takes a slot for `key`, or says why not. */
  acquire(key: string): { release(): void } | { status: 429 | 503 };
  /** Internal: pending bytes of every stream, for stats(). */
  addPending(bytes: number): void;
  countDrop(): void;
}

export function createStreamLimits(options: StreamLimitsOptions = {}): StreamLimits {
  const perSession = options.perSession ?? DEFAULT_STREAMS_PER_SESSION;
  const total = options.total ?? DEFAULT_STREAMS_TOTAL;
  const byKey = new Map<string, number>();
  let open = 0;
  let pendingBytes = 0;
  let peakPendingBytes = 0;
  let dropped = 0;
  return {
    perSession,
    total,
    // Written here rather than as a constant: a value fixed at load could not be told wrong by a test.
    maxPendingBytes: options.maxPendingBytes ?? 2 * 1024 * 1024,
    stallMs: options.stallMs ?? STREAM_STALL_MS,
    stats: () => ({ open, pendingBytes, peakPendingBytes, dropped }),
    acquire(key) {
      const mine = byKey.get(key) ?? 0;
      // The session's own cap first: one teammate's many streams are their problem (429), not the
      // server's being full (503).
      if (mine >= perSession) return { status: 429 };
      if (open >= total) return { status: 503 };
      byKey.set(key, mine + 1);
      open++;
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          open--;
          const left = (byKey.get(key) ?? 1) - 1;
          // Stryker disable next-line ConditionalExpression,EqualityOperator: a count of 0 kept reads as no entry; deleting it only frees the map's memory
          if (left > 0) byKey.set(key, left);
          else byKey.delete(key);
        },
      };
    },
    addPending(bytes) {
      pendingBytes += bytes;
      peakPendingBytes = Math.max(peakPendingBytes, pendingBytes);
    },
    countDrop() {
      dropped++;
    },
  };
}

/** Whose allowance a stream counts against: the verified session, else the client's address. */
function streamOwner(c: Context): string {
  const env = c.env as Record<string, unknown> | undefined;
  const session = env?.[SESSION_ID_KEY] ?? c.get(SESSION_ID_KEY as never);
  if (typeof session === 'string' && session) return `session:${session}`;
  return `client:${clientKey(c)}`;
}

/** An event stream whose writes never wait on, nor pile up for, a client that does not read. */
export interface BoundedStream {
  /**
   * Queues an event and resolves true once its socket has taken it, false when the stream is gone
   * (then nothing more should be sent). Queuing past the pending bound drops the stream instead:
   * a fan-out may call this without awaiting; a catch-up awaits each write so it holds one at a time.
   */
  send(message: SSEMessage): Promise<boolean>;
  /** A comment line (heartbeat), through the same queue. */
  comment(text: string): Promise<boolean>;
  /** True once the stream has ended or was dropped. */
  readonly closed: boolean;
  /** The underlying Hono stream (for its onAbort). */
  readonly stream: SSEStreamingApi;
}

const RETRY_AFTER_S = { 429: 10, 503: 30 } as const;

function refuse(c: Context, status: 429 | 503, limits: StreamLimits) {
  const msg =
    status === 429
      ? `Too many open event streams for this session (at most ${limits.perSession}); close a tab or try again later`
      : `The server has too many open event streams (at most ${limits.total}); try again later`;
  return c.json({ code: status, msg }, status, {
    'retry-after': String(RETRY_AFTER_S[status]),
    'cache-control': 'no-store',
    // A refused stream's socket is not kept alive either: thousands of refused requests must not
    // leave thousands of idle connections (file handles) behind.
    connection: 'close',
  });
}

/** What the event's frame costs in memory (hono's writeSSE adds a few bytes of field names). */
export function frameBytes(message: SSEMessage): number {
  const data = typeof message.data === 'string' ? message.data : '';
  return Buffer.byteLength(data) + (message.event?.length ?? 0) + String(message.id ?? '').length + 32;
}

/** The Node response under the request, when there is one (@hono/node-server's env binding). */
function nodeResponse(c: Context): { destroy(error?: Error): unknown } | undefined {
  const outgoing = (c.env as { outgoing?: unknown } | undefined)?.outgoing;
  return outgoing && typeof (outgoing as { destroy?: unknown }).destroy === 'function'
    ? (outgoing as { destroy(error?: Error): unknown })
    : undefined;
}

/**
 * `streamSSE` within the limits: past the session's cap a 429, past the total a 503 (JSON, with
 * Retry-After), never a stream that hangs. The slot is given back when `run` returns, which it must
 * do once the stream ends (see holdOpen). `name` only labels the log line of a dropped stream.
 */
export function boundedSSE(
  c: Context,
  limits: StreamLimits,
  name: string,
  run: (out: BoundedStream) => Promise<void>,
): Response | Promise<Response> {
  const owner = streamOwner(c);
  const slot = limits.acquire(owner);
  if ('status' in slot) return refuse(c, slot.status, limits);
  return streamSSE(c, async (stream) => {
    let closed = false;
    let pending = 0;
    let queued = 0;
    let tail: Promise<unknown> = Promise.resolve();
    let stall: ReturnType<typeof setTimeout> | undefined;

    const drop = (reason: string) => {
      // Stryker disable next-line ConditionalExpression: every path that sets closed also ends the stall timer, the one caller that could come after
      if (closed) return;
      // Stryker disable next-line BooleanLiteral: stream.abort() below sets it as well, through onAbort
      closed = true;
      clearTimeout(stall);
      limits.countDrop();
      console.warn(`[streams] dropped a ${name} stream (${reason})`);
      // Ending the web stream is not enough: a client that does not read never drains the socket, so
      // the socket (and what Node still buffers for it) would stay. Destroying it frees both.
      nodeResponse(c)?.destroy();
      stream.abort();
    };

    const write = (bytes: number, perform: () => Promise<unknown>): Promise<boolean> => {
      if (closed) return Promise.resolve(false);
      if (queued > 0 && pending + bytes > limits.maxPendingBytes) {
        drop(`more than ${limits.maxPendingBytes} bytes waiting for a client that does not read`);
        return Promise.resolve(false);
      }
      pending += bytes;
      queued++;
      limits.addPending(bytes);
      const done = tail.then(async () => {
        if (closed) return false;
        // Hono's write resolves once the response stream has handed the bytes on, which
        // @hono/node-server does only while the socket accepts more (it waits for 'drain').
        stall = setTimeout(() => drop(`no write taken for ${limits.stallMs} ms`), limits.stallMs);
        // Stryker disable next-line OptionalChaining: Node's timers always have unref; the check is for other runtimes' typings
        stall.unref?.();
        try {
          await perform();
        } finally {
          clearTimeout(stall);
        }
        return !closed;
      });
      const settled = done.finally(() => {
        pending -= bytes;
        queued--;
        limits.addPending(-bytes);
      });
      tail = settled.catch(() => undefined);
      return settled.catch(() => false);
    };

    const out: BoundedStream = {
      send: (message) => write(frameBytes(message), () => stream.writeSSE(message)),
      // A heartbeat only keeps an idle stream open: behind a pending write it is not needed, and it
      // must not be what tips a healthy stream waiting on one large event over the bound.
      comment: (text) =>
        queued > 0 ? Promise.resolve(!closed) : write(text.length + 4, () => stream.write(`: ${text}\n\n`)),
      get closed() {
        // Stryker disable next-line LogicalOperator: abort() runs onAbort, which sets closed, and streamSSE closes the stream once run returns
        return closed || stream.aborted || stream.closed;
      },
      stream,
    };
    stream.onAbort(() => {
      closed = true;
      clearTimeout(stall);
    });
    try {
      await run(out);
    } finally {
      closed = true;
      clearTimeout(stall);
      slot.release();
    }
  });
}
