// A callback's body as text, cut off past a size limit. Served by Node, both mounts hand Hono the
// IncomingMessage as `c.env.incoming`, and the body is read from it directly: the web Request that
// `c.req.text()` (and Hono's bodyLimit, which asks for `c.req.raw.body`) reads through costs an
// AbortSignal, Headers and a web stream over the socket, ~0.1 ms of the main thread per callback,
// about a third of what a callback costs there. Anything else (tests, a request someone already
// started reading) goes through the web body, with the same limit.
import type { Context } from 'hono';
import { IncomingMessage } from 'node:http';

/** Past the limit: the rest is left to the server (it drains or closes the connection). */
export const TOO_LARGE = Symbol('too large');

export async function readBodyText(c: Context, maxBytes: number): Promise<string | typeof TOO_LARGE> {
  if (Number(c.req.header('content-length')) > maxBytes) return TOO_LARGE;
  const { incoming } = (c.env ?? {}) as { incoming?: unknown };
  const chunks =
    incoming instanceof IncomingMessage && incoming.readableFlowing === null && !incoming.readableDidRead
      ? await readNode(incoming, maxBytes)
      : await readWeb(c.req.raw.body, maxBytes);
  // TextDecoder, as Request.text() decodes: UTF-8, a leading byte order mark dropped.
  return chunks === TOO_LARGE ? TOO_LARGE : new TextDecoder().decode(Buffer.concat(chunks));
}

function readNode(incoming: IncomingMessage, maxBytes: number): Promise<Uint8Array[] | typeof TOO_LARGE> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const done = (result: Uint8Array[] | typeof TOO_LARGE | Error) => {
      incoming.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (result instanceof Error) reject(result);
      else resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > maxBytes) {
        incoming.pause();
        done(TOO_LARGE);
      } else chunks.push(chunk);
    };
    const onEnd = () => done(chunks);
    const onError = (error: Error) => done(error);
    const onClose = () => done(new Error('The sender went away before the body ended'));
    incoming.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

async function readWeb(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): Promise<Uint8Array[] | typeof TOO_LARGE> {
  const chunks: Uint8Array[] = [];
  if (!body) return chunks;
  const reader = body.getReader();
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return TOO_LARGE;
    }
    chunks.push(value);
  }
}
