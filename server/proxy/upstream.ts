// The proxy's way to the service. Status polls are most of its traffic (every open gallery asks
// every few seconds), so their path does no work that can be done once: one keep-alive agent for
// the whole process (no new connection per poll), undici's request() rather than WHATWG fetch (no
// Request, Response, Headers or web stream per poll: fetch cost ~4x the rest of a poll, measured in
// docs/performance.md), and a small answer is read whole, so the console answers it with a byte
// buffer (written to the socket in one go) that the task recorder reads without a copy.
import { Agent, util, type Dispatcher } from 'undici';

/** Answers up to this size are read whole before being passed on; larger ones stream through. */
const BUFFERED_ANSWER_BYTES = 1024 * 1024;

/** Connections to the service at once; polls beyond wait in the agent's queue. */
const UPSTREAM_CONNECTIONS = 128;

/** What the proxy needs of the service's answer, whichever way it was sent. */
export interface Upstream {
  status: number;
  header(name: string): string | undefined;
  /** The body, chunk by chunk (empty for a body-less status). */
  chunks: AsyncIterator<Uint8Array>;
  /** The whole body, when it was read before the answer was handed over (at most 1 MB). */
  bytes?: Buffer;
  /** Drops the body unread. */
  discard(): Promise<void>;
}

interface UpstreamRequest {
  method: string;
  headers: Record<string, string>;
  body?: Uint8Array;
  timeoutMs: number;
}

/** Raised for a service that did not answer (or stopped sending) within the timeout. */
class UpstreamTimeout extends Error {
  override name = 'TimeoutError';
}

let agent: Agent | undefined;

/** Chunks of a large answer read ahead of the browser before the service is paused. */
const STREAM_AHEAD = 4;

/**
 * One agent for the process: keep-alive connections to the service, reused by every poll.
 * Redirects are never followed (request() does not follow them without an interceptor).
 */
function upstreamAgent(): Agent {
  return (agent ??= new Agent({ connections: UPSTREAM_CONNECTIONS, keepAliveTimeout: 10_000 }));
}

/** A large answer's body as it arrives: the chunks held until read, and the service's side of it. */
interface ArrivingBody {
  held: Buffer[];
  /** The service is paused: STREAM_AHEAD chunks are held unread. */
  paused: boolean;
  ended: boolean;
  failure: unknown;
  /** Wakes a reader waiting for the next chunk. */
  wake: (() => void) | undefined;
  resume(): void;
  abort(reason?: Error): void;
}

function wakeReader(body: ArrivingBody) {
  body.wake?.();
  body.wake = undefined;
}

/** The chunks of a large answer, read as they are asked for: the service resumes once few are held. */
function chunksAsTheyArrive(body: ArrivingBody): AsyncIterator<Uint8Array> {
  return {
    next: async () => {
      for (;;) {
        const chunk = body.held.shift();
        if (chunk) {
          if (body.paused && body.held.length < STREAM_AHEAD) {
            body.paused = false;
            // Never from inside undici's parser, which this may be called from.
            queueMicrotask(body.resume);
          }
          return { done: false, value: chunk };
        }
        if (body.failure) throw body.failure;
        if (body.ended) return { done: true, value: undefined };
        await new Promise<void>((resolve) => (body.wake = resolve));
      }
    },
    return: async () => {
      if (!body.ended) body.abort(new Error('The answer was not read'));
      body.held.length = 0;
      return { done: true, value: undefined };
    },
  };
}

/** An answer whose body came whole: its chunks are that one buffer. */
function wholeAnswer(status: number, header: Upstream['header'], bytes: Buffer): Upstream {
  let unread = true;
  return {
    status,
    header,
    bytes,
    chunks: {
      next: async () =>
        unread && bytes.byteLength
          ? ((unread = false), { done: false, value: bytes })
          : { done: true, value: undefined },
    },
    discard: async () => undefined,
  };
}

/**
 * Asks the service. The answer is handed over once its body has come whole when that body is at most
 * BUFFERED_ANSWER_BYTES (`bytes`: a status answer, a few hundred bytes), or else as soon as it is
 * known to be larger, streamed from there with back-pressure. undici's dispatcher is driven directly:
 * request() would make a Node stream and an async iterator per status poll for a body read whole.
 */
