// What every event stream of the Node side needs besides its events: a comment every 20 s so
// proxies keep an idle stream open, and an end when the client leaves or the server shuts down.
import type { SSEStreamingApi } from 'hono/streaming';

const HEARTBEAT_MS = 20_000;

/**
 * Resolves when the stream should end: the client went away, or one of `closeStreams` (the
 * server's shutdown list) was called. Heartbeats run until then and are stopped before it resolves.
 */
export async function holdOpen(stream: SSEStreamingApi, closeStreams: Set<() => void>): Promise<void> {
  const heartbeat = setInterval(
    () => void stream.write(': keep-alive\n\n').catch(() => stream.abort()),
    HEARTBEAT_MS,
  );
  let end = () => {};
  const ended = new Promise<void>((resolve) => (end = resolve));
  closeStreams.add(end);
  stream.onAbort(end);
  try {
    await ended;
  } finally {
    clearInterval(heartbeat);
    closeStreams.delete(end);
  }
}
