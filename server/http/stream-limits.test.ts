// The limits of the event streams, on a bare Hono app (no database): caps per session and in total,
// and a client that does not read being dropped, in-process and over a real socket.
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { holdOpen } from './sse-lifetime';
import {
  boundedSSE,
  createStreamLimits,
  frameBytes,
  SESSION_ID_KEY,
  type BoundedStream,
  type StreamLimits,
  type StreamLimitsOptions,
} from './stream-limits';

const closeStreams = new Set<() => void>();
let streamsOut: BoundedStream[] = [];
afterEach(() => {
  for (const end of closeStreams) end();
  streamsOut = [];
  vi.restoreAllMocks();
});

/** `/events` holds a stream open until the test ends it; the test sends on it through `streamsOut`. */
function appWith(options: StreamLimitsOptions): { app: Hono; limits: StreamLimits } {
  const limits = createStreamLimits(options);
  const app = new Hono();
  app.get('/events', (c) =>
    boundedSSE(c, limits, 'test', async (out) => {
      streamsOut.push(out);
      await holdOpen(out, closeStreams);
    }),
  );
  return { app, limits };
}

/** A request as a session the sign-in verified (what server/app/prod-app.ts hands the Node side). */
const asSession = (app: Hono, id: string, headers: Record<string, string> = {}) =>
  app.request('/events', { headers }, { [SESSION_ID_KEY]: id });
/** What @hono/node-server hands a request that came over a socket from `address`. */
const peer = (address: string) => ({
  incoming: { socket: { remoteAddress: address, remotePort: 40000, remoteFamily: 'IPv4' } },
});
/** Gives the socket time to fill the kernel's buffers between writes (pacing, not a wait before an assertion). */
const pace = () => new Promise((resolve) => setTimeout(resolve, 20));

describe('open event streams are capped', () => {
  it('per session: exactly the cap is open, one more is a 429 with Retry-After; closing one frees it', async () => {
    const { app, limits } = appWith({ perSession: 3, total: 100 });
    const open = [];
    for (let i = 0; i < 3; i++) {
      const response = await asSession(app, 'alice');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      open.push(response);
    }
    const refused = await asSession(app, 'alice');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('10');
    expect(refused.headers.get('connection')).toBe('close');
    expect(await refused.json()).toEqual({ code: 429, msg: expect.stringContaining('at most 3') });
    // Another session has its own allowance.
    expect((await asSession(app, 'bob')).status).toBe(200);
    expect(limits.stats().open).toBe(4);

    await open[0]!.body!.cancel();
    await vi.waitFor(() => expect(limits.stats().open).toBe(3), { timeout: 10_000 });
    expect((await asSession(app, 'alice')).status).toBe(200);
  });

  it('in total: exactly the cap is open, one more is a 503 with Retry-After', async () => {
    const { app } = appWith({ perSession: 10, total: 4 });
    for (let i = 0; i < 4; i++) expect((await asSession(app, `s${i}`)).status).toBe(200);
    const refused = await asSession(app, 's9');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await refused.json()).toEqual({ code: 503, msg: expect.stringContaining('at most 4') });
  });

  it('counts a client without a verified session by its address: a made-up cookie is no new allowance', async () => {
    const { app } = appWith({ perSession: 2, total: 100 });
    const from = (address: string, cookie: string) =>
      app.request('/events', { headers: { cookie } }, peer(address));
    expect((await from('198.51.100.7', 'mc_session=a')).status).toBe(200);
    expect((await from('198.51.100.7', 'mc_session=b')).status).toBe(200);
    expect((await from('198.51.100.7', 'mc_session=c')).status).toBe(429);
    expect((await from('198.51.100.8', 'mc_session=c')).status).toBe(200);
  });
});

