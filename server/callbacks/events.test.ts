import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCallbackInbox, SSE_BATCH_MAX_BYTES, type CallbackInbox } from './inbox';
import { createStreamLimits, SESSION_ID_KEY, type StreamLimits } from '../http/stream-limits';
import {
  imageGenerateCallback,
  imageToVideoCallback,
  videoTranslateCallback,
} from '../testing/callback-fixtures';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { testNodeApp } from '../testing/test-node-app';
import { CallbackStore } from './store';

const server = testNodeApp('inbox-events');
const { dataDir, secret: SECRET } = server;
let inbox: CallbackInbox;
let store: CallbackStore;

interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/** Reads SSE frames from a response until `count` `callback` events arrived. */
async function readCallbacks(
  response: Response,
  count: number,
): Promise<{ events: SseEvent[]; reader: ReadableStreamDefaultReader<Uint8Array> }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: SseEvent[] = [];
  let buffer = '';
  while (events.filter((event) => event.event === 'callback').length < count) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: SseEvent = { data: '' };
      for (const line of frame.split('\n')) {
        const [field, ...rest] = line.split(': ');
        const value = rest.join(': ');
        if (field === 'id') event.id = value;
        if (field === 'event') event.event = value;
        if (field === 'data') event.data += value;
      }
      if (event.event) events.push(event);
    }
  }
  return { events: events.filter((event) => event.event === 'callback'), reader };
}

const post = (body: unknown) =>
  inbox.app.request(`/callbacks/${SECRET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const events = (headers: Record<string, string> = {}, query = '') =>
  inbox.app.request(`/callbacks/${SECRET}/events${query}`, { headers });

beforeEach(async () => {
  await resetTestDatabase();
  store = new CallbackStore(testDatabase());
  inbox = createCallbackInbox({ dataDir, secret: SECRET, store });
});
afterEach(async () => {
  await inbox.close();
  await store.close();
  await server.close();
});
afterAll(server.remove);

describe('GET /callbacks/<secret>/events', () => {
  it('sends every stored callback with its id, then live ones', async () => {
    await post(videoTranslateCallback);
    const response = await events();
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const first = await readCallbacks(response, 1);
    expect(first.events[0]!.id).toBe('1');
    expect(JSON.parse(first.events[0]!.data)).toMatchObject({ id: 1, body: videoTranslateCallback });

    await post(imageToVideoCallback);
    const reader = first.reader;
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toContain('id: 2');
    await reader.cancel();
  });

  it('catches up from Last-Event-ID, so a reconnecting page misses nothing', async () => {
    for (const body of [videoTranslateCallback, imageToVideoCallback, imageGenerateCallback])
      await post(body);
    const { events: caughtUp, reader } = await readCallbacks(await events({ 'last-event-id': '1' }), 2);
    expect(caughtUp.map((event) => event.id)).toEqual(['2', '3']);
    await reader.cancel();
  });

  it('accepts ?since= for the first connection, and prefers Last-Event-ID on reconnect', async () => {
    for (const body of [videoTranslateCallback, imageToVideoCallback, imageGenerateCallback])
      await post(body);
    const fromQuery = await readCallbacks(await events({}, '?since=2'), 1);
    expect(fromQuery.events.map((event) => event.id)).toEqual(['3']);
    await fromQuery.reader.cancel();
    const both = await readCallbacks(await events({ 'last-event-id': '1' }, '?since=2'), 2);
    expect(both.events.map((event) => event.id)).toEqual(['2', '3']);
    await both.reader.cancel();
  });

  it('sends only new callbacks to a page that asks for ?since=end', async () => {
    await post(videoTranslateCallback);
    const response = await events({}, '?since=end');
    const reader = response.body!.getReader();
    const ready = new TextDecoder().decode((await reader.read()).value);
    expect(ready).toContain('event: ready');
    expect(ready).toContain('"lastId":1');
    expect(ready).not.toContain('event: callback');
    await post(imageToVideoCallback);
    const next = new TextDecoder().decode((await reader.read()).value);
    expect(next).toContain('id: 2');
    await reader.cancel();
  });

  it('sends everything again when the id is beyond the log (the log was reset)', async () => {
    await post(videoTranslateCallback);
    const { events: all, reader } = await readCallbacks(await events({ 'last-event-id': '99' }), 1);
    expect(all.map((event) => event.id)).toEqual(['1']);
    await reader.cancel();
  });

  it('ends open streams when the inbox closes', async () => {
    const response = await events();
    const reader = response.body!.getReader();
    await reader.read(); // the `ready` frame
    await inbox.close();
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(done).toBe(true);
  });
});

describe('across instances on one database', () => {
  it('streams a callback stored by another instance', async () => {
    const response = await events();
    const otherStore = new CallbackStore(testDatabase());
    const other = createCallbackInbox({ dataDir, secret: SECRET, store: otherStore });
    await other.app.request(`/callbacks/${SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(imageGenerateCallback),
    });
    const { events: received, reader } = await readCallbacks(response, 1);
    expect(JSON.parse(received[0]!.data)).toMatchObject({ id: 1, body: imageGenerateCallback });
    await reader.cancel();
    await other.close();
    await otherStore.close();
  });
});

