// The proxy is the only place the bearer token exists: it must add it on the Node side, forward the
// request faithfully, and let nothing else through in either direction.
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_PROXY_BODY_BYTES, createProxyApp } from './proxy';
import { oversizedChunkedBody } from '../testing/oversized-body';
import { UploadQuota } from '../http/upload-quota';
import { IDENTITY_KEY, type Identity } from '../identity/request-identity';

const TOKEN = 'proxy-test-token-7d1e';
const JSON_POST = { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } };

/** A Hono app that proxies `/v1/*` with a stubbed upstream fetch, recording what it was sent. */
function proxied(
  options: {
    apiToken?: string;
    uploadMaxBytes?: number;
    uploadQuota?: UploadQuota;
    upstream?: (request: Request) => Response | Promise<Response>;
  } = {},
) {
  const sent: Request[] = [];
  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    sent.push(request.clone());
    return options.upstream ? options.upstream(request) : Response.json({ code: 0, msg: 'ok', data: [] });
  });
  const app = createProxyApp({
    apiBaseUrl: 'https://api.example.com',
    apiToken: 'apiToken' in options ? options.apiToken : TOKEN,
    uploadMaxBytes: options.uploadMaxBytes,
    uploadQuota: options.uploadQuota,
    fetchImpl,
  });
  return { app, sent, fetchImpl };
}

const UPLOAD_ANSWER = {
  code: 0,
  success: true,
  message: { global: 'success' },
  result: { url: 'https://x/y.png' },
};

