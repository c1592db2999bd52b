// A stream that only carries changes from now on: `ready` first, open until the client leaves or the
// server closes its streams, then unsubscribed from its feed exactly once, whichever way it ended.
import { describe, expect, it, vi } from 'vitest';
import type { SSEStreamingApi } from 'hono/streaming';
import { streamUntilEnd } from './sse-lifetime';
import type { BoundedStream } from './stream-limits';

function standInStream(options: { closed?: boolean; sendFails?: boolean } = {}) {
  let abort = () => {};
  const sent: string[] = [];
  const comments: string[] = [];
  const out = {
    send: vi.fn(async (message: { event?: string; data: string; retry?: number }) => {
      if (options.sendFails) throw new Error('socket gone');
      sent.push(message.event ?? '');
      return true;
    }),
    comment: vi.fn(async (text: string) => {
      comments.push(text);
      return true;
    }),
    closed: options.closed ?? false,
    stream: { onAbort: (listener: () => void) => (abort = listener) } as unknown as SSEStreamingApi,
  } satisfies BoundedStream;
  return { out, sent, comments, leave: () => abort() };
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

  it('says ready with an empty object and a 2 s retry, and ends at once for a stream already closed', async () => {
    const { out } = standInStream({ closed: true });
    const closeStreams = new Set<() => void>();
    const unsubscribe = vi.fn();
    await streamUntilEnd(out, closeStreams, unsubscribe);
    expect(out.send).toHaveBeenCalledWith({ event: 'ready', data: '{}', retry: 2000 });
    expect(unsubscribe).toHaveBeenCalledTimes(1);
    expect(closeStreams.size).toBe(0);
  });

  it('sends a keep-alive comment every 20 s while open, and none after the end', async () => {
    vi.useFakeTimers();
    try {
      const { out, comments, leave } = standInStream();
      const streaming = streamUntilEnd(out, new Set(), () => {});
      await vi.advanceTimersByTimeAsync(19_999);
      expect(comments).toEqual([]);
      await vi.advanceTimersByTimeAsync(1);
      expect(comments).toEqual(['keep-alive']);
      await vi.advanceTimersByTimeAsync(20_000);
      expect(comments).toEqual(['keep-alive', 'keep-alive']);
      leave();
      await streaming;
      await vi.advanceTimersByTimeAsync(60_000);
      expect(comments).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
