// The callback body read from the Node request itself, over a real socket (the inbox tests use
// app.request, which takes the web path): the same text Request.text() gives, and the limit.
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readBodyText, TOO_LARGE } from './read-body';

const LIMIT = 1024;
let server: ServerType;
let port: number;
/** Why the last read on a Node request failed. */
let lastFailure: string | undefined;
/** Served by Node, `c.env.incoming` is the request; through app.request there is none. */
const app = new Hono<{ Bindings: { incoming?: IncomingMessage } | undefined }>();

/** The listeners a read adds to the request: all removed once it is done, whatever the outcome. */
const listening = (incoming: IncomingMessage | undefined) =>
  ['data', 'end', 'error', 'close'].map((event) => incoming?.listenerCount(event));

beforeAll(async () => {
  app.post('/', async (c) => {
    const before = listening(c.env?.incoming);
    const text = await readBodyText(c, LIMIT).catch((error: Error) => {
      lastFailure = error.message;
      throw error;
    });
    // The web Request is built only when something asks for it; reading the socket must not.
    const built = Object.getOwnPropertySymbols(c.req.raw).some((s) => s.description === 'requestCache');
    const leftListening = String(listening(c.env?.incoming)) !== String(before);
    return text === TOO_LARGE
      ? c.json({ tooLarge: true, built, leftListening }, 413)
      : c.json({ text, built, leftListening });
  });
  // Something paused the request before: the read goes through the web body (the socket stays paused
  // for anyone reading it directly, so that read would never end).
  app.post('/paused', async (c) => {
    c.env!.incoming!.pause();
    const text = await readBodyText(c, LIMIT);
    return c.json({ text });
  });
  server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/**
 * POSTs the chunks one by one (chunked unless `length` is given) until the server answers; with
 * `end: false` the body is never finished, so only an answer that does not wait for it comes.
 */
function post(chunks: Buffer[], length?: number, { end = true, path = '/' } = {}) {
  return new Promise<{ status: number; body: Record<string, unknown>; sent: number }>((resolve, reject) => {
    let answered = false;
    let sent = 0;
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path,
        method: 'POST',
        headers: length === undefined ? {} : { 'content-length': length },
      },
      (res) => {
        answered = true;
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text), sent }));
      },
    );
    req.on('error', (error) => (answered ? undefined : reject(error)));
    const next = (i: number) => {
      if (answered) return req.destroy();
      if (i === chunks.length) return end ? req.end() : undefined;
      sent += chunks[i]!.byteLength;
      req.write(chunks[i], () => setTimeout(() => next(i + 1), 2));
    };
    next(0);
  });
}

describe('readBodyText on a Node request', () => {
  it('gives the text exactly, a character split across chunks included, without a web Request', async () => {
    const text = '{"task_id":"ü-𝄞-\'\\"-$$","n":1}';
    const bytes = Buffer.from(text);
    const split = bytes.indexOf(Buffer.from('𝄞')) + 2; // inside the four bytes of 𝄞
    const answer = await post([bytes.subarray(0, split), bytes.subarray(split)]);
    expect(answer).toMatchObject({ status: 200, body: { text, built: false, leftListening: false } });
  });

  it('drops a leading byte order mark, as Request.text() does', async () => {
    const answer = await post([Buffer.from('\ufeff{"a":1}')]);
    expect(answer.body.text).toBe('{"a":1}');
  });

  it('refuses a declared length over the limit without reading the body', async () => {
    // Ten times the limit declared, 16 bytes sent: only the declared length can bring the answer
    // (reading on would wait for bytes that never come, and the test would time out).
    const answer = await post([Buffer.alloc(16, 0x61)], LIMIT * 10, { end: false });
    expect(answer).toMatchObject({ status: 413, body: { tooLarge: true }, sent: 16 });
  });

  it('takes a body of exactly the limit, declared or chunked, and refuses one byte more', async () => {
    const atLimit = Buffer.alloc(LIMIT, 0x61);
    for (const length of [LIMIT, undefined]) {
      const answer = await post([atLimit], length);
      expect(answer, `declared ${length}`).toMatchObject({ status: 200, body: { text: 'a'.repeat(LIMIT) } });
    }
    const onePast = Buffer.alloc(LIMIT + 1, 0x61);
    expect((await post([onePast], LIMIT + 1, { end: false })).status).toBe(413);
    expect((await post([onePast])).status).toBe(413);
  });

  it('cuts a chunked body off just past the limit, while it streams', async () => {
    // Five chunks, just past the limit, and the body never ends: the answer cannot wait for it.
    // (A sender that went on writing could lose the answer on a loaded machine: the server drops
    // an undrained connection after 500 ms, and a reset discards what the client had not read.)
    const chunks = Array.from({ length: 5 }, () => Buffer.alloc(256, 0x61));
    const answer = await post(chunks, undefined, { end: false });
    expect(answer).toMatchObject({
      status: 413,
      body: { tooLarge: true, built: false, leftListening: false },
      sent: 5 * 256,
    });
  });

  it('ends the read with an error when the sender goes away before the body ends', async () => {
    lastFailure = undefined;
    const req = request({ host: '127.0.0.1', port, method: 'POST' });
    req.on('error', () => {});
    req.write('{"a":', () => setImmediate(() => req.destroy()));
    // Node reports it as an error ("aborted") or only as a close: either ends the read, never a hang.
    await vi.waitFor(() => expect(lastFailure).toMatch(/aborted|went away/));
  });

  it('reads a request someone paused through the web body', async () => {
    const answer = await post([Buffer.from('{"a":1}')], undefined, { path: '/paused' });
    expect(answer).toMatchObject({ status: 200, body: { text: '{"a":1}' } });
  });
});

describe('readBodyText on a web request (no Node request beneath)', () => {
  const send = (body: BodyInit | undefined) => app.request('/', { method: 'POST', body });

  it('takes no body as empty text, exactly the limit whole, and refuses one byte more', async () => {
    expect(await (await send(undefined)).json()).toMatchObject({ text: '' });
    expect(await (await send('a'.repeat(LIMIT))).json()).toMatchObject({ text: 'a'.repeat(LIMIT) });
    expect((await send('a'.repeat(LIMIT + 1))).status).toBe(413);
  });

  it('cancels the body it cut off', async () => {
    const cancel = vi.fn();
    const body = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(new Uint8Array(600)),
      cancel,
    });
    const response = await app.request('/', { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(response.status).toBe(413);
    expect(cancel).toHaveBeenCalled();
  });
});