describe('the upload path (multipart, streamed, UPLOAD_MAX_MB)', () => {
  const multipart = (bytes: number) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes).fill(7)]), 'moodboard.png');
    return new Request('http://console.test/v1/figure-resource/upload/file', { method: 'POST', body: form });
  };

  it('passes the multipart body through whole, with both Bearer and token: headers', async () => {
    let received: FormData | undefined;
    const { app, sent } = proxied({
      upstream: async (request) => {
        received = await request.formData();
        return Response.json(UPLOAD_ANSWER);
      },
    });
    const response = await app.request(multipart(300_000));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(UPLOAD_ANSWER);
    const file = received?.get('file') as File;
    expect(file.name).toBe('moodboard.png');
    expect(file.size).toBe(300_000);
    expect(sent[0]!.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    expect(sent[0]!.headers.get('token')).toBe(TOKEN);
    expect(sent[0]!.headers.get('content-type')).toMatch(/^multipart\/form-data; boundary=/);
  });

  it('takes multipart bodies above the 1 MB JSON limit, up to uploadMaxBytes', async () => {
    const { app } = proxied({
      uploadMaxBytes: 3 * MAX_PROXY_BODY_BYTES,
      upstream: async (request) => {
        await request.arrayBuffer();
        return Response.json(UPLOAD_ANSWER);
      },
    });
    expect((await app.request(multipart(2 * MAX_PROXY_BODY_BYTES))).status).toBe(200);
  });

  it('refuses with 413 by Content-Length before calling the service', async () => {
    const { app, fetchImpl } = proxied({ uploadMaxBytes: 1000 });
    const request = multipart(5000);
    const body = await request.arrayBuffer();
    const response = await app.request(request.url, {
      method: 'POST',
      body,
      headers: {
        'content-type': request.headers.get('content-type')!,
        'content-length': String(body.byteLength),
      },
    });
    expect(response.status).toBe(413);
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('cuts a chunked body off with 413 as soon as it passes the limit, never reading it whole', async () => {
    const { app } = proxied({
      uploadMaxBytes: MAX_PROXY_BODY_BYTES,
      upstream: async (request) => {
        await request.arrayBuffer();
        return Response.json(UPLOAD_ANSWER);
      },
    });
    const attack = oversizedChunkedBody();
    const response = await app.request('/v1/figure-resource/upload/file', {
      ...attack.init,
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(response.status).toBe(413);
    expect(attack.pulledBytes()).toBeLessThan(2 * MAX_PROXY_BODY_BYTES);
  });

  it("charges each person's uploads to their own day, and refuses a declared length past it unread", async () => {
    // The largest upload is the day's quota: a file of exactly that size is both let through and charged.
    const { app, fetchImpl } = proxied({ uploadQuota: new UploadQuota(1000), uploadMaxBytes: 1000 });
    const as = (userId: string, bytes: number) =>
      app.request(
        '/v1/figure-resource/upload/file',
        {
          method: 'POST',
          body: new Uint8Array(bytes),
          headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(bytes) },
        },
        { [IDENTITY_KEY]: { userId, name: userId, role: 'creator', source: 'local' } satisfies Identity },
      );
    expect((await as('ana', 1000)).status).toBe(200);
    expect((await as('ben', 1000)).status).toBe(200);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
    const past = await as('ana', 1);
    expect(past.status).toBe(429);
    expect(Number(past.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(fetchImpl).toHaveBeenCalledTimes(2);
  });

  it('gives back the bytes of an upload the service did not take, a 300 included', async () => {
    let status = 300;
    const { app } = proxied({
      uploadQuota: new UploadQuota(1000),
      uploadMaxBytes: 1000,
      upstream: async (request) => {
        await request.arrayBuffer();
        return Response.json({ code: 0 }, { status });
      },
    });
    const upload = () =>
      app.request('/v1/figure-resource/upload/file', {
        method: 'POST',
        body: new Uint8Array(1000),
        headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': '1000' },
      });
    expect((await upload()).status).toBe(502);
    status = 299;
    expect((await upload()).status).toBe(299);
    expect((await upload()).status).toBe(429);
  });

  it('keeps the same-site guard and refuses a JSON body on the upload path', async () => {
    const { app, fetchImpl } = proxied();
    const crossSite = multipart(10);
    const guarded = await app.request(crossSite.url, {
      method: 'POST',
      body: await crossSite.arrayBuffer(),
      headers: { 'content-type': crossSite.headers.get('content-type')!, 'sec-fetch-site': 'cross-site' },
    });
    expect(guarded.status).toBe(403);
    const json = await app.request('/v1/figure-resource/upload/file', JSON_POST);
    expect(json.status).toBe(415);
    expect(fetchImpl).not.toHaveBeenCalled();
  });
});

describe('createProxyApp', () => {
  it('passes JSON through and wraps anything else in the {code, msg} envelope, keeping the status', async () => {
    const html = (status: number, headers: Record<string, string> = {}) =>
      new Response('<html>gateway</html>', { status, headers: { 'content-type': 'text/html', ...headers } });
    for (const [upstream, status] of [
      [() => html(502), 502],
      [() => html(429, { 'retry-after': '7' }), 429],
      [() => html(200), 502],
      [() => new Response('plain', { status: 200 }), 502],
      [() => new Response(new Uint8Array([1, 2]), { headers: { 'content-type': 'image/png' } }), 502],
    ] as const) {
      const { app } = proxied({ upstream });
      const response = await app.request('/v1/video_translate/target_languages');
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe('application/json');
      const body = (await response.json()) as { code: number; msg: string };
      expect(body).toEqual({ code: status, msg: expect.stringMatching(/without JSON/) });
      if (status === 429) expect(response.headers.get('retry-after')).toBe('7');
    }
  });

  it('adds Authorization: Bearer <token> on the Node side', async () => {
    const { app, sent } = proxied();
    const response = await app.request('/v1/video_translate/target_languages');
    expect(response.status).toBe(200);
    expect(sent[0]!.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
  });

  it('forwards method, path and body to the base URL, never a query string', async () => {
    const { app, sent } = proxied();
    const body = JSON.stringify({ prompt: 'a fox', generate_count: 2 });
    await app.request('/v1/image_generate?trace=1&x=a%20b', {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
    });
    const request = sent[0]!;
    expect(request.method).toBe('POST');
    expect(request.url).toBe('https://api.example.com/v1/image_generate');
    expect(request.headers.get('content-type')).toBe('application/json');
    expect(await request.text()).toBe(body);
  });

  it('sends a status query as GET without a body', async () => {
    const { app, sent } = proxied();
    await app.request('/v1/image_to_video/i2v-0f3a:b_c.d~e');
    expect(sent[0]!.method).toBe('GET');
    expect(sent[0]!.url).toBe('https://api.example.com/v1/image_to_video/i2v-0f3a%3Ab_c.d~e');
    expect(sent[0]!.body).toBeNull();
  });

  it("never forwards the browser's cookies, its own Authorization or other headers", async () => {
    const { app, sent } = proxied();
    await app.request('/v1/image_generate', {
      method: 'POST',
      body: '{}',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        'accept-language': 'fr',
        cookie: 'session=browser-secret',
        authorization: 'Bearer browser-supplied',
        'x-api-key': 'nope',
        'x-forwarded-for': '10.0.0.1',
        origin: 'http://localhost:5173',
        referer: 'http://localhost:5173/tasks',
      },
    });
    const headers = Object.fromEntries(sent[0]!.headers);
    expect(headers).toEqual({
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'accept-language': 'fr',
    });
  });

  it('passes only safe response headers back to the browser', async () => {
    const { app } = proxied({
      upstream: () =>
        new Response(JSON.stringify({ code: 429, msg: 'Rate limit exceeded' }), {
          status: 429,
          headers: {
            'content-type': 'application/json; charset=utf-8',
            'retry-after': '30',
            'cache-control': 'no-store',
            'set-cookie': 'upstream=1; Path=/',
            'www-authenticate': 'Bearer realm="api"',
            'access-control-allow-origin': '*',
            server: 'upstream/1.0',
          },
        }),
    });
    const response = await app.request('/v1/image_generate', JSON_POST);
    expect(response.status).toBe(429);
    const body = JSON.stringify({ code: 429, msg: 'Rate limit exceeded' });
    expect(Object.fromEntries(response.headers)).toEqual({
      'content-type': 'application/json; charset=utf-8',
      'retry-after': '30',
      'cache-control': 'no-store',
      // The console's own: it read the answer whole before passing it on.
      'content-length': String(body.length),
    });
    expect(await response.text()).toBe(body);
  });

  it('passes the upstream status and body through unchanged', async () => {
    const envelope = { code: 100002, msg: 'generate_count should be [1,8], current: 9' };
    const { app } = proxied({ upstream: () => Response.json(envelope, { status: 400 }) });
    const response = await app.request('/v1/image_generate', JSON_POST);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(envelope);
  });

  it.each([undefined, ''])(
    'answers a clear 401 envelope without calling upstream when API_TOKEN is %j',
    async (apiToken) => {
      const { app, fetchImpl } = proxied({ apiToken });
      const response = await app.request('/v1/image_generate', JSON_POST);
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      const body = (await response.json()) as { code: number; msg: string };
      expect(body.code).toBe(401);
      expect(body.msg).toMatch(/API_TOKEN is not set/);
      expect(fetchImpl).not.toHaveBeenCalled();
    },
  );

  it.each(['cross-site', 'same-site'])(
    'refuses a %s browser request (CSRF) without calling upstream',
    async (site) => {
      const { app, fetchImpl } = proxied();
      const response = await app.request('/v1/image_generate', {
        ...JSON_POST,
        headers: { ...JSON_POST.headers, 'sec-fetch-site': site },
      });
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ code: 403 });
      expect(fetchImpl).not.toHaveBeenCalled();
    },
  );

  it.each(['same-origin', 'none'])('accepts a %s browser request', async (site) => {
    const { app, fetchImpl } = proxied();
    const response = await app.request('/v1/image_generate', {
      ...JSON_POST,
      headers: { ...JSON_POST.headers, 'sec-fetch-site': site },
    });
    expect(response.status).toBe(200);
    expect(fetchImpl).toHaveBeenCalledOnce();
  });

  it.each(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined])(
    'refuses a body sent as %s with 415 (what a cross-site form could send)',
    async (type) => {
      const { app, fetchImpl } = proxied();
      const body = new Blob(['{"prompt":"x"}'], type ? { type } : {});
      const response = await app.request('/v1/image_generate', {
        method: 'POST',
        body,
        headers: type ? { 'content-type': type } : {},
      });
      expect(response.status).toBe(415);
      expect(await response.json()).toMatchObject({ code: 415 });
      expect(fetchImpl).not.toHaveBeenCalled();
    },
  );

  it('refuses a body over the limit with 413, by header or by bytes read', async () => {
    const { app, fetchImpl } = proxied();
    const big = JSON.stringify({ prompt: 'x'.repeat(MAX_PROXY_BODY_BYTES) });
    const declared = await app.request('/v1/image_generate', {
      method: 'POST',
      body: big,
      headers: { 'content-type': 'application/json', 'content-length': String(big.length) },
    });
    expect(declared.status).toBe(413);
    const chunked = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const streamed = await app.request('/v1/image_generate', {
      method: 'POST',
      body: chunked,
      headers: { 'content-type': 'application/json' },
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('cuts a chunked body off at the limit while it streams, never reading it whole', async () => {
    const { app, fetchImpl } = proxied();
    const attack = oversizedChunkedBody();
    const response = await app.request('/v1/image_generate', {
      ...attack.init,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(attack.pulledBytes()).toBeLessThan(2 * MAX_PROXY_BODY_BYTES);
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('answers 504 when the service does not answer in time', async () => {
    const { app } = proxied({
      upstream: () => {
        throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
      },
    });
    const response = await app.request('/v1/video_translate/target_languages');
    expect(response.status).toBe(504);
    expect(await response.json()).toMatchObject({ code: 504 });
  });

  it('answers a 502 envelope when the service cannot be reached', async () => {
    const { app } = proxied({
      upstream: () => {
        throw new TypeError('fetch failed');
      },
    });
    const response = await app.request('/v1/video_translate/target_languages');
    expect(response.status).toBe(502);
    const body = (await response.json()) as { code: number; msg: string };
    expect(body).toMatchObject({ code: 502 });
    expect(body.msg).toMatch(/could not reach the service/);
    expect(JSON.stringify(body)).not.toContain(TOKEN);
  });
});

describe('the bounds of what the proxy forwards and answers', () => {
  it('forwards a JSON body of exactly 1 MB by its declared length and refuses one byte more', async () => {
    const { app, fetchImpl } = proxied();
    const sized = (bytes: number) => {
      const body = JSON.stringify({ prompt: 'x'.repeat(bytes - 13) });
      return app.request('/v1/image_generate', {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      });
    };
    expect((await sized(MAX_PROXY_BODY_BYTES)).status).toBe(200);
    const over = await sized(MAX_PROXY_BODY_BYTES + 1);
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ code: 413, msg: 'The request body is too large' });
    expect(fetchImpl).toHaveBeenCalledOnce();
  });

  it('sends only the request headers the browser gave (no empty ones)', async () => {
    const { app, sent } = proxied();
    await app.request('/v1/image_generate', JSON_POST);
    expect(Object.fromEntries(sent[0]!.headers)).toEqual({
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
    });
  });

  it.each([300, 301, 307, 399])(
    'answers a %i from the service as a 502 and does not follow it',
    async (status) => {
      const { app } = proxied({
        upstream: () =>
          new Response('{}', { status, headers: { 'content-type': 'application/json', location: '/x' } }),
      });
      const response = await app.request('/v1/video_translate/target_languages');
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual({
        code: 502,
        msg: `The service answered with a redirect (HTTP ${status}); it was not followed`,
      });
    },
  );

  it('passes a 299 JSON answer on as it came', async () => {
    const { app } = proxied({ upstream: () => Response.json({ code: 0 }, { status: 299 }) });
    const response = await app.request('/v1/video_translate/target_languages');
    expect(response.status).toBe(299);
    expect(await response.json()).toEqual({ code: 0 });
  });

  it.each([204, 205])('passes a body-less %i on without a body', async (status) => {
    const { app } = proxied({
      upstream: () => new Response(null, { status, headers: { 'content-type': 'application/json' } }),
    });
    const response = await app.request('/v1/video_translate/target_languages');
    expect(response.status).toBe(status);
    expect(response.body).toBeNull();
    expect(response.headers.get('content-length')).toBeNull();
  });

  it('says how long it waited when the service does not answer, and never shows the error', async () => {
    const { app } = proxied({
      upstream: () => {
        throw new DOMException('internal detail', 'TimeoutError');
      },
    });
    expect(await (await app.request('/v1/video_translate/target_languages')).json()).toEqual({
      code: 504,
      msg: 'The service did not answer within 60 seconds',
    });
  });

  it('adds no Retry-After of its own when the service gave none', async () => {
    const { app } = proxied({ upstream: () => new Response('<html>', { status: 503 }) });
    const response = await app.request('/v1/video_translate/target_languages');
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBeNull();
  });

  it('answers 502 when the answer breaks off while it is read', async () => {
    const broken = new ReadableStream({
      pull: (controller) => controller.error(new TypeError('terminated')),
    });
    const { app } = proxied({
      upstream: () => new Response(broken, { headers: { 'content-type': 'application/json' } }),
    });
    const response = await app.request('/v1/video_translate/target_languages');
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ code: 502 });
  });

  it('refuses an upload without a Content-Type, and forwards one without a body', async () => {
    const { app, fetchImpl } = proxied();
    const untyped = await app.request('/v1/figure-resource/upload/file', { method: 'POST' });
    expect(untyped.status).toBe(415);
    expect(fetchImpl).not.toHaveBeenCalled();
    const empty = await app.request('/v1/figure-resource/upload/file', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    });
    expect(empty.status).toBe(200);
    expect(fetchImpl).toHaveBeenCalledOnce();
  });

  it.each(['.a', 'a.', 'a..b'])('takes the task id %j (dots, but not only dots)', async (id) => {
    const { app } = proxied();
    expect((await app.request(`/v1/image_to_video/${id}`)).status).toBe(200);
  });

  it.each(['...', '....'])('refuses the task id %j (only dots)', async (id) => {
    const { app, fetchImpl } = proxied();
    expect((await app.request(`/v1/image_to_video/${id}`)).status).toBe(404);
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('names a refused path or method in its answer', async () => {
    const { app } = proxied();
    expect(await (await app.request('/v1/users/me')).json()).toEqual({ code: 404, msg: 'Not found' });
    const wrongMethod = await app.request('/v1/image_generate');
    expect(await wrongMethod.json()).toEqual({ code: 405, msg: 'Method not allowed' });
    expect(wrongMethod.headers.get('allow')).toBe('POST');
    expect((await app.request('/v1/users/me')).headers.get('allow')).toBeNull();
  });

  it('says why a body was refused: the site, the type of an upload, the type of JSON', async () => {
    const { app } = proxied();
    const crossSite = await app.request('/v1/image_generate', {
      ...JSON_POST,
      headers: { ...JSON_POST.headers, 'sec-fetch-site': 'cross-site' },
    });
    expect(await crossSite.json()).toEqual({
      code: 403,
      msg: 'Requests to the service must come from this console itself',
    });
    expect(await (await app.request('/v1/figure-resource/upload/file', JSON_POST)).json()).toEqual({
      code: 415,
      msg: 'Uploads must be multipart/form-data with the file in the part "file"',
    });
    const text = await app.request('/v1/image_generate', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'text/plain' },
    });
    expect(await text.json()).toEqual({
      code: 415,
      msg: 'Request bodies must be JSON (Content-Type: application/json)',
    });
  });
});

describe('only the documented endpoints, each with its method (the token spends anywhere)', () => {
  const send = (app: ReturnType<typeof proxied>['app'], method: string, path: string) =>
    app.request(path, {
      method,
      ...(method === 'GET' || method === 'HEAD' ? {} : { body: '{}' }),
      headers: { 'content-type': 'application/json' },
    });

  it.each([
    ['POST', '/v1/image_generate'],
    ['POST', '/v1/video_translate'],
    ['POST', '/v1/image_to_video'],
    ['GET', '/v1/image_generate/i2is-1'],
    ['GET', '/v1/video_translate/vt-1'],
    ['GET', '/v1/image_to_video/i2v-1'],
    ['GET', '/v1/video_translate/target_languages'],
  ])('forwards %s %s', async (method, path) => {
    const { app, fetchImpl } = proxied();
    expect((await send(app, method, path)).status).toBe(200);
    expect(fetchImpl).toHaveBeenCalledOnce();
  });

  it.each([
    ['PUT', '/v1/users/me', 404],
    ['DELETE', '/v1/image_generate/i2is-1', 405],
    ['GET', '/v1/users/me', 404],
    ['POST', '/v1/admin', 404],
    ['GET', '/v1/image_generate', 405],
    ['DELETE', '/v1/image_generate', 405],
    ['PUT', '/v1/video_translate', 405],
    ['POST', '/v1/image_to_video/i2v-1', 405],
    ['HEAD', '/v1/image_to_video/i2v-1', 405],
    ['GET', '/v1/figure-resource/upload/file', 405],
    ['POST', '/v1/image_generate/', 404],
    ['GET', '/v1/image_to_video/', 404],
    ['GET', '/v1/image_to_video', 405],
    ['GET', '/v1', 404],
    ['GET', '/v1/', 404],
  ])(
    'refuses %s %s with %i, without reaching the service or showing the token',
    async (method, path, status) => {
      const { app, fetchImpl } = proxied();
      const response = await send(app, method, path);
      expect(response.status).toBe(status);
      if (method !== 'HEAD') {
        const body = await response.text();
        expect(JSON.parse(body)).toMatchObject({ code: status });
        expect(body).not.toContain(TOKEN);
      }
      if (status === 405) expect(response.headers.get('allow')).toMatch(/^(GET|POST)$/);
      expect(fetchImpl).not.toHaveBeenCalled();
    },
  );

  it.each([
    '/v1/..%2f..%2fadmin',
    '/v1/image_to_video/..%2f..%2fadmin',
    '/v1/image_to_video/i2v-a%2Fb',
    '/v1/image_to_video/i2v-a%2fb',
    '/v1/image_to_video/%2e%2e',
    '/v1/image_to_video/%2E%2E',
    '/v1/image_to_video/%2e',
    '/v1/image_to_video/...%2f',
    '/v1/image_to_video/a%5Cb',
    '/v1/image_to_video/a%5cb',
    '/v1/image_to_video/a\\b',
    '/v1/image_to_video//i2v-1',
    '/v1/image_to_video/i2v-1/',
    '/v1/image_to_video/i2v-1/x',
    '/v1//image_generate',
    '/v1/image_to_video/a%00b',
    '/v1/image_to_video/%00',
    '/v1/image_to_video/a%0ab',
    '/v1/image_to_video/a%20b',
    '/v1/image_to_video/a%252fb',
    '/v1/image_to_video/a%25',
    '/v1/image_to_video/%E0%A4%A',
    '/v1/image_to_video/a%3Fb',
    '/v1/image_to_video/a%23b',
    '/v1/video_translate/target_languages/..',
  ])('refuses the path trick %s with 404 before the service sees it', async (path) => {
    const { app, fetchImpl } = proxied();
    const response = await app.request(path);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 404 });
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('takes a task id of 256 characters and refuses one of 257', async () => {
    const { app, fetchImpl, sent } = proxied();
    expect((await app.request(`/v1/image_to_video/${'a'.repeat(256)}`)).status).toBe(200);
    expect(sent[0]!.url).toBe(`https://api.example.com/v1/image_to_video/${'a'.repeat(256)}`);
    expect((await app.request(`/v1/image_to_video/${'a'.repeat(257)}`)).status).toBe(404);
    expect(fetchImpl).toHaveBeenCalledOnce();
  });

  it('refuses before saying the token is missing (nothing to spend it on)', async () => {
    const { app } = proxied({ apiToken: undefined });
    expect((await app.request('/v1/users/me', { method: 'PUT' })).status).toBe(404);
  });
});

describe('upstream Content-Type, parsed (content type by prefix)', () => {
  const answer = (type: string | string[]) => () => {
    const headers = new Headers();
    for (const value of [type].flat()) headers.append('content-type', value);
    return new Response('{"code":0,"msg":"ok","data":[]}', { headers });
  };

  it.each([
    'application/json, text/html',
    ['application/json', 'text/html'],
    'application/json; text/html',
    'application/json;charset=utf-8, text/html',
    'application/problem+json',
    'application/jsonx',
    'application/json-seq',
    'text/json',
    'application/json/html',
    'application / json',
  ])('answers 502 with the envelope when the upstream says %j', async (type) => {
    const { app } = proxied({ upstream: answer(type) });
    const response = await app.request('/v1/video_translate/target_languages');
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toMatchObject({ code: 502, msg: expect.stringMatching(/without JSON/) });
  });

  it.each([
    ['application/json', 'application/json'],
    ['application/json; charset=utf-8', 'application/json; charset=utf-8'],
    ['Application/JSON;Charset="UTF-8"', 'application/json; charset=UTF-8'],
  ])('passes %j through as %j', async (type, sentOn) => {
    const { app } = proxied({ upstream: answer(type) });
    const response = await app.request('/v1/video_translate/target_languages');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(sentOn);
    expect(await response.json()).toEqual({ code: 0, msg: 'ok', data: [] });
  });

  it('refuses a request body sent as "application/json, text/html" with 415', async () => {
    const { app, fetchImpl } = proxied();
    const response = await app.request('/v1/image_generate', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json, text/html' },
    });
    expect(response.status).toBe(415);
    expect(fetchImpl).not.toHaveBeenCalled();
  });
});

describe('createProxyHandler against real sockets', () => {
  let upstream: ServerType;
  let elsewhere: ServerType;
  let upstreamUrl = '';
  let elsewhereUrl = '';
  const seenElsewhere: Record<string, string>[] = [];

  const listen = (app: Hono) =>
    new Promise<{ server: ServerType; url: string }>((resolve) => {
      const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve({ server, url: `http://127.0.0.1:${info.port}` }),
      );
    });

  beforeAll(async () => {
    const other = new Hono();
    other.all('*', (c) => {
      seenElsewhere.push(Object.fromEntries(c.req.raw.headers));
      return c.json({ code: 0, msg: 'ok', data: ['Elsewhere'] });
    });
    ({ server: elsewhere, url: elsewhereUrl } = await listen(other));
    const api = new Hono();
    api.get('/v1/video_translate/target_languages', (c) =>
      c.json({ code: 0, msg: 'ok', data: { authorization: c.req.header('authorization') ?? null } }),
    );
    api.get('/v1/image_to_video/redirect', (c) => c.redirect(`${elsewhereUrl}/v1/landing`, 302));
    // 3 MB of JSON in 64 KB chunks, without a Content-Length: past what is read whole, so streamed on.
    api.get('/v1/image_generate/large', () => {
      const chunk = new TextEncoder().encode(`${'"x",'.repeat(16 * 1024)}`);
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0) controller.enqueue(new TextEncoder().encode('{"code":0,"data":['));
          if (sent++ < 48) return controller.enqueue(chunk);
          controller.enqueue(new TextEncoder().encode('"end"]}'));
          controller.close();
        },
      });
      return new Response(body, { headers: { 'content-type': 'application/json' } });
    });
    ({ server: upstream, url: upstreamUrl } = await listen(api));
  });
  afterAll(async () => {
    await Promise.all([upstream, elsewhere].map((server) => new Promise((resolve) => server.close(resolve))));
  });

  const app = (apiBaseUrl: string) => createProxyApp({ apiBaseUrl, apiToken: TOKEN });

  it('reaches a real upstream with the bearer token', async () => {
    const response = await app(upstreamUrl).request('/v1/video_translate/target_languages');
    expect(await response.json()).toEqual({ code: 0, msg: 'ok', data: { authorization: `Bearer ${TOKEN}` } });
  });

  it('passes an answer larger than the 1 MB read whole through intact, streamed', async () => {
    const response = await app(upstreamUrl).request('/v1/image_generate/large');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('content-type')).toBe('application/json');
    const answer = (await response.json()) as { data: string[] };
    expect(answer.data).toHaveLength(48 * 16 * 1024 + 1);
    expect(answer.data.at(-1)).toBe('end');
  });

  it('never follows an upstream redirect (nothing reaches the other origin)', async () => {
    const response = await app(upstreamUrl).request('/v1/image_to_video/redirect');
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ code: 502, msg: expect.stringContaining('redirect') });
    expect(seenElsewhere).toHaveLength(0);
  });

  it('answers 502 when nothing listens at the base URL', async () => {
    // Port 9 (discard) on loopback is closed on any ordinary machine.
    const response = await app('http://127.0.0.1:9').request('/v1/video_translate/target_languages');
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ code: 502 });
  });
});
