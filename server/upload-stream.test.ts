// The upload path over real sockets: the browser's body reaches the service chunk by chunk, with
// backpressure, cut off at the limit, aborted with the browser, and never held whole by the console.
import { serve, type ServerType } from '@hono/node-server';
import { createHash } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createProxyApp } from './proxy';

const TOKEN = 'upload-stream-test-token-41c2';
const MB = 1024 * 1024;
const UPLOAD = '/v1/figure-resource/upload/file';
const MULTIPART = 'multipart/form-data; boundary=x';

interface Upstream {
  url: string;
  received: () => number;
  requests: { headers: IncomingMessage['headers']; sha: string; complete: boolean }[];
  closed: Promise<void>;
}

const servers: (Server | ServerType)[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      // A connection still draining a refused body would hold close() for seconds.
      (server as Server).closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
  vi.restoreAllMocks();
});

/** A service that reads uploads (slowly when `pauseMs`) and answers JSON, or `answer`'s reply. */
function upstream(
  options: { pauseMs?: number; answer?: (req: IncomingMessage) => [number, Record<string, string>] } = {},
) {
  let received = 0;
  let closeRequest: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (closeRequest = resolve));
  const requests: Upstream['requests'] = [];
  const server = createServer((req, res) => {
    const hash = createHash('sha256');
    const entry = { headers: req.headers, sha: '', complete: false };
    requests.push(entry);
    req.on('data', (chunk: Buffer) => {
      received += chunk.byteLength;
      hash.update(chunk);
      if (options.pauseMs) {
        req.pause();
        setTimeout(() => req.resume(), options.pauseMs);
      }
    });
    req.on('close', closeRequest);
    req.on('end', () => {
      entry.sha = hash.digest('hex');
      entry.complete = true;
      const [status, headers] = options.answer?.(req) ?? [200, { 'content-type': 'application/json' }];
      res.writeHead(status, headers).end(JSON.stringify({ code: 0, result: { url: 'https://x/y.mp4' } }));
    });
  });
  servers.push(server);
  return new Promise<Upstream>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        received: () => received,
        requests,
        closed,
      }),
    ),
  );
}

/** The console's proxy on a real socket; `sockets` are its side of the browsers' connections. */
function proxy(apiBaseUrl: string, uploadMaxBytes = 100 * MB) {
  const sockets: Socket[] = [];
  const app = createProxyApp({ apiBaseUrl, apiToken: TOKEN, uploadMaxBytes });
  return new Promise<{ origin: string; readFromBrowsers: () => number }>((resolve) => {
    const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
      resolve({
        origin: `http://127.0.0.1:${info.port}`,
        readFromBrowsers: () => sockets.reduce((sum, socket) => sum + socket.bytesRead, 0),
      }),
    );
    server.on('connection', (socket: Socket) => sockets.push(socket));
    servers.push(server);
  });
}

/**
 * A browser sending `bytes` chunked (no Content-Length), as fast as the console takes them; it stops
 * sending once an answer arrives. `abortAfter` bytes: it goes away mid-body instead.
 */
function send(origin: string, bytes: number, abortAfter?: number) {
  const chunk = Buffer.alloc(256 * 1024);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31) & 0xff;
  const hash = createHash('sha256');
  let written = 0;
  let answered = false;
  const req = request(`${origin}${UPLOAD}`, { method: 'POST', headers: { 'content-type': MULTIPART } });
  const answer = new Promise<{ status: number; headers: IncomingMessage['headers']; text: string }>(
    (resolve, reject) => {
      req.on('error', reject);
      req.on('response', (res) => {
        answered = true;
        let text = '';
        res.on('data', (data: Buffer) => (text += data.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      });
    },
  );
  const pump = () => {
    while (written < bytes && !answered) {
      if (abortAfter !== undefined && written >= abortAfter) return void req.destroy();
      const part = chunk.subarray(0, Math.min(chunk.length, bytes - written));
      written += part.length;
      hash.update(part);
      if (!req.write(part)) return void req.once('drain', pump);
    }
    if (!answered) req.end();
  };
  pump();
  return { answer, written: () => written, sha: () => hash.digest('hex') };
}

describe('uploads through the proxy over real sockets', () => {
  it('streams the body to the service intact, with both auth headers, without fetch', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const service = await upstream();
    const console = await proxy(service.url);
    const browser = send(console.origin, 12 * MB);
    const answer = await browser.answer;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 0 });
    expect(answer.text + JSON.stringify(answer.headers)).not.toContain(TOKEN);
    expect(service.requests[0]).toMatchObject({ sha: browser.sha(), complete: true });
    expect(service.requests[0]!.headers).toMatchObject({
      authorization: `Bearer ${TOKEN}`,
      token: TOKEN,
      'content-type': MULTIPART,
    });
    // fetch() tees a streamed body it might resend, holding every chunk until the request ends.
    expect(fetchSpy).not.toHaveBeenCalled();
  });

  it('applies backpressure: a slow service keeps what the console read ahead of it bounded', async () => {
    const service = await upstream({ pauseMs: 1 });
    const console = await proxy(service.url);
    const browser = send(console.origin, 24 * MB);
    let ahead = 0;
    const sampler = setInterval(() => {
      ahead = Math.max(ahead, console.readFromBrowsers() - service.received());
    }, 2);
    const answer = await browser.answer;
    clearInterval(sampler);
    expect(answer.status).toBe(200);
    // Socket buffers on both hops account for a few MB; reading ahead would reach the whole 24 MB.
    expect(ahead).toBeLessThan(8 * MB);
  });

  it('cuts a chunked body over the limit with 413 once about the limit was read, aborting upstream', async () => {
    const service = await upstream();
    const console = await proxy(service.url, 2 * MB);
    const browser = send(console.origin, 64 * MB);
    const answer = await browser.answer;
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.text)).toMatchObject({ code: 413 });
    await service.closed;
    expect(service.requests[0]?.complete).toBe(false);
    expect(service.received()).toBeLessThanOrEqual(2 * MB);
    // The browser was told while it was still sending: far from all of its 64 MB went out.
    expect(browser.written()).toBeLessThan(24 * MB);
  });

  it('aborts the upstream request when the browser goes away mid-upload', async () => {
    const service = await upstream();
    const console = await proxy(service.url);
    const browser = send(console.origin, 32 * MB, 4 * MB);
    await expect(browser.answer).rejects.toThrow();
    await service.closed;
    expect(service.requests[0]?.complete).toBe(false);
  });

  it('passes a redirect on as a 502 without following it, and keeps Retry-After of a refusal', async () => {
    const redirecting = await upstream({ answer: () => [307, { location: 'http://127.0.0.1:9/elsewhere' }] });
    const redirected = await send((await proxy(redirecting.url)).origin, MB).answer;
    expect(redirected.status).toBe(502);
    expect(JSON.parse(redirected.text).msg).toMatch(/redirect/);

    const busy = await upstream({
      answer: () => [503, { 'content-type': 'text/html', 'retry-after': '7', 'set-cookie': 'a=b' }],
    });
    const refused = await send((await proxy(busy.url)).origin, MB).answer;
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('7');
    expect(refused.headers['set-cookie']).toBeUndefined();
  });
});
