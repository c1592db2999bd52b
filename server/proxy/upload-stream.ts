// The upload path's plumbing: the browser's multipart body goes on to the service as Node streams,
// chunk by chunk with backpressure, so the console holds a few chunks of a file, never the file.
// Measured (scripts/bench-upload.ts): fetch() held the whole body, because fetch clones a request
// whose redirect mode is not "error" (ours is "manual") and the clone tees the body stream; the
// branch nobody reads keeps every chunk until the request ends. undici's request() has no such step.
import type { Context } from 'hono';
import { IncomingMessage, ServerResponse } from 'node:http';
import { finished, Readable, Transform } from 'node:stream';
import { ReadableStream as NodeWebStream } from 'node:stream/web';
import { request } from 'undici';
import { browserGoneSignal } from '../http/node-request';
import { UploadRefused, type UploadAllowance } from '../http/upload-quota';

/** Only its class is read (proxy.ts answers 413); it is never shown. */
class UploadTooLarge extends RangeError {}

interface NodeSide {
  incoming: IncomingMessage;
  /** Aborts when the browser goes away before its answer was sent. */
  signal: AbortSignal;
}

/**
 * The socket itself when nothing has read from it yet: both mounts hand Hono the IncomingMessage as
 * `c.env.incoming`. Web streams in between cost throughput (about 165 against 245 MB/s measured),
 * but once anything has touched `c.req.raw` body or signal, Hono's own reader owns the bytes, so
 * neither is touched here.
 */
function nodeSide(c: Context): NodeSide | undefined {
  const { incoming, outgoing } = (c.env ?? {}) as { incoming?: unknown; outgoing?: unknown };
  if (!(incoming instanceof IncomingMessage) || !(outgoing instanceof ServerResponse)) return undefined;
  if (incoming.readableFlowing !== null || incoming.readableDidRead) return undefined;
  return { incoming, signal: browserGoneSignal(outgoing) };
}

/**
 * The request body as a Node stream that errors with UploadTooLarge the moment more than `maxBytes`
 * went through, or with UploadRefused the moment `allowance` (the person's day, server/http/upload-quota.ts)
 * refuses a chunk; and the signal that aborts the upstream request when the browser goes away.
 * `exceeded()` is that error, once there is one.
 */
export async function limitedUploadBody(c: Context, maxBytes: number, allowance?: UploadAllowance) {
  // Touching `c.req.raw` earlier starts Hono's reader only once pending callbacks ran: let them run
  // first, so a reader already on its way is seen (below) rather than raced.
  await new Promise(setImmediate);
  const node = nodeSide(c);
  const web = node ? undefined : c.req.raw.body;
  const source = node?.incoming ?? (web ? Readable.fromWeb(web as NodeWebStream<Uint8Array>) : undefined);
  if (!source) return undefined;
  let seen = 0;
  let exceeded: UploadTooLarge | UploadRefused | undefined;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.byteLength;
      const charged = seen <= maxBytes ? allowance?.take(chunk.byteLength) : undefined;
      // The next chunk waits for this one's charge: a stream's charges happen one at a time.
      void Promise.resolve(charged).then(
        (refusal) => {
          if (seen <= maxBytes && !refusal) return done(null, chunk);
          exceeded = refusal ? new UploadRefused(refusal) : new UploadTooLarge();
          // The socket is left to the server, which answers 413 and drains or closes the connection;
          // a web stream is cancelled so nothing pulls it further.
          if (!node) source.destroy();
          done(exceeded);
        },
        (error: Error) => done(error),
      );
    },
  });
  finished(source, (error) => {
    if (error) body.destroy(error);
  });
  source.pipe(body);
  // A second reader of the socket would take chunks out of the middle of the file: fail loudly
  // instead. (A web body's Node stream is this function's own, so the watch never fires there.)
  const secondReader = (event: string) => {
    if (event === 'data') body.destroy(new Error('Something else started reading the upload'));
  };
  source.on('newListener', secondReader);
  body.once('close', () => source.off('newListener', secondReader));
  return { body, exceeded: () => exceeded, signal: node?.signal ?? c.req.raw.signal };
}

/**
 * A `fetch`-shaped sender on undici's request(): it never follows redirects, and streams a Node
 * Readable body with backpressure. Only what the proxy passes is supported: a POST to a string URL.
 */
export async function sendUpload(url: string, init: RequestInit): Promise<Response> {
  const { statusCode, headers, body } = await request(url, {
    method: 'POST',
    headers: Object.fromEntries(new Headers(init.headers)),
    body: init.body as unknown as Readable,
    signal: init.signal ?? undefined,
  });
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    // Stryker disable next-line ArrayDeclaration: undici gives no header an undefined value
    for (const item of [value ?? []].flat()) responseHeaders.append(name, item);
  }
  // These statuses carry no body, and Response refuses one for them.
  const empty = statusCode === 204 || statusCode === 205 || statusCode === 304;
  // Stryker disable next-line ConditionalExpression: such a body is already at its end (there are no bytes to drain), and the web stream's reader takes a body over whether it flows or not
  if (empty) body.resume();
  // Not Readable.toWeb: on Node 20 its stream throws on data arriving after a cancel.
  return new Response(empty ? null : (NodeWebStream.from(body) as ReadableStream<Uint8Array>), {
    status: statusCode,
    headers: responseHeaders,
  });
}
