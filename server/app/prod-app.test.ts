import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import type { Server } from 'node:http';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { testDatabase } from '../testing/database';
import { createProdApp, HEALTH_PATH, IMMUTABLE } from './prod-app';
import { createProxyApp } from '../proxy/proxy';
import { APP_JS, fakeNodeApp, INDEX_HTML, makeDist, prodConfig } from '../testing/prod-server';
import { MB, sendUpload, uploadService } from '../testing/upload-sockets';

// The fake node app's database (PGlite) opens once per file, before the first test's clock starts.
beforeAll(async () => {
  await testDatabase();
});
let dist: ReturnType<typeof makeDist>;
beforeEach(() => {
  dist = makeDist();
});
afterEach(() => dist.cleanup());

function open(env: Record<string, string> = {}) {
  return createProdApp(prodConfig(dist.dir, env), { nodeApp: fakeNodeApp() }).app;
}

describe('production server: static files', () => {
  it('serves index.html at / and as the fallback of client routes, never cached', async () => {
    const app = open();
    for (const path of [
      '/',
      '/index.html',
      '/tasks',
      '/tasks/abc-123',
      '/tasks/task.with.dots',
      '/translate?x=1',
      '/callbacks',
    ]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(INDEX_HTML);
    }
  });

  it('caches hashed assets for a year and compresses them', async () => {
    const res = await open().request('/assets/index-abc.js', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(APP_JS);
  });

  it('serves hashed assets with brotli when the browser accepts it', async () => {
    const app = open();
    const res = await app.request('/assets/index-abc.js', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(res.headers.get('cache-control')).toBe(IMMUTABLE);
    expect(res.headers.get('content-type')).toMatch(/javascript/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(brotliDecompressSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(APP_JS);
    const again = await app.request('/assets/index-abc.js', { headers: { 'accept-encoding': 'br' } });
    expect(again.headers.get('content-encoding')).toBe('br');
    const refused = await app.request('/assets/index-abc.js', {
      headers: { 'accept-encoding': 'br;q=0, gzip' },
    });
    expect(refused.headers.get('content-encoding')).toBe('gzip');
    const head = await app.request('/assets/index-abc.js', {
      method: 'HEAD',
      headers: { 'accept-encoding': 'br' },
    });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const missing = await app.request('/assets/missing.js', { headers: { 'accept-encoding': 'br' } });
    expect(missing.status).toBe(404);
    const escape = await app.request('/assets/%2e%2e/%2e%2e/etc/passwd.js', {
      headers: { 'accept-encoding': 'br' },
    });
    expect(escape.status).toBe(404);
  });

  it('sends the brotli the build wrote beside an asset as it is, and compresses one without', async () => {
    // Not the brotli of APP_JS: only a server that reads the build's file sends this.
    const prebuilt = brotliCompressSync(Buffer.from('/* the build wrote this */'.repeat(20)));
    writeFileSync(join(dist.dir, 'assets', 'index-abc.js.br'), prebuilt);
    const app = open();
    const sent = await app.request('/assets/index-abc.js', { headers: { 'accept-encoding': 'br' } });
    expect(sent.headers.get('content-encoding')).toBe('br');
    expect(sent.headers.get('content-type')).toMatch(/javascript/);
    expect(Buffer.from(await sent.arrayBuffer())).toEqual(prebuilt);
    rmSync(join(dist.dir, 'assets', 'index-abc.js.br'));
    const compressed = await open().request('/assets/index-abc.js', { headers: { 'accept-encoding': 'br' } });
    expect(brotliDecompressSync(Buffer.from(await compressed.arrayBuffer())).toString()).toBe(APP_JS);
  });

  it('answers 404 for missing assets and files instead of the HTML page', async () => {
    const app = open();
    expect((await app.request('/assets/missing-123.js')).status).toBe(404);
    expect((await app.request('/robots.txt')).status).toBe(404);
    expect((await app.request('/assets/%2e%2e/%2e%2e/package.json')).status).toBe(404);
  });

  it('serves other files of dist with a short cache', async () => {
    const res = await open().request('/favicon.svg');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('refuses to start without a build', () => {
    expect(() => createProdApp(prodConfig('/nonexistent-dist'), { nodeApp: fakeNodeApp() })).toThrow(
      /npm run build/,
    );
  });
});

describe('production server: answering before the database is open', () => {
  it('serves the page and /healthz at once; a request that needs the database waits for it', async () => {
    // The real Node side, opening its PGlite (a copy of the template: about a second).
    const prod = createProdApp(prodConfig(dist.dir, {}, { database: true }));
    try {
      const health = await prod.app.request(HEALTH_PATH);
      expect(health.status).toBe(503);
      expect(health.headers.get('retry-after')).toBe('1');
      expect(await health.json()).toEqual({ status: 'starting', database: 'opening' });
      const page = await prod.app.request('/tasks');
      expect(page.status).toBe(200);
      expect(await page.text()).toBe(INDEX_HTML);

      const tasks = await prod.app.request('/__console/tasks?tab=all');
      expect(tasks.status).toBe(200);
      expect(await tasks.json()).toMatchObject({ code: 0, data: { items: [], counts: { all: 0 } } });
      await prod.ready;
      const ready = await prod.app.request(HEALTH_PATH);
      expect(ready.status).toBe(200);
      // With how the server follows unfinished tasks (server/follow): nothing yet.
      expect(await ready.json()).toEqual({
        status: 'ok',
        database: 'ready',
        following: { tasks: 0, oldestUnfinishedSeconds: null, pausedUntil: null, lastError: null },
      });
    } finally {
      await prod.ready.catch(() => undefined);
      await prod.close();
    }
  });

  it('says so on /healthz when the database cannot be used', async () => {
    const database = Promise.reject(new Error('migrated by a newer version of this console'));
    const prod = createProdApp(prodConfig(dist.dir), { nodeApp: { ...fakeNodeApp(), database } });
    await expect(prod.ready).rejects.toThrow(/newer version/);
    const health = await prod.app.request(HEALTH_PATH);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'failed', database: 'failed' });
  });
});

describe('production server: Node side', () => {
  it('passes /v1, /callbacks and /emulator to the Node side', async () => {
    const app = open();
    expect(await (await app.request('/v1/ping')).json()).toEqual({ code: 200, msg: 'ok' });
    expect(await (await app.request('/callbacks/s3cret-s3cret-s3cret', { method: 'POST' })).json()).toEqual({
      received: 's3cret-s3cret-s3cret',
    });
    expect((await app.request('/emulator/media/sample.png')).headers.get('content-type')).toBe('image/png');
  });

  it('does not compress server-sent events', async () => {
    const res = await open().request('/callbacks/s3cret-s3cret-s3cret/events', {
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(res.headers.get('content-encoding')).toBeNull();
    expect(res.headers.get('x-accel-buffering')).toBe('no');
  });

  it('adds auth and extra fields to /__console/config', async () => {
    const app = createProdApp(prodConfig(dist.dir), {
      nodeApp: fakeNodeApp(),
      consoleInfoExtra: () => ({ demo: true }),
    }).app;
    const res = await app.request('/__console/config');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({
      backend: 'emulator',
      apiHost: null,
      tokenConfigured: true,
      auth: false,
      demo: true,
    });
  });
});

describe('production server: the token never reaches the browser', () => {
  it('serves /__console/config and pages without API_TOKEN anywhere in the raw text', async () => {
    const TOKEN = 'prod-token-never-in-the-browser-7c1d';
    const remote = { API_BASE_URL: 'https://api.example.com', API_TOKEN: TOKEN };
    for (const env of [remote, { ...remote, APP_PASSWORD: 'long enough pw' }] as Record<string, string>[]) {
      // The real Node side (not the stand-in): what npm start serves.
      const prod = createProdApp(prodConfig(dist.dir, env, { database: true }));
      try {
        for (const path of ['/__console/config', '/', '/tasks', '/assets/index-abc.js', '/login']) {
          const response = await prod.app.request(path, {
            headers: { accept: 'text/html,application/json' },
          });
          const text = await response.text();
          expect(text, path).not.toContain(TOKEN);
          expect(JSON.stringify([...response.headers]), path).not.toContain(TOKEN);
        }
        if (!env.APP_PASSWORD) {
          const info = (await (await prod.app.request('/__console/config')).json()) as Record<
            string,
            unknown
          >;
          expect(info).toMatchObject({
            backend: 'remote',
            apiHost: 'api.example.com',
            tokenConfigured: true,
          });
        }
      } finally {
        await prod.close();
      }
    }
    // Two real Node sides, each migrating a fresh in-memory database on its first request.
  }, 120_000);
});

describe('production server: security headers', () => {
  it('sets them on pages, assets, API answers and errors', async () => {
    const app = open({ MEDIA_ORIGINS: 'https://cdn.example.com' });
    for (const path of ['/', '/assets/index-abc.js', '/v1/ping', '/assets/missing.js']) {
      const res = await app.request(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("script-src 'self'");
      expect(csp).not.toMatch(/unsafe-(inline|eval)/);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toMatch(/img-src 'self' blob: https:\/\/cdn\.example\.com/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    }
  });

  it('sends HSTS only when the public address is https', async () => {
    expect((await open().request('/')).headers.get('strict-transport-security')).toBeNull();
    const https = await open({
      PUBLIC_BASE_URL: 'https://console.example.com',
      ALLOW_OPEN_ACCESS: '1',
    }).request('/');
    expect(https.headers.get('strict-transport-security')).toBe('max-age=15552000');
  });

  it('allows media from the API host when proxying', async () => {
    const env = { API_BASE_URL: 'https://api.example.com/v1', API_TOKEN: 't' };
    const res = await open(env).request('/');
    expect(res.headers.get('content-security-policy')).toMatch(
      /media-src 'self' blob: https:\/\/api\.example\.com;/,
    );
  });
});

describe('production server behind a reverse proxy', () => {
  it('gives the Node side the public address, body and method intact', async () => {
    const nodeApp = fakeNodeApp();
    nodeApp.app.post('/v1/echo', async (c) => c.json({ url: c.req.url, body: await c.req.json() }));
    const app = createProdApp(
      prodConfig(dist.dir, { PUBLIC_BASE_URL: 'https://console.example.com', ALLOW_OPEN_ACCESS: '1' }),
      {
        nodeApp,
      },
    ).app;
    const res = await app.request('http://127.0.0.1:8080/v1/echo?x=1', {
      method: 'POST',
      body: JSON.stringify({ a: 1 }),
      headers: { 'content-type': 'application/json' },
    });
    expect(await res.json()).toEqual({ url: 'https://console.example.com/v1/echo?x=1', body: { a: 1 } });
  });

  it('over real sockets, hands an upload on from the socket intact and a JSON body too', async () => {
    const service = await uploadService();
    const nodeApp = fakeNodeApp();
    nodeApp.app.post('/v1/echo', async (c) => c.json({ url: c.req.url, body: await c.req.json() }));
    nodeApp.app.route('/', createProxyApp({ apiBaseUrl: service.url, apiToken: 'prod-upload-token' }));
    const app = createProdApp(
      prodConfig(dist.dir, { PUBLIC_BASE_URL: 'https://console.example.com', ALLOW_OPEN_ACCESS: '1' }),
      {
        nodeApp,
      },
    ).app;
    const server = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, () =>
        resolve(started as Server),
      );
    });
    try {
      const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
      const browser = sendUpload(origin, 6 * MB);
      expect((await browser.answer).status).toBe(200);
      // Copying the request for the public address must not start a second reader on the socket.
      expect(service.requests[0]).toMatchObject({ sha: browser.sha(), complete: true });
      const echo = await fetch(`${origin}/v1/echo`, {
        method: 'POST',
        body: JSON.stringify({ a: 1 }),
        headers: { 'content-type': 'application/json' },
      });
      expect(await echo.json()).toEqual({ url: 'https://console.example.com/v1/echo', body: { a: 1 } });
    } finally {
      server.closeAllConnections();
      await Promise.all([server, service.server].map((s) => new Promise((resolve) => s.close(resolve))));
    }
  });
});

describe('production server: status polls in its own context (proxy mode, node-app.ts v1Get)', () => {
  const TOKEN = 'prod-status-token-5e2a';
  let service: Server;
  let serviceUrl = '';
  const asked: string[] = [];
  beforeAll(async () => {
    const api = new Hono();
    api.get('/v1/image_generate/:id', (c) => {
      asked.push(c.req.header('authorization') ?? '');
      return c.json({ code: 0, msg: 'ok', data: { task_id: c.req.param('id'), status: 'SUCCEEDED' } });
    });
    service = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: api.fetch, hostname: '127.0.0.1', port: 0 }, () =>
        resolve(started as Server),
      );
    });
    serviceUrl = `http://127.0.0.1:${(service.address() as { port: number }).port}`;
    return () => new Promise<void>((resolve) => service.close(() => resolve()));
  });
  beforeEach(() => {
    asked.length = 0;
  });

  it('keeps the host check, the sign-in and the security headers, and records the answer', async () => {
    const prod = createProdApp(
      prodConfig(dist.dir, { API_BASE_URL: serviceUrl, API_TOKEN: TOKEN }, { database: true }),
    );
    try {
      await prod.ready;
      const res = await prod.app.request('http://127.0.0.1:8080/v1/image_generate/i2is-fast-1');
      expect(res.status).toBe(200);
      // Before the body is read: reading it rebuilds a lightweight response from its first headers.
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await res.json()).toMatchObject({ data: { task_id: 'i2is-fast-1', status: 'SUCCEEDED' } });
      expect(asked).toEqual([`Bearer ${TOKEN}`]);
      const task = await prod.app.request('http://127.0.0.1:8080/__console/tasks/i2is-fast-1');
      expect(await task.json()).toMatchObject({ data: { task: { id: 'i2is-fast-1', status: 'SUCCEEDED' } } });
      // Another host name: refused before anything else runs.
      const elsewhere = await prod.app.request('http://evil.example/v1/image_generate/i2is-fast-2');
      expect(elsewhere.status).toBe(421);
      // A cross-site browser request: the proxy refuses it, as on every /v1 path.
      const crossSite = await prod.app.request('http://127.0.0.1:8080/v1/image_generate/i2is-fast-3', {
        headers: { 'sec-fetch-site': 'cross-site' },
      });
      expect(crossSite.status).toBe(403);
      expect(asked).toHaveLength(1);
    } finally {
      await prod.close();
    }
  });

  it('asks for a sign-in before the service is asked', async () => {
    const prod = createProdApp(
      prodConfig(
        dist.dir,
        { API_BASE_URL: serviceUrl, API_TOKEN: TOKEN, APP_PASSWORD: 'long enough pw' },
        { database: true },
      ),
    );
    try {
      await prod.ready;
      const res = await prod.app.request('http://127.0.0.1:8080/v1/image_generate/i2is-fast-4');
      expect(res.status).toBe(401);
      expect(asked).toHaveLength(0);
    } finally {
      await prod.close();
    }
  });
});
