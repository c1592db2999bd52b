// The emulator's per-file policy (`default-src 'none'; sandbox`) on uploads and generated
// SVG images must survive the production server's own headers: replaced by the app-wide one, a file
// anyone can upload and open as a document would run under the app's looser policy.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { asset } from '../emulator/media';
import { UPLOAD_ROUTE } from '../emulator/uploads';
import type { NodeApp } from '../app/node-app';
import { createIdentityStore } from '../identity/store';
import { createProdApp } from '../app/prod-app';
import { contentSecurityPolicy, securityHeaders } from './security-headers';
import { emulatorsClosedAfterEach } from '../testing/emulator';
import { makeDist, prodConfig } from '../testing/prod-server';

const makeEmulator = emulatorsClosedAfterEach();
let dist: ReturnType<typeof makeDist>;
let dataDir: string;
beforeEach(() => {
  dist = makeDist();
  dataDir = mkdtempSync(join(tmpdir(), 'csp-uploads-'));
});
afterEach(() => {
  dist.cleanup();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The production server in front of the real emulator (no database is needed for these paths). */
function consoleOnEmulator() {
  const emulator = makeEmulator({ dataDir });
  emulator.clock.now = Date.now();
  const database = new Promise<Database>(() => undefined);
  const nodeApp: NodeApp = {
    app: emulator.app,
    database,
    identity: createIdentityStore(database),
    close: async () => undefined,
  };
  return { emulator, app: createProdApp(prodConfig(dist.dir), { nodeApp }).app };
}

/** The policies of a response, one per comma-separated entry (a browser enforces each). */
const policies = (res: Response) =>
  (res.headers.get('content-security-policy') ?? '').split(',').map((policy) => policy.trim());

describe('security headers: per-response policies', () => {
  it("keeps an uploaded file's default-src 'none' and sandbox, with the app's policy beside it", async () => {
    const { app } = consoleOnEmulator();
    const form = new FormData();
    form.append('file', new Blob([asset('reference.png') as Uint8Array<ArrayBuffer>]), 'moodboard.png');
    const uploaded = await app.request(UPLOAD_ROUTE, { method: 'POST', body: form });
    expect(uploaded.status).toBe(200);
    const url = new URL(((await uploaded.json()) as { result: { url: string } }).result.url);
    const file = await app.request(url.pathname);
    expect(file.status).toBe(200);
    expect(policies(file)).toEqual(["default-src 'none'; sandbox", contentSecurityPolicy()]);
    // A range request is the same file.
    const part = await app.request(url.pathname, { headers: { range: 'bytes=0-9' } });
    expect(part.status).toBe(206);
    expect(policies(part)[0]).toBe("default-src 'none'; sandbox");
  });

  it("gives a generated PNG image the app's policy alone (it is no document)", async () => {
    const { app, emulator } = consoleOnEmulator();
    const id = emulator.seedTask({ kind: 'image_generate', createdAt: emulator.clock.now - 3_600_000 });
    const png = await app.request(`/emulator/media/images/${id}.thumb.png`);
    expect(png.status).toBe(200);
    expect(png.headers.get('content-type')).toBe('image/png');
    expect(policies(png)).toEqual([contentSecurityPolicy()]);
  });

  it("gives every other answer the app's policy alone", async () => {
    const { app } = consoleOnEmulator();
    for (const path of ['/', '/emulator/samples/reference.png', '/v1/image_generate/none']) {
      expect(policies(await app.request(path)), path).toEqual([contentSecurityPolicy()]);
    }
  });
});

describe('the referrer policy', () => {
  it('is strict-origin-when-cross-origin, and stays no-referrer where a route asked for none (share links)', async () => {
    const app = new Hono();
    app.use(securityHeaders());
    app.get('/page', (c) => c.text('page'));
    app.get('/s/token', (c) => c.text('shared', 200, { 'referrer-policy': 'no-referrer' }));
    app.get('/loose', (c) => c.text('loose', 200, { 'referrer-policy': 'unsafe-url' }));
    expect((await app.request('/page')).headers.get('referrer-policy')).toBe(
      'strict-origin-when-cross-origin',
    );
    expect((await app.request('/s/token')).headers.get('referrer-policy')).toBe('no-referrer');
    expect((await app.request('/loose')).headers.get('referrer-policy')).toBe(
      'strict-origin-when-cross-origin',
    );
  });
});

describe('the policy and headers, word for word', () => {
  const strictPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' blob: data:; " +
    "media-src 'self' blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; " +
    "form-action 'self'; frame-ancestors 'none'";

  it('allows media from the listed origins once each, in images and media only', () => {
    expect(contentSecurityPolicy()).toBe(strictPolicy);
    expect(contentSecurityPolicy({ mediaOrigins: [] })).toBe(strictPolicy);
    expect(
      contentSecurityPolicy({ mediaOrigins: ['https://a.test', 'https://b.test', 'https://a.test'] }),
    ).toBe(
      strictPolicy
        .replace("img-src 'self' blob:", "img-src 'self' blob: https://a.test https://b.test")
        .replace("media-src 'self' blob:", "media-src 'self' blob: https://a.test https://b.test"),
    );
  });

  /** An app whose routes answer in the ways the middleware must handle. */
  function appWithHeaders(options?: Parameters<typeof securityHeaders>[0]) {
    const app = new Hono();
    app.use(securityHeaders(options));
    app.get('/page', (c) => c.text('page', 200, { 'x-powered-by': 'Hono' }));
    app.get('/own', (c) => c.text('file', 200, { 'content-security-policy': "default-src 'none'" }));
    // A redirect's headers are immutable, like a response passed through from elsewhere.
    app.get('/immutable', () => Response.redirect('https://elsewhere.test/next', 302));
    return app;
  }

  it('sets each header exactly, drops x-powered-by, and sends HSTS only when asked', async () => {
    const plain = await appWithHeaders().request('/page');
    expect(Object.fromEntries(plain.headers)).toEqual({
      'content-type': 'text/plain; charset=UTF-8',
      'content-security-policy': strictPolicy,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'strict-origin-when-cross-origin',
      'x-frame-options': 'DENY',
      'cross-origin-opener-policy': 'same-origin',
      'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
    });
    expect(await plain.text()).toBe('page');
    const secure = await appWithHeaders({ hsts: true }).request('/page');
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=15552000');
    const notAsked = await appWithHeaders({ hsts: false }).request('/page');
    expect(notAsked.headers.has('strict-transport-security')).toBe(false);
  });

  it("keeps a response's own policy first, the app's after it", async () => {
    const own = await appWithHeaders().request('/own');
    expect(own.headers.get('content-security-policy')).toBe(`default-src 'none', ${strictPolicy}`);
  });

  it('copies a response whose headers cannot change, keeping its status, location and body', async () => {
    const res = await appWithHeaders().request('/immutable');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://elsewhere.test/next');
    expect(res.headers.get('content-security-policy')).toBe(strictPolicy);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });
});