describe('bounded streams', () => {
  const big = (i: number) => ({
    ...videoTranslateCallback,
    data: { ...videoTranslateCallback.data, task_id: `vt-big-${i}` },
    pad: 'x'.repeat(1_000_000),
  });
  /** Bytes of every catch-up batch the store hands a stream. */
  function watchBatches(target: CallbackStore): number[] {
    const batches: number[] = [];
    const since = target.since.bind(target);
    vi.spyOn(target, 'since').mockImplementation(async (...args) => {
      const batch = await since(...args);
      batches.push(batch.reduce((sum, entry) => sum + JSON.stringify(entry).length, 0));
      return batch;
    });
    return batches;
  }
  let limits: StreamLimits;
  const withLimits = async (options: Parameters<typeof createStreamLimits>[0]) => {
    await inbox.close();
    limits = createStreamLimits(options);
    inbox = createCallbackInbox({ dataDir, secret: SECRET, store, streams: limits });
  };

  it('drops a stream that never reads 1 MB callbacks, holding one batch of at most 2 MB until then', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await withLimits({ stallMs: 300 });
    for (let i = 0; i < 6; i++) expect((await post(big(i))).status).toBe(200);
    const batches = watchBatches(store);
    const response = await events({}, '?since=0');
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('event: ready');
    // From here on nothing is read, as by streams that never read: 14 of them would otherwise hold GBs.
    await vi.waitFor(() => expect(limits.stats()).toMatchObject({ open: 0, dropped: 1 }), { timeout: 5000 });
    expect(batches.length).toBeGreaterThan(0);
    // A catch-up of 500 rows at once would load all 6 here (6 MB) for one stream.
    for (const bytes of batches) expect(bytes).toBeLessThanOrEqual(SSE_BATCH_MAX_BYTES + 1_100_000);
    expect(limits.stats().pendingBytes).toBe(0);
    await reader.cancel().catch(() => {});
  });

  it('still sends every callback to a stream that reads, across batches cut by size', async () => {
    for (let i = 0; i < 6; i++) await post(big(i));
    const batches = watchBatches(store);
    const { events: all, reader } = await readCallbacks(await events({}, '?since=0'), 6);
    expect(all.map((event) => event.id)).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(batches.filter((bytes) => bytes > 0).length).toBeGreaterThanOrEqual(3);
    await reader.cancel();
  });

  it('caps callback streams per client: exactly the cap opens, one more is a 429', async () => {
    await withLimits({ perSession: 3 });
    // Over a socket from one address (what @hono/node-server hands the app).
    const from = (address: string) =>
      inbox.app.request(
        `/callbacks/${SECRET}/events`,
        {},
        {
          incoming: { socket: { remoteAddress: address, remotePort: 40000, remoteFamily: 'IPv4' } },
        },
      );
    const open = [];
    for (let i = 0; i < 3; i++) {
      const response = await from('198.51.100.20');
      expect(response.status).toBe(200);
      open.push(response);
    }
    const elsewhere = await from('198.51.100.21');
    expect(elsewhere.status).toBe(200);
    open.push(elsewhere);
    const refused = await from('198.51.100.20');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBeTruthy();
    for (const response of open) await response.body!.cancel();
  });
});

describe('one allowance for both kinds of stream, from the configuration', () => {
  it('counts task streams and callback streams of a session together (STREAMS_PER_SESSION, STREAMS_TOTAL)', async () => {
    const nodeApp = await server.make({ env: { STREAMS_PER_SESSION: '2', STREAMS_TOTAL: '3' } });
    const as = (session: string, path: string) =>
      nodeApp.app.request(`http://127.0.0.1${path}`, {}, { [SESSION_ID_KEY]: session });
    try {
      const tasks = await as('ana', '/__console/tasks/events');
      const callbacks = await as('ana', `/callbacks/${SECRET}/events`);
      expect([tasks.status, callbacks.status]).toEqual([200, 200]);
      expect((await as('ana', '/__console/tasks/events')).status).toBe(429);
      expect((await as('ana', `/callbacks/${SECRET}/events`)).status).toBe(429);
      const third = await as('ben', '/__console/tasks/events');
      expect(third.status).toBe(200);
      expect((await as('cy', '/__console/tasks/events')).status).toBe(503);
      for (const response of [tasks, callbacks, third]) await response.body!.cancel();
    } finally {
      await nodeApp.close();
    }
  });
});
