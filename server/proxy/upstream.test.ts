// The proxy's own way to the service (undici's dispatcher driven directly): a small answer comes
// whole, a large one is handed over at once and streamed, an answer dropped unread stops the
// service's sending, and a silent service is a timeout.
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendToService } from './upstream';

const MB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'x');
let server: Server;
let base: string;
/** The large answer's response, to see whether it was cut off before its end. */
let large: { response: ServerResponse; closedEarly: Promise<boolean> } | undefined;

/** Writes `total` bytes in 64 KB chunks, waiting for the socket when it asks to (back-pressure). */
async function writeSlowly(response: ServerResponse, total: number) {
  for (let sent = 0; sent < total && !response.destroyed; sent += CHUNK.length)
    if (!response.write(CHUNK.subarray(0, Math.min(CHUNK.length, total - sent))))
      await Promise.race([once(response, 'drain'), once(response, 'close')]);
  response.end();
}

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/small') return response.end('{"code":0}');
    if (request.url === '/silent') return; // never answers
    const total = request.url === '/exactly-1mb' ? MB : request.url === '/1mb-and-1' ? MB + 1 : 8 * MB;
    response.writeHead(200, { 'content-length': String(total) });
    const closedEarly = once(response, 'close').then(() => !response.writableFinished);
    large = { response, closedEarly };
    void writeSlowly(response, total);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const get = (path: string, timeoutMs = 5000) =>
  sendToService(`${base}${path}`, { method: 'GET', headers: {}, timeoutMs });

async function readAll(chunks: AsyncIterator<Uint8Array>) {
  let size = 0;
  for (let next = await chunks.next(); !next.done; next = await chunks.next()) size += next.value.byteLength;
  return size;
}

describe('sendToService', () => {
  it('hands a small answer over whole, its chunks that one buffer', async () => {
    const answer = await get('/small');
    expect(answer.status).toBe(200);
    expect(answer.bytes?.toString()).toBe('{"code":0}');
    expect(await readAll(answer.chunks)).toBe(10);
  });

  it('reads an answer of exactly 1 MB whole, and streams one of a byte more', async () => {
    expect((await get('/exactly-1mb')).bytes?.byteLength).toBe(MB);
    const past = await get('/1mb-and-1');
    expect(past.bytes).toBeUndefined();
    expect(await readAll(past.chunks)).toBe(MB + 1);
  });

  it('hands a larger answer over before its end and streams all of it', async () => {
    const answer = await get('/large');
    expect(answer.bytes).toBeUndefined();
    expect(answer.header('content-length')).toBe(String(8 * MB));
    expect(await readAll(answer.chunks)).toBe(8 * MB);
    expect(await large!.closedEarly).toBe(false);
  });

  it('stops the service sending an answer dropped unread', async () => {
    const answer = await get('/large');
    await answer.chunks.next();
    await answer.discard();
    expect(await large!.closedEarly).toBe(true);
  });

  it('gives up on a service that does not answer within the timeout', async () => {
    await expect(get('/silent', 200)).rejects.toMatchObject({ name: 'TimeoutError' });
  });
});
