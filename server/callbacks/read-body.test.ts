// The callback body read from the Node request itself, over a real socket (the inbox tests use
// app.request, which takes the web path): the same text Request.text() gives, and the limit.
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBodyText, TOO_LARGE } from './read-body';

const LIMIT = 1024;
let server: ServerType;
let port: number;

beforeAll(async () => {
  const app = new Hono();
  app.post('/', async (c) => {
    const text = await readBodyText(c, LIMIT);
    // The web Request is built only when something asks for it; reading the socket must not.
    const built = Object.getOwnPropertySymbols(c.req.raw).some((s) => s.description === 'requestCache');
    return text === TOO_LARGE ? c.json({ tooLarge: true, built }, 413) : c.json({ text, built });
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
function post(chunks: Buffer[], length?: number, { end = true } = {}) {
  return new Promise<{ status: number; body: Record<string, unknown>; sent: number }>((resolve, reject) => {
    let answered = false;
    let sent = 0;
    const req = request(
      {
        host: '127.0.0.1',
        port,
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
    expect(answer).toMatchObject({ status: 200, body: { text, built: false } });
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
    expect(answer).toMatchObject({ status: 413, body: { tooLarge: true, built: false }, sent: 5 * 256 });
  });
});
