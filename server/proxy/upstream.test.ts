// The proxy's own way to the service (undici's dispatcher driven directly): a small answer comes
// whole, a large one is handed over at once and streamed, an answer dropped unread stops the
// service's sending, and a silent service is a timeout.
import { once } from 'node:events';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readAnswer, sendToService, upstreamOfResponse, type Upstream } from './upstream';

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
    if (request.url === '/twice') return response.writeHead(200, { 'x-part': ['a', 'b'] }).end();
    // Declared large, then silent after its first chunk: handed over on its headers or never.
    if (request.url === '/declared-then-silent') {
      response.writeHead(200, { 'content-length': String(4 * MB) });
      return void response.write(CHUNK);
    }
    // No declared length (chunked): a byte past the whole-read bound is known only once it came.
    if (request.url === '/chunked-1mb-and-1') {
      response.write(Buffer.alloc(MB, 'x'));
      return void response.end('y');
    }
    // Past the whole-read bound, then the connection drops mid-body.
    if (request.url === '/drops') {
      response.writeHead(200, { 'content-length': String(4 * MB) });
      return void response.write(Buffer.alloc(2 * MB, 'x'), () => response.destroy());
    }
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

  it('hands an answer declared past the bound over on its headers, and streams an undeclared one past it', async () => {
    const declared = await get('/declared-then-silent');
    expect(declared.bytes).toBeUndefined();
    expect((await declared.chunks.next()).done).toBe(false);
    await declared.discard();
    const chunked = await get('/chunked-1mb-and-1');
    expect(chunked.header('content-length')).toBeUndefined();
    expect(chunked.bytes).toBeUndefined();
    expect(await readAll(chunked.chunks)).toBe(MB + 1);
  });

  it('joins the values of a header sent twice, and hands an empty body over as no chunks', async () => {
    const answer = await get('/twice');
    expect(answer.header('x-part')).toBe('a, b');
    expect(answer.header('x-none')).toBeUndefined();
    expect(await answer.chunks.next()).toEqual({ done: true, value: undefined });
  });

  it('fails the reader of a streamed answer whose connection drops mid-body', async () => {
    const answer = await get('/drops');
    expect(answer.bytes).toBeUndefined();
    await expect(readAll(answer.chunks)).rejects.toThrow();
  });

  it('gives up on a service that does not answer within the timeout', async () => {
    await expect(get('/silent', 200)).rejects.toMatchObject({
      name: 'TimeoutError',
      message: 'The service did not answer in time',
    });
  });
});

/** An Upstream whose body is `parts` (read through `chunks`), counting what was pulled and whether it was dropped. */
function fakeUpstream(
  parts: string[],
  options: { declared?: number; bytes?: string; failWith?: unknown } = {},
) {
  const pulled: string[] = [];
  let returned = false;
  const upstream: Upstream = {
    status: 200,
    header: (name) =>
      name === 'content-length' && options.declared !== undefined ? String(options.declared) : undefined,
    ...(options.bytes !== undefined && { bytes: Buffer.from(options.bytes) }),
    chunks: {
      next: async () => {
        const part = parts.shift();
        if (part === undefined && 'failWith' in options) throw options.failWith;
        if (part === undefined) return { done: true, value: undefined };
        pulled.push(part);
        return { done: false, value: Buffer.from(part) };
      },
      return: async () => {
        returned = true;
        return { done: true, value: undefined };
      },
    },
    discard: async () => undefined,
  };
  return { upstream, pulled, returned: () => returned };
}

async function text(answer: Awaited<ReturnType<typeof readAnswer>>) {
  return 'bytes' in answer
    ? `bytes:${answer.bytes.toString()}`
    : `stream:${await new Response(answer.stream).text()}`;
}

describe('readAnswer, at its bound', () => {
  it('keeps a body already read whole of exactly the bound, and reads one a byte larger again', async () => {
    expect(await text(await readAnswer(fakeUpstream([], { bytes: 'abcd' }).upstream, 4))).toBe('bytes:abcd');
    expect(await text(await readAnswer(fakeUpstream(['ab', 'cde'], { bytes: 'abcde' }).upstream, 4))).toBe(
      'stream:abcde',
    );
  });

  it('reads chunks up to exactly the bound whole, and streams one a byte past it, nothing lost', async () => {
    expect(await text(await readAnswer(fakeUpstream(['ab', 'cd']).upstream, 4))).toBe('bytes:abcd');
    const past = fakeUpstream(['ab', 'cde', 'f', 'gh']);
    const answer = await readAnswer(past.upstream, 4);
    // Handed over once the bound was passed: the rest is pulled as the reader asks.
    expect(past.pulled).toEqual(['ab', 'cde']);
    expect(await text(answer)).toBe('stream:abcdefgh');
  });

  it('streams an answer declared larger than the bound without reading any of it first', async () => {
    const declared = fakeUpstream(['ab'], { declared: 5 });
    expect(await text(await readAnswer(declared.upstream, 4))).toBe('stream:ab');
    expect(await text(await readAnswer(fakeUpstream(['ab'], { declared: 4 }).upstream, 4))).toBe('bytes:ab');
  });

  it('stops the service when the browser drops a streamed answer', async () => {
    const dropped = fakeUpstream(['abcde', 'more']);
    const answer = await readAnswer(dropped.upstream, 4);
    if (!('stream' in answer)) throw new Error('expected a stream');
    await answer.stream.cancel();
    expect(dropped.returned()).toBe(true);
    // A source that cannot be stopped (no return()) is simply left.
    const unstoppable = fakeUpstream(['abcde', 'more']).upstream;
    delete unstoppable.chunks.return;
    const left = await readAnswer(unstoppable, 4);
    if (!('stream' in left)) throw new Error('expected a stream');
    await expect(left.stream.cancel()).resolves.toBeUndefined();
  });

  it('reads a body timeout while reading as a TimeoutError, and passes other failures on as they are', async () => {
    for (const code of ['UND_ERR_BODY_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT']) {
      const stalled = fakeUpstream(['ab'], { failWith: Object.assign(new Error('stalled'), { code }) });
      await expect(readAnswer(stalled.upstream, 4)).rejects.toMatchObject({ name: 'TimeoutError' });
    }
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    await expect(readAnswer(fakeUpstream([], { failWith: reset }).upstream, 4)).rejects.toBe(reset);
    // Whatever is thrown, even a null, is passed on rather than breaking the check for a timeout.
    await expect(readAnswer(fakeUpstream([], { failWith: null }).upstream, 4)).rejects.toBeNull();
  });
});

describe('upstreamOfResponse', () => {
  it('reads headers, chunks and an empty body as an Upstream', async () => {
    const upstream = upstreamOfResponse(new Response('hello', { status: 201, headers: { 'x-one': '1' } }));
    expect([upstream.status, upstream.header('x-one'), upstream.header('x-none')]).toEqual([
      201,
      '1',
      undefined,
    ]);
    expect(await readAll(upstream.chunks)).toBe(5);
    const empty = upstreamOfResponse(new Response(null, { status: 204 }));
    expect(await empty.chunks.next()).toEqual({ done: true, value: undefined });
    await empty.discard();
  });

  it('cancels the body it drops', async () => {
    let cancelled = false;
    const body = new ReadableStream({ cancel: () => void (cancelled = true) });
    await upstreamOfResponse(new Response(body)).discard();
    expect(cancelled).toBe(true);
  });
});
