// A stream that only carries changes from now on: `ready` first, open until the client leaves or the
// server closes its streams, then unsubscribed from its feed exactly once, whichever way it ended.
import { describe, expect, it, vi } from 'vitest';
import type { SSEStreamingApi } from 'hono/streaming';
import { streamUntilEnd } from './sse-lifetime';
import type { BoundedStream } from './stream-limits';

function standInStream(options: { closed?: boolean; sendFails?: boolean } = {}) {
  let abort = () => {};
  const sent: string[] = [];
  const out = {
    send: vi.fn(async (message: { event?: string }) => {
      if (options.sendFails) throw new Error('socket gone');
      sent.push(message.event ?? '');
      return true;
    }),
    comment: vi.fn(async () => true),
    closed: options.closed ?? false,
    stream: { onAbort: (listener: () => void) => (abort = listener) } as unknown as SSEStreamingApi,
  } satisfies BoundedStream;
  return { out, sent, leave: () => abort() };
}

describe('streamUntilEnd', () => {
  it('says ready, stays open until the server closes its streams, then unsubscribes once', async () => {
    const { out, sent } = standInStream();
    const closeStreams = new Set<() => void>();
    const unsubscribe = vi.fn();
    let ended = false;
    const streaming = streamUntilEnd(out, closeStreams, unsubscribe).then(() => (ended = true));
    await vi.waitFor(() => expect(sent).toEqual(['ready']));
    expect(ended).toBe(false);
    expect(unsubscribe).not.toHaveBeenCalled();
    for (const close of closeStreams) close();
    await streaming;
    expect(unsubscribe).toHaveBeenCalledTimes(1);
    expect(closeStreams.size).toBe(0);
  });

  it('ends when the client leaves', async () => {
    const { out, leave } = standInStream();
    const unsubscribe = vi.fn();
    const streaming = streamUntilEnd(out, new Set(), unsubscribe);
    leave();
    await streaming;
    expect(unsubscribe).toHaveBeenCalledTimes(1);
  });

  it('unsubscribes even when ready cannot be sent', async () => {
    const { out } = standInStream({ closed: true, sendFails: true });
    const unsubscribe = vi.fn();
    await expect(streamUntilEnd(out, new Set(), unsubscribe)).rejects.toThrow('socket gone');
    expect(unsubscribe).toHaveBeenCalledTimes(1);
  });
});
