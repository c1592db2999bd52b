// The body-limit table's mechanics (the routes themselves are walked in server/app/body-limits.test.ts).
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { nodeBodyLimits } from '../app/body-limits';
import { createBodyLimits, formatBytes } from './body-limits';
import { sameSiteOnly } from './same-site';

const limits = createBodyLimits(
  [
    { method: 'POST', path: '/upload', maxBytes: 5000, countedByRoute: true },
    { method: 'POST', path: '/json/:id', maxBytes: 10, json: true },
    { method: 'POST', path: '/*', maxBytes: 100 },
  ],
  { fallbackBytes: 4 },
);

function app() {
  const hono = new Hono();
  hono.use(limits.middleware);
  // Reports how much of the body reached the route, without reading it for the counted route.
  hono.post('/upload', (c) => c.json({ untouched: !c.req.raw.bodyUsed }));
  hono.all('*', async (c) => c.json({ read: (await c.req.text()).length }));
  return hono;
}

const post = (path: string, body: string, type = 'application/json') =>
  app().request(path, { method: 'POST', headers: { 'content-type': type }, body });

describe('createBodyLimits', () => {
  it('takes the first rule that matches, else the fallback', () => {
    expect(limits.limitFor('POST', '/upload')).toBe(5000);
    expect(limits.limitFor('POST', '/json/7')).toBe(10);
    expect(limits.limitFor('POST', '/anything/else')).toBe(100);
    expect(limits.limitFor('PUT', '/anything')).toBe(4);
    expect(limits.ruleFor('DELETE', '/json/7')).toBeUndefined();
  });

  it('refuses one byte past a limit with 413 and takes exactly the limit', async () => {
    expect((await post('/json/1', `"${'a'.repeat(8)}"`)).status).toBe(200);
    const over = await post('/json/1', `"${'a'.repeat(9)}"`);
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({
      code: 413,
      msg: 'The request body is too large: at most 10 bytes here',
    });
    expect(over.headers.get('connection')).toBe('close');
    expect((await app().request('/x', { method: 'PUT', body: 'abcd' })).status).toBe(200);
    expect((await app().request('/x', { method: 'PUT', body: 'abcde' })).status).toBe(413);
  });

  it('answers 415 for a body that is not JSON on a JSON route', async () => {
    expect((await post('/json/1', '{}', 'text/plain')).status).toBe(415);
    expect((await post('/other', 'plain words', 'text/plain')).status).toBe(200);
  });

  it('asks no type of an empty body (Content-Length: 0), and does of a body of one byte', async () => {
    const send = (body: string) =>
      app().request('/json/1', {
        method: 'POST',
        headers: { 'content-type': 'text/plain', 'content-length': String(body.length) },
        body,
      });
    expect((await send('')).status).toBe(200);
    expect((await send('x')).status).toBe(415);
    // Without a length: no body at all is asked nothing, a streamed one is asked its type.
    const withoutLength = (body?: string) =>
      app().request('/json/1', { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
    expect((await withoutLength()).status).toBe(200);
    expect((await withoutLength('x')).status).toBe(415);
  });

  it('leaves a route that counts its own bytes untouched, and reads nothing for a GET', async () => {
    expect(await (await post('/upload', 'x'.repeat(6000))).json()).toEqual({ untouched: true });
    expect((await app().request('/json/1')).status).toBe(200);
  });

  it('writes sizes as people read them', () => {
    expect(formatBytes(1024 * 1024)).toBe('1 MB');
    expect(formatBytes(16 * 1024)).toBe('16 KB');
    expect(formatBytes(300)).toBe('300 bytes');
    // At each unit's bound, one past it, and between: a unit only for a whole number of it.
    expect(formatBytes(0)).toBe('0 bytes');
    expect(formatBytes(1023)).toBe('1023 bytes');
    expect(formatBytes(1024)).toBe('1 KB');
    expect(formatBytes(1025)).toBe('1025 bytes');
    expect(formatBytes(1024 * 1024 - 1024)).toBe('1023 KB');
    expect(formatBytes(1024 * 1024 + 1024)).toBe('1025 KB');
    expect(formatBytes(1024 * 1024 + 1)).toBe('1048577 bytes');
  });

  it('refuses past the limit on every method that sends a body, with no-store; closes only after a 413', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      const over = await app().request('/x', { method, body: 'abcde'.repeat(30) });
      expect(over.status, method).toBe(413);
      expect(over.headers.get('cache-control'), method).toBe('no-store');
    }
    const notJson = await post('/json/1', '{}', 'text/plain');
    expect(notJson.status).toBe(415);
    expect(notJson.headers.get('cache-control')).toBe('no-store');
    expect(notJson.headers.get('connection')).toBeNull();
    expect(await notJson.json()).toEqual({
      code: 415,
      msg: 'The request body must be JSON (Content-Type: application/json)',
    });
  });

  it("names the upload before /v1/*, so an upload is never buffered by the table's 1 MB", () => {
    const node = nodeBodyLimits(500 * 1024 * 1024);
    expect(node.ruleFor('POST', '/v1/figure-resource/upload/file')).toMatchObject({
      maxBytes: 500 * 1024 * 1024,
      countedByRoute: true,
    });
    expect(node.ruleFor('POST', '/v1/image_generate')).toMatchObject({ maxBytes: 1024 * 1024 });
  });
});

describe('sameSiteOnly', () => {
  const guarded = () => {
    const hono = new Hono();
    hono.use(sameSiteOnly({ exempt: (c) => c.req.path.startsWith('/callbacks/'), everyMethodUnder: '/v1/' }));
    hono.all('*', (c) => c.text('ok'));
    return hono;
  };
  const send = (method: string, path: string, site?: string) =>
    guarded().request(path, { method, headers: site ? { 'sec-fetch-site': site } : {} });

  it('refuses every change marked cross-site or same-site, and any request under /v1', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'])
      for (const site of ['cross-site', 'same-site'])
        expect((await send(method, '/x', site)).status).toBe(403);
    expect((await send('GET', '/v1/image_generate/i2is-1', 'cross-site')).status).toBe(403);
  });

  it('lets through the console itself, requests without the header, reads, and the exempt inbox', async () => {
    expect((await send('POST', '/x', 'same-origin')).status).toBe(200);
    expect((await send('POST', '/x', 'none')).status).toBe(200);
    expect((await send('POST', '/x')).status).toBe(200);
    expect((await send('GET', '/x', 'cross-site')).status).toBe(200);
    expect((await send('POST', '/callbacks/secret-0123456789abcdef', 'cross-site')).status).toBe(200);
  });
});