export function sendToService(url: string, init: UpstreamRequest): Promise<Upstream> {
  const { origin, pathname, search } = new URL(url);
  return new Promise<Upstream>((resolve, reject) => {
    let status = 0;
    let headers: Record<string, string | string[] | undefined> = {};
    const header = (name: string) => {
      const value = headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    const body: ArrivingBody = {
      held: [],
      paused: false,
      ended: false,
      failure: undefined,
      wake: undefined,
      resume: () => {},
      abort: () => {},
    };
    let size = 0;
    let handedOver = false;
    let streaming = false;
    /** Larger than read whole: handed over now, the rest read as it is asked for (4 chunks ahead). */
    const streamed = () => {
      handedOver = streaming = true;
      const chunks = chunksAsTheyArrive(body);
      resolve({ status, header, chunks, discard: async () => void (await chunks.return?.()) });
    };
    const handler: Dispatcher.DispatchHandler = {
      onConnect: (abortRequest) => {
        body.abort = abortRequest;
      },
      onHeaders: (statusCode, rawHeaders, resumeBody) => {
        status = statusCode;
        headers = util.parseHeaders(rawHeaders);
        body.resume = resumeBody;
        if (Number(header('content-length') ?? 0) > BUFFERED_ANSWER_BYTES) streamed();
        return true;
      },
      onData: (chunk) => {
        // undici hands over empty chunks too (flushing its parser on resume): nothing to keep.
        if (chunk.byteLength === 0) return !body.paused;
        body.held.push(chunk);
        if (streaming) {
          wakeReader(body);
          body.paused = body.held.length >= STREAM_AHEAD;
          return !body.paused;
        }
        size += chunk.byteLength;
        if (size > BUFFERED_ANSWER_BYTES) streamed();
        return true;
      },
      onComplete: () => {
        if (streaming) {
          body.ended = true;
          return wakeReader(body);
        }
        handedOver = true;
        resolve(wholeAnswer(status, header, Buffer.concat(body.held, size)));
      },
      onError: (error) => {
        if (!handedOver) return reject(timeoutOr(error));
        body.failure = timeoutOr(error);
        wakeReader(body);
      },
    };
    // Redirects are never followed: the dispatcher has no redirect interceptor.
    upstreamAgent().dispatch(
      {
        origin,
        path: pathname + search,
        method: init.method as Dispatcher.HttpMethod,
        headers: init.headers,
        body: init.body,
        headersTimeout: init.timeoutMs,
        bodyTimeout: init.timeoutMs,
      },
      handler,
    );
  });
}

function timeoutOr(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT'
    ? new UpstreamTimeout('The service did not answer in time')
    : error;
}

/** A `fetch`-shaped sender's answer (tests, the upload path) as an Upstream. */
export function upstreamOfResponse(response: Response): Upstream {
  const body = response.body;
  const none: AsyncIterator<Uint8Array> = { next: async () => ({ done: true, value: undefined }) };
  const chunks = body ? (body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]() : none;
  return {
    status: response.status,
    header: (name) => response.headers.get(name) ?? undefined,
    chunks,
    // The iterator holds the body's reader, so body.cancel() would be refused: its return() cancels.
    discard: async () => void (await chunks.return?.().catch(() => undefined)),
  };
}

/**
 * The answer's body: whole (`bytes`) when it is at most `max` bytes, else (`stream`) what was read
 * followed by the rest, pulled as the browser reads it, so a large answer is never held.
 */
export async function readAnswer(
  upstream: Upstream,
  max = BUFFERED_ANSWER_BYTES,
): Promise<{ bytes: Buffer } | { stream: ReadableStream<Uint8Array> }> {
  if (upstream.bytes && upstream.bytes.byteLength <= max) return { bytes: upstream.bytes };
  const declared = Number(upstream.header('content-length') ?? 0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const { chunks: source } = upstream;
  try {
    while (declared <= max) {
      const next = await source.next();
      if (next.done) return { bytes: Buffer.concat(chunks, size) };
      chunks.push(next.value);
      size += next.value.byteLength;
      if (size > max) break;
    }
  } catch (error) {
    throw timeoutOr(error);
  }
  return {
    stream: new ReadableStream<Uint8Array>({
      async pull(controller) {
        const held = chunks.shift();
        if (held) return controller.enqueue(held);
        const next = await source.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await source.return?.();
      },
    }),
  };
}
