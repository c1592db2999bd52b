// The proxy's way to the service. Status polls are most of its traffic (every open gallery asks
// every few seconds), so their path does no work that can be done once: one keep-alive agent for
// the whole process (no new connection per poll), undici's request() rather than WHATWG fetch (no
// Request, Response, Headers or web stream per poll: fetch cost ~4x the rest of a poll, measured in
// docs/performance.md), and a small answer is read whole, so the console answers it with a byte
// buffer (written to the socket in one go) that the task recorder reads without a copy.
import { Agent, request } from 'undici';

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

/**
 * One agent for the process: keep-alive connections to the service, reused by every poll.
 * Redirects are never followed (request() does not follow them without an interceptor).
 */
function upstreamAgent(): Agent {
  return (agent ??= new Agent({ connections: UPSTREAM_CONNECTIONS, keepAliveTimeout: 10_000 }));
}

export async function sendToService(url: string, init: UpstreamRequest): Promise<Upstream> {
  try {
    const { statusCode, headers, body } = await request(url, {
      method: init.method as 'GET',
      headers: init.headers,
      body: init.body,
      dispatcher: upstreamAgent(),
      headersTimeout: init.timeoutMs,
      bodyTimeout: init.timeoutMs,
    });
    return {
      status: statusCode,
      header: (name) => {
        const value = headers[name];
        return Array.isArray(value) ? value.join(', ') : value;
      },
      chunks: (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator](),
      // Reads a little of it so the connection can be kept, or closes it; never an unhandled error.
      discard: () => body.dump().catch(() => undefined),
    };
  } catch (error) {
    throw timeoutOr(error);
  }
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
  return {
    status: response.status,
    header: (name) => response.headers.get(name) ?? undefined,
    chunks: body ? (body as unknown as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]() : none,
    discard: async () => {
      await body?.cancel().catch(() => undefined);
    },
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
