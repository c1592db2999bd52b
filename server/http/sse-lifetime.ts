// What every event stream of the Node side needs besides its events: a comment every 20 s so
// proxies keep an idle stream open, and an end when the client leaves or the server shuts down.
import type { BoundedStream } from './stream-limits';

const HEARTBEAT_MS = 20_000;

/**
 * Resolves when the stream should end: the client went away, the stream was dropped (its client
 * stopped reading), or one of `closeStreams` (the server's shutdown list) was called. Heartbeats
 * go through the stream's bounded queue, so they too never pile up for a client that does not read.
 */
export async function holdOpen(out: BoundedStream, closeStreams: Set<() => void>): Promise<void> {
  const heartbeat = setInterval(() => void out.comment('keep-alive'), HEARTBEAT_MS);
  // Stryker disable next-line ArrowFunction: replaced by the promise's resolve before anything can call it
  let end = () => {};
  const ended = new Promise<void>((resolve) => (end = resolve));
  closeStreams.add(end);
  out.stream.onAbort(end);
  if (out.closed) end();
  try {
    await ended;
  } finally {
    clearInterval(heartbeat);
    closeStreams.delete(end);
  }
}

/**
 * A stream that only carries changes from now on: says `ready` (a client that reconnects reads
 * everything again), holds the stream open as holdOpen does, then `unsubscribe`s from its feed.
 */
export async function streamUntilEnd(
  out: BoundedStream,
  closeStreams: Set<() => void>,
  unsubscribe: () => void,
): Promise<void> {
  const open = holdOpen(out, closeStreams);
  try {
    await out.send({ event: 'ready', data: '{}', retry: 2000 });
    await open;
  } finally {
    unsubscribe();
  }
}
