// The upload path over real sockets: the browser's body reaches the service chunk by chunk, with
// backpressure, cut off at the limit, aborted with the browser, and never held whole by the console.
import { serve, type ServerType } from '@hono/node-server';
import type { Server } from 'node:http';
import type { Context } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { Readable } from 'node:stream';
import { UploadRefused, type UploadRefusal } from '../http/upload-quota';
import { createProxyApp } from './proxy';
import { limitedUploadBody, sendUpload as sendToService } from './upload-stream';
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
  const methods: (string | undefined)[] = [];
  const answering = async (status: number, headers: Record<string, string | string[]> = {}) => {
    const server = createServer((request, response) => {
      methods.push(request.method);
      request.resume();
      request.on('end', () => {
        response.writeHead(status, headers);
        response.end(status === 204 || status === 205 || status === 304 ? undefined : '{"code":0}');
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    return (signal?: AbortSignal) =>
      sendToService(`http://127.0.0.1:${port}/v1/upload`, {
        method: 'POST',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        body: Readable.from([Buffer.from('file bytes')]) as unknown as BodyInit,
        signal,
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
    expect(methods.at(-1)).toBe('POST');
    expect(response.headers.get('x-part')).toBe('a, b');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe('{"code":0}');
  });

  it("stops with the request's signal (the browser gone)", async () => {
    const send = await answering(200);
    await expect(send(AbortSignal.abort(new Error('The browser went away')))).rejects.toThrow(
      'The browser went away',
    );
  });
});

describe('limitedUploadBody, the counted body', () => {
  /**
   * A web body of `chunks`, then its end (or `failWith`, or nothing more while `open`); `wasCancelled`
   * resolves once the stream is cancelled.
   */
  const webBody = (chunks: Uint8Array[], end: { failWith?: Error; open?: boolean } = {}) => {
    let cancelled!: (reason: unknown) => void;
    const wasCancelled = new Promise<unknown>((resolve) => (cancelled = resolve));
    const queue = [...chunks];
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = queue.shift();
        if (next) controller.enqueue(next);
        else if (end.failWith) controller.error(end.failWith);
        else if (!end.open) controller.close();
      },
      cancel: (reason) => cancelled(reason),
    });
    return { stream, wasCancelled };
  };
  /** The context limitedUploadBody reads: `env` (the Node side, if any) and the web request. */
  const context = (body: ReadableStream<Uint8Array> | null, env?: unknown) =>
    ({
      env,
      req: {
        raw: new Request('http://console.test/v1/upload', {
          method: 'POST',
          body,
          duplex: 'half',
        } as RequestInit),
      },
    }) as unknown as Context;
  /** A Node request not yet read from, holding `text`, and its response. */
  const nodeRequest = (text: string, ended = true) => {
    const incoming = new IncomingMessage(new Socket());
    incoming.push(Buffer.from(text));
    if (ended) incoming.push(null);
    return { incoming, outgoing: new ServerResponse(incoming) };
  };
  const readAll = async (body: Readable) => {
    const parts: Buffer[] = [];
    for await (const part of body) parts.push(part as Buffer);
    return Buffer.concat(parts).toString();
  };
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('passes a web body of exactly the limit, and cuts one a byte past it with the web stream cancelled', async () => {
    const exact = webBody([bytes('abc'), bytes('de')]);
    const request = context(exact.stream);
    const atLimit = (await limitedUploadBody(request, 5))!;
    expect(await readAll(atLimit.body)).toBe('abcde');
    expect(atLimit.exceeded()).toBeUndefined();
    expect(atLimit.signal).toBe(request.req.raw.signal);

    const over = webBody([bytes('abc'), bytes('def')], { open: true });
    const pastLimit = (await limitedUploadBody(context(over.stream), 5))!;
    await expect(readAll(pastLimit.body)).rejects.toBeInstanceOf(RangeError);
    expect(pastLimit.exceeded()).toBeInstanceOf(RangeError);
    await over.wasCancelled;
  });

  it('charges each chunk to the allowance until the limit, and stops at its refusal or its failure', async () => {
    const charged: number[] = [];
    const refusal: UploadRefusal = { status: 429, message: 'Your uploads for today are used up' };
    const take = vi.fn(async (size: number) => {
      charged.push(size);
      return charged.length === 2 ? refusal : undefined;
    });
    const allowance = {
      take,
      remaining: async () => 0,
      release: async () => undefined,
      keep: async () => undefined,
    };
    const refused = (await limitedUploadBody(
      context(webBody([bytes('ab'), bytes('cde'), bytes('f')]).stream),
      99,
      allowance,
    ))!;
    await expect(readAll(refused.body)).rejects.toBeInstanceOf(UploadRefused);
    expect(refused.exceeded()).toMatchObject({ refusal });
    expect(charged).toEqual([2, 3]);

    // A chunk past the size limit is never charged: it is refused anyway.
    charged.length = 0;
    const tooLarge = (await limitedUploadBody(
      context(webBody([bytes('abc'), bytes('d')]).stream),
      3,
      allowance,
    ))!;
    await expect(readAll(tooLarge.body)).rejects.toBeInstanceOf(RangeError);
    expect(charged).toEqual([3]);

    const broken = { ...allowance, take: async () => Promise.reject(new Error('tallies unreachable')) };
    const failed = (await limitedUploadBody(context(webBody([bytes('ab')]).stream), 99, broken))!;
    await expect(readAll(failed.body)).rejects.toThrow('tallies unreachable');
  });

  it("passes the source's own error on, and gives no body for a request without one", async () => {
    const breaking = webBody([bytes('ab')], { failWith: new Error('connection reset') });
    const limited = (await limitedUploadBody(context(breaking.stream), 99))!;
    await expect(readAll(limited.body)).rejects.toThrow('connection reset');
    expect(await limitedUploadBody(context(null), 99)).toBeUndefined();
  });

  it('reads the Node socket itself while nothing has read it, and refuses a second reader', async () => {
    const web = webBody([bytes('from the web stream')]);
    const node = nodeRequest('from the socket');
    const limited = (await limitedUploadBody(context(web.stream, node), 99))!;
    // Listening for the request's end or errors is not reading it.
    node.incoming.on('end', () => undefined);
    expect(await readAll(limited.body)).toBe('from the socket');
    expect(node.incoming.listenerCount('newListener')).toBe(0);
    expect(limited.signal.aborted).toBe(false);
    node.outgoing.emit('close');
    expect(limited.signal.aborted).toBe(true);

    const tooLarge = nodeRequest('0123456789', false);
    const cut = (await limitedUploadBody(context(null, tooLarge), 4))!;
    await expect(readAll(cut.body)).rejects.toBeInstanceOf(RangeError);
    // The server answers 413 and decides what becomes of the connection.
    expect(tooLarge.incoming.destroyed).toBe(false);

    const shared = nodeRequest('file bytes');
    const watched = (await limitedUploadBody(context(null, shared), 99))!;
    shared.incoming.on('data', () => undefined);
    await expect(readAll(watched.body)).rejects.toThrow('Something else started reading the upload');
  });

  it('falls back to the web body when the socket was already read or is not a Node response', async () => {
    const flowing = nodeRequest('from the socket');
    flowing.incoming.pause();
    const afterFlow = (await limitedUploadBody(context(webBody([bytes('web')]).stream, flowing), 99))!;
    expect(await readAll(afterFlow.body)).toBe('web');

    const touched = nodeRequest('from the socket');
    touched.incoming.read();
    const afterRead = (await limitedUploadBody(context(webBody([bytes('web')]).stream, touched), 99))!;
    expect(await readAll(afterRead.body)).toBe('web');

    const notNode = { incoming: nodeRequest('x').incoming, outgoing: {} };
    const fallback = (await limitedUploadBody(context(webBody([bytes('web')]).stream, notNode), 99))!;
    expect(await readAll(fallback.body)).toBe('web');
    const noIncoming = { incoming: Readable.from(['not a request']), outgoing: nodeRequest('x').outgoing };
    const fallback2 = (await limitedUploadBody(context(webBody([bytes('web')]).stream, noIncoming), 99))!;
    expect(await readAll(fallback2.body)).toBe('web');
  });
});