describe('a client that does not read is dropped, never buffered for', () => {
  const event = (size: number, i = 0) => ({ event: 'x', id: String(i), data: 'y'.repeat(size) });

  it('keeps exactly the pending bound waiting; one event more drops the stream and frees its slot', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const one = frameBytes(event(10_000));
    const { app, limits } = appWith({ maxPendingBytes: 4 * one, stallMs: 60_000 });
    const response = await asSession(app, 'slow');
    const out = streamsOut[0]!;
    // The response stream takes one event ahead of its reader; after that, nothing is read.
    expect(await out.send(event(10_000))).toBe(true);
    const waiting = [1, 2, 3, 4].map((i) => out.send(event(10_000, i)));
    await vi.waitFor(() => expect(limits.stats().pendingBytes).toBe(4 * one), { timeout: 10_000 });
    expect(out.closed).toBe(false);

    expect(await out.send(event(10_000, 5))).toBe(false);
    expect(out.closed).toBe(true);
    expect(await Promise.all(waiting)).toEqual([false, false, false, false]);
    await vi.waitFor(() => expect(limits.stats()).toMatchObject({ open: 0, pendingBytes: 0, dropped: 1 }), {
      timeout: 10_000,
    });
    expect(limits.stats().peakPendingBytes).toBe(4 * one);
    // Later events are refused at once, nothing is queued for the gone client.
    expect(await out.send(event(1_000_000, 6))).toBe(false);
    expect(limits.stats().pendingBytes).toBe(0);
    await response.body?.cancel().catch(() => {});
  });

  it('lets one event larger than the bound through (a 1 MB callback), but not a second one behind it', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { app, limits } = appWith({ maxPendingBytes: 64 * 1024, stallMs: 60_000 });
    await asSession(app, 'big');
    const out = streamsOut[0]!;
    await out.send(event(10)); // taken ahead of the reader
    void out.send(event(1024 * 1024, 1));
    // It waits, counted, and the stream stays open (the send below is the control that drops it).
    await vi.waitFor(() => expect(limits.stats().pendingBytes).toBeGreaterThan(1024 * 1024), {
      timeout: 10_000,
    });
    expect(out.closed).toBe(false);
    // A heartbeat behind it is not queued (it would tip the stream over the bound for nothing).
    expect(await out.comment('keep-alive')).toBe(true);
    expect(out.closed).toBe(false);
    expect(await out.send(event(10, 2))).toBe(false);
    expect(limits.stats().dropped).toBe(1);
  });

  it('drops a stream whose write is not taken within the stall time, and keeps one that reads', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { app, limits } = appWith({ stallMs: 150 });
    const reading = await asSession(app, 'reader');
    await asSession(app, 'sleeper');
    const [reader, sleeper] = streamsOut as [BoundedStream, BoundedStream];
    const body = reading.body!.getReader();
    // The reader takes 20 events, one every 30 ms: never a write pending for the stall time.
    for (let i = 0; i < 20; i++) {
      const sent = reader.send(event(100, i));
      await body.read();
      expect(await sent).toBe(true);
    }
    await sleeper.send(event(100)); // taken ahead of the reader
    const stuck = sleeper.send(event(100, 1));
    expect(await stuck).toBe(false);
    expect(sleeper.closed).toBe(true);
    expect(reader.closed).toBe(false);
    await vi.waitFor(() => expect(limits.stats()).toMatchObject({ open: 1, dropped: 1 }), {
      timeout: 10_000,
    });
    await body.cancel();
  });

  it('over a real socket: a client that never reads is disconnected and nothing is held for it', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { app, limits } = appWith({ maxPendingBytes: 1024 * 1024, stallMs: 5_000 });
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
    await new Promise<void>((resolve) => server.once('listening', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const socket = connect(port, '127.0.0.1');
      socket.pause(); // never reads a byte of the answer
      socket.on('error', () => {});
      socket.write(`GET /events HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
      await vi.waitFor(() => expect(streamsOut).toHaveLength(1), { timeout: 10_000 });
      const out = streamsOut[0]!;
      // Up to 64 MB offered without waiting, more than the kernel's socket buffers take.
      for (let i = 0; i < 256 && !out.closed; i++) {
        if (i % 8 === 0) await pace();
        void out.send(event(256 * 1024, i));
      }
      await vi.waitFor(() => expect(out.closed).toBe(true), { timeout: 10_000 });
      // The server let go of the socket itself (a non-reader never drains it, so ending it politely
      // would keep it, and what Node buffers for it, for ever).
      await vi.waitFor(
        async () =>
          expect(await new Promise((resolve) => server.getConnections((_, n) => resolve(n)))).toBe(0),
        { timeout: 5_000 },
      );
      expect(limits.stats()).toMatchObject({ open: 0, pendingBytes: 0, dropped: 1 });
      // Never more than the bound plus one event waited in the server's memory for this client.
      expect(limits.stats().peakPendingBytes).toBeLessThanOrEqual(
        1024 * 1024 + frameBytes(event(256 * 1024)),
      );
      socket.destroy();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }, 30_000);
});

describe('the limits, part by part', () => {
  it('defaults to 8 per session, 200 in total, 2 MiB pending and a 30 s stall', () => {
    expect(createStreamLimits()).toMatchObject({
      perSession: 8,
      total: 200,
      maxPendingBytes: 2 * 1024 * 1024,
      stallMs: 30_000,
    });
  });

  it("gives a slot back once however often it is released, and keeps the session's other slots counted", () => {
    const limits = createStreamLimits({ perSession: 2, total: 10 });
    const first = limits.acquire('alice');
    const second = limits.acquire('alice');
    expect('status' in first || 'status' in second).toBe(false);
    expect(limits.acquire('alice')).toEqual({ status: 429 });
    if ('release' in first) {
      first.release();
      first.release();
    }
    expect(limits.stats().open).toBe(1);
    expect('release' in limits.acquire('alice')).toBe(true);
    expect(limits.acquire('alice')).toEqual({ status: 429 });
    expect(limits.stats().open).toBe(2);
  });

  it('costs a frame its data in UTF-8 bytes, its event name and id, and 32 bytes of field names', () => {
    expect(frameBytes({ data: 'é!', event: 'task', id: '12' })).toBe(3 + 4 + 2 + 32);
    expect(frameBytes({ data: 'abc' })).toBe(3 + 32);
    expect(frameBytes({ data: Promise.resolve('not counted') })).toBe(32);
  });
});

describe('a stream as the sign-in guard hands it over, in-process', () => {
  /** An app whose guard sets the session on the context (no env at all), `outgoing` optional. */
  function guardedApp(options: StreamLimitsOptions, session: string, env?: Record<string, unknown>) {
    const limits = createStreamLimits(options);
    const app = new Hono();
    app.use(async (c, next) => {
      c.set('consoleSessionId' as never, session as never);
      await next();
    });
    app.get('/events', (c) =>
      boundedSSE(c, limits, 'tasks', async (out) => {
        streamsOut.push(out);
        await holdOpen(out, closeStreams);
      }),
    );
    return { limits, open: () => app.request('/events', {}, env) };
  }

  it('counts the session the guard set, and an empty one by the address; the refusal is never cached', async () => {
    const { open } = guardedApp({ perSession: 1 }, 'alice');
    expect((await open()).status).toBe(200);
    const refused = await open();
    expect(refused.status).toBe(429);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const nobody = guardedApp({ perSession: 1 }, '', peer('198.51.100.7'));
    expect((await nobody.open()).status).toBe(200);
    expect(await nobody.limits.acquire('client:198.51.100.7')).toEqual({ status: 429 });
  });

  it('counts a session id that is not text by the address, as no session', async () => {
    const odd = guardedApp({ perSession: 1 }, 7 as unknown as string, peer('198.51.100.9'));
    expect((await odd.open()).status).toBe(200);
    expect(odd.limits.acquire('client:198.51.100.9')).toEqual({ status: 429 });
  });

  it('writes a heartbeat as a comment line, counted while it waits', async () => {
    const { open, limits } = guardedApp({}, 'alice');
    const reader = (await open()).body!.getReader();
    const out = streamsOut[0]!;
    expect(await out.comment('keep-alive')).toBe(true);
    expect(new TextDecoder().decode((await reader.read()).value)).toBe(': keep-alive\n\n');
    // The next write is taken ahead of the reader, the one after it waits, counted.
    await out.comment('one');
    void out.comment('abc');
    await vi.waitFor(() => expect(limits.stats().pendingBytes).toBe('abc'.length + 4));
    await reader.cancel();
  });

  it('refuses a write after the client left, counting nothing for it', async () => {
    const { open, limits } = guardedApp({}, 'alice');
    const response = await open();
    const out = streamsOut[0]!;
    await response.body!.cancel();
    expect(out.closed).toBe(true);
    const sent = out.send({ data: 'late' });
    expect(limits.stats()).toMatchObject({ pendingBytes: 0, peakPendingBytes: 0 });
    expect(await sent).toBe(false);
  });

  it('answers false for an event hono cannot write (a line break in its id), and goes on', async () => {
    const { open } = guardedApp({}, 'alice');
    const reader = (await open()).body!.getReader();
    const out = streamsOut[0]!;
    expect(await out.send({ id: 'a\nb', data: 'x' })).toBe(false);
    expect(await out.send({ data: 'fine' })).toBe(true);
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: fine\n\n');
    await reader.cancel();
  });

  it('drops a stream past the bound: says why, destroys the Node response, writes nothing queued', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const destroy = vi.fn();
    const { open, limits } = guardedApp({ maxPendingBytes: 100, stallMs: 60_000 }, 'alice', {
      outgoing: { destroy },
    });
    await open();
    const out = streamsOut[0]!;
    await out.send({ data: 'taken ahead of the reader' });
    const written = vi.spyOn(out.stream, 'writeSSE');
    const waiting = [out.send({ data: 'a' }), out.send({ data: 'b' })];
    await vi.waitFor(() => expect(written).toHaveBeenCalledTimes(1));
    expect(await out.send({ data: 'x'.repeat(100) })).toBe(false);
    expect(await Promise.all(waiting)).toEqual([false, false]);
    expect(written).toHaveBeenCalledTimes(1);
    expect(destroy).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(
      '[streams] dropped a tasks stream (more than 100 bytes waiting for a client that does not read)',
    );
    expect(limits.stats().dropped).toBe(1);
  });

  it('drops past the bound without a Node response, or with one that cannot be destroyed', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    for (const env of [undefined, { outgoing: {} }]) {
      streamsOut = [];
      const { open } = guardedApp({ maxPendingBytes: 10, stallMs: 60_000 }, 'alice', env);
      await open();
      const out = streamsOut[0]!;
      await out.send({ data: 'taken ahead' });
      void out.send({ data: 'waits' });
      expect(await out.send({ data: 'x'.repeat(10) })).toBe(false);
      expect(out.closed).toBe(true);
    }
  });

  it('names the stall time when it drops a stream whose write is not taken', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { open } = guardedApp({ stallMs: 50 }, 'alice');
    await open();
    const out = streamsOut[0]!;
    await out.send({ data: 'taken ahead' });
    expect(await out.send({ data: 'never taken' })).toBe(false);
    expect(warn).toHaveBeenCalledWith('[streams] dropped a tasks stream (no write taken for 50 ms)');
  });
});
