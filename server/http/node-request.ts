// Handing a Node request on without reading it. @hono/node-server builds `c.req.raw` lazily from the
// IncomingMessage, and the moment its body or signal is touched, a web stream starts reading the
// socket; the upload path (server/proxy/upload-stream.ts) wants that socket untouched.
import type { ServerResponse } from 'node:http';

/** Aborts when the browser goes away before its answer was sent (what Hono's signal does too). */
export function browserGoneSignal(outgoing: ServerResponse): AbortSignal {
  const controller = new AbortController();
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) controller.abort(new Error('The browser went away'));
  });
  return controller.signal;
}

/** `request`'s body, touched only when something reads it (a high-water mark of 0 never pre-reads). */
export function deferredBody(request: Request): ReadableStream<Uint8Array> | null {
  if (request.method === 'GET' || request.method === 'HEAD') return null;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        reader ??= request.body?.getReader();
        const next = reader ? await reader.read() : { done: true as const };
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      cancel: (reason) => reader?.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}
