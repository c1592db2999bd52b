// The upload path over real sockets: the browser's body reaches the service chunk by chunk, with
// backpressure, cut off at the limit, aborted with the browser, and never held whole by the console.
import { serve, type ServerType } from '@hono/node-server';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer } from 'node:http';
import { Readable } from 'node:stream';
import { createProxyApp } from './proxy';
import { sendUpload as sendToService } from './upload-stream';
import { MB, MULTIPART, sendUpload, uploadService, type Upstream } from '../testing/upload-sockets';

const TOKEN = 'upload-stream-test-token-41c2';

const servers: (Server | ServerType)[] = [];
const startService = async (...args: Parameters<typeof uploadService>): Promise<Upstream> => {
  const started = await uploadService(...args);
  servers.push(started.server);
  return started;
};
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

describe('uploads through the proxy over real sockets', () => {
  it('streams the body to the service intact, with both auth headers, without fetch', async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    const service = await startService();
    const consoleSide = await proxy(service.url);
    const browser = sendUpload(consoleSide.origin, 12 * MB);
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
    const service = await startService({ pauseMs: 1 });
    const consoleSide = await proxy(service.url);
    const browser = sendUpload(consoleSide.origin, 24 * MB);
    let ahead = 0;
    const sampler = setInterval(() => {
      ahead = Math.max(ahead, consoleSide.readFromBrowsers() - service.received());
    }, 2);
    const answer = await browser.answer;
    clearInterval(sampler);
    expect(answer.status).toBe(200);
    // Socket buffers on both hops account for a few MB; reading ahead would reach the whole 24 MB.
    expect(ahead).toBeLessThan(8 * MB);
  });

  it('passes a chunked body of exactly the limit and refuses one byte more', async () => {
    const service = await startService();
    const consoleSide = await proxy(service.url, MB);
    const atLimit = sendUpload(consoleSide.origin, MB);
    expect((await atLimit.answer).status).toBe(200);
    expect(service.requests[0]).toMatchObject({ sha: atLimit.sha(), complete: true });
    expect((await sendUpload(consoleSide.origin, MB + 1).answer).status).toBe(413);
  });

  it('cuts a chunked body over the limit with 413 once about the limit was read, aborting upstream', async () => {
    const service = await startService();
    const consoleSide = await proxy(service.url, 2 * MB);
    const browser = sendUpload(consoleSide.origin, 64 * MB);
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
    const service = await startService();
    const consoleSide = await proxy(service.url);
    const browser = sendUpload(consoleSide.origin, 32 * MB, 4 * MB);
    await expect(browser.answer).rejects.toThrow();
    await service.closed;
    expect(service.requests[0]?.complete).toBe(false);
  });

  it('passes a redirect on as a 502 without following it, and keeps Retry-After of a refusal', async () => {
    const redirecting = await startService({
      answer: () => [307, { location: 'http://127.0.0.1:9/elsewhere' }],
    });
    const redirected = await sendUpload((await proxy(redirecting.url)).origin, MB).answer;
    expect(redirected.status).toBe(502);
    expect(JSON.parse(redirected.text).msg).toMatch(/redirect/);

    const busy = await startService({
      answer: () => [503, { 'content-type': 'text/html', 'retry-after': '7', 'set-cookie': 'a=b' }],
    });
    const refused = await sendUpload((await proxy(busy.url)).origin, MB).answer;
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('7');
    expect(refused.headers['set-cookie']).toBeUndefined();
  });
});

describe('sendUpload, the streaming sender', () => {
  /** A service answering every request with `status` and `headers` (a body unless the status has none). */
  const answering = async (status: number, headers: Record<string, string | string[]> = {}) => {
    const server = createServer((request, response) => {
      request.resume();
      request.on('end', () => {
        response.writeHead(status, headers);
        response.end(status === 204 || status === 205 || status === 304 ? undefined : '{"code":0}');
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return (body = 'file bytes') =>
      sendToService(`http://127.0.0.1:${port}/v1/upload`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        body: Readable.from([Buffer.from(body)]) as unknown as BodyInit,
      });
  };

  it.each([204, 205, 304])('answers a body-less %i without a body', async (status) => {
    const response = await (await answering(status))();
    expect(response.status).toBe(status);
    expect(response.body).toBeNull();
  });

  it('passes every value of a repeated header on, and the body of an ordinary answer', async () => {
    const response = await (
      await answering(201, { 'x-part': ['a', 'b'], 'content-type': 'application/json' })
    )();
    expect(response.status).toBe(201);
    expect(response.headers.get('x-part')).toBe('a, b');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"code":0}');
  });
});
