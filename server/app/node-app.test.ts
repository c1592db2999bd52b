// The Node side as the browser sees it: `/__console/config` describes the backend without ever
// including the token, and `/v1/*` goes to the proxy or the emulator.
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_CALLBACKS_PATH, CONSOLE_INBOX } from '../../src/api/schemas';
import type { NodeApp } from './node-app';
import { testNodeApp } from '../testing/test-node-app';

const TOKEN = 'node-app-test-token-93ab';
// An app per test, each with its own settings.
const server = testNodeApp('node-app-test');
afterEach(() => server.close());
afterAll(server.remove);

const start = (env: Record<string, string>) => server.open({ env });

async function consoleConfig(env: Record<string, string>) {
  const response = await (await start(env)).app.request('/__console/config');
  return { response, text: await response.text() };
}

describe('/__console/config', () => {
  it('describes a remote backend by host, never by token', async () => {
    const { response, text } = await consoleConfig({
      API_BASE_URL: 'https://api.keevx.com/v1',
      API_TOKEN: TOKEN,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(JSON.parse(text)).toMatchObject({
      backend: 'remote',
      apiHost: 'api.keevx.com',
      tokenConfigured: true,
    });
    expect(text).not.toContain(TOKEN);
    expect(text.toLowerCase()).not.toContain('bearer');
  });

  it('includes the port in the host of a local backend', async () => {
    const { text } = await consoleConfig({ API_BASE_URL: 'http://127.0.0.1:8798', API_TOKEN: TOKEN });
    expect(JSON.parse(text)).toMatchObject({ backend: 'remote', apiHost: '127.0.0.1:8798' });
    expect(text).not.toContain(TOKEN);
  });

  it('says when the token is missing, so the app can show its banner', async () => {
    const { text } = await consoleConfig({ API_BASE_URL: 'https://api.example.com' });
    expect(JSON.parse(text)).toMatchObject({
      backend: 'remote',
      apiHost: 'api.example.com',
      tokenConfigured: false,
    });
  });

  it('reports the built-in emulator when API_BASE_URL is unset, even if a token is set', async () => {
    const { text } = await consoleConfig({ API_TOKEN: TOKEN });
    expect(JSON.parse(text)).toMatchObject({ backend: 'emulator', apiHost: null, tokenConfigured: true });
    expect(text).not.toContain(TOKEN);
  });
});

describe('/v1/* with a remote backend', () => {
  it('answers the 401 envelope from the proxy when the token is missing', async () => {
    const app = (await start({ API_BASE_URL: 'http://127.0.0.1:9' })).app;
    const response = await app.request('/v1/image_generate', {
      method: 'POST',
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 401 });
  });

  it('answers 502 without leaking the token when the service is down', async () => {
    const app = (await start({ API_BASE_URL: 'http://127.0.0.1:9', API_TOKEN: TOKEN })).app;
    const response = await app.request('/v1/video_translate/target_languages');
    expect(response.status).toBe(502);
    expect(await response.text()).not.toContain(TOKEN);
  });
});

describe("GET /v1/* answered in the caller's context (v1Get)", () => {
  it("runs exactly the handlers the app's router matches for it, in the same order", async () => {
    const { app, v1Get } = await start({ API_BASE_URL: 'https://api.example.com', API_TOKEN: TOKEN });
    expect(v1Get).toBeDefined();
    for (const path of ['/v1/image_generate/i2is-1', '/v1/video_translate/target_languages', '/v1/x/y/z']) {
      // Each entry: [[handler, route], params].
      const matched = app.router
        .match('GET', path)[0]
        .map((entry: [[unknown, unknown], unknown]) => entry[0][0]);
      expect(matched, path).toEqual(v1Get!.handlers);
    }
  });

  it('is not offered with the in-process emulator', async () => {
    expect((await start({})).v1Get).toBeUndefined();
  });
});

describe('the in-process emulator fetches only public addresses (SSRF)', () => {
  let internal: Server;
  let internalUrl: string;
  const hits: string[] = [];
  beforeAll(async () => {
    internal = createServer((request, response) => {
      hits.push(`${request.method} ${request.url}`);
      response
        .writeHead(200, { 'content-type': 'image/png' })
        .end(readFileSync('server/emulator/assets/reference.png'));
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => internal.close(resolve)));

  const create = async (body: unknown) =>
    (await start({})).app.request('http://127.0.0.1:5173/v1/image_generate', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
      body: JSON.stringify(body),
    });

  it('refuses reference images on internal addresses with 530002 and one generic reason', async () => {
    hits.length = 0;
    for (const url of [`${internalUrl}/a.png`, `http://localhost:${new URL(internalUrl).port}/a.png`]) {
      const response = await create({ prompt: 'x', reference_images: [url] });
      const body = (await response.json()) as { code: number; msg: string };
      expect(body.code, url).toBe(530002);
      expect(body.msg, url).toContain('cannot be fetched');
      expect(body.msg, url).not.toMatch(/ECONN|refused|private|loopback/i);
    }
    expect(hits).toEqual([]);
  });

  it('never POSTs a callback to an internal address (loopback, link-local, mapped IPv6)', async () => {
    hits.length = 0;
    const logged: string[] = [];
    const nodeApp = await server.open({
      options: { emulator: { callbackRetryDelayMs: 1, log: (line) => logged.push(line) } },
    });
    const port = new URL(internalUrl).port;
    const targets = [
      `${internalUrl}/hook`,
      `http://localhost:${port}/hook`,
      `http://[::ffff:127.0.0.1]:${port}/hook`,
      'http://169.254.169.254/latest/meta-data/',
    ];
    for (const callbackUrl of targets) {
      const response = await nodeApp.app.request('http://127.0.0.1:5173/v1/video_translate', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
        body: JSON.stringify({
          target_languages: ['Japanese'],
          video_url: 'http://127.0.0.1:5173/emulator/samples/video.mp4',
          callback_url: callbackUrl,
        }),
      });
      expect(((await response.json()) as { code: number }).code, callbackUrl).toBe(0);
    }
    // Every delivery gives up (4 tries each) without one request reaching the internal server.
    for (let i = 0; i < 100 && logged.filter((l) => l.includes('gave up')).length < targets.length; i++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(hits).toEqual([]);
    expect(logged.filter((l) => l.includes('gave up'))).toHaveLength(targets.length);
  });

  it('still takes its own samples (answered in-process)', async () => {
    const response = await create({
      prompt: 'x',
      reference_images: ['http://127.0.0.1:5173/emulator/samples/reference.png'],
    });
    expect(((await response.json()) as { code: number }).code).toBe(0);
  });
});

describe('callback_url "console:inbox" (the browser never holds the inbox secret)', () => {
  const translate = (app: NodeApp['app'], callbackUrl: string) =>
    app.request('http://127.0.0.1:5173/v1/video_translate', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer t' },
      body: JSON.stringify({
        target_languages: ['Japanese'],
        video_url: 'http://127.0.0.1:5173/emulator/samples/video.mp4',
        callback_url: callbackUrl,
      }),
    });

  it('becomes the inbox address on the server, and the callback arrives there', async () => {
    const nodeApp = await server.open({ options: { emulator: { timeScale: 0.01 } } });
    const response = await translate(nodeApp.app, CONSOLE_INBOX);
    const body = (await response.json()) as { code: number; data: { task_id: string }[] };
    expect(body.code).toBe(0);
    const taskId = body.data[0]!.task_id;
    let found = false;
    for (let i = 0; i < 100 && !found; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const log = await nodeApp.app.request(`${CONSOLE_CALLBACKS_PATH}/log?task=${taskId}`);
      found = ((await log.json()) as { data: { total: number } }).data.total > 0;
    }
    expect(found).toBe(true);
  });

  it('is refused on its field when no reachable address is known (a real API without PUBLIC_BASE_URL)', async () => {
    const app = (await start({ API_BASE_URL: 'https://api.example.invalid', API_TOKEN: TOKEN })).app;
    const response = await translate(app, CONSOLE_INBOX);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 100001,
      msg: expect.stringMatching(/^callback_url: /),
    });
  });
});
