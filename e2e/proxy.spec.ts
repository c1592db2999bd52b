// The token path end to end: a standalone emulator that demands EMULATOR_TOKEN, and a second app
// instance started with API_BASE_URL/API_TOKEN pointing at it. Requests from the page must succeed
// (so the Node side added the right token) while nothing the browser sends, receives or stores
// contains the token.
import type { Page, Request, Response } from '@playwright/test';
import { expect, test } from './fixtures';
import { E2E_PORTS, E2E_TOKEN } from '../playwright.config';
import { startProxiedDevServer, startStandaloneEmulator, type StartedServer } from './standalone-servers';

// Servers on fixed ports, started once for the file: its tests stay in one worker, in order.
test.describe.configure({ mode: 'default' });

const APP = `http://127.0.0.1:${E2E_PORTS.proxiedApp}`;
const EMULATOR = `http://127.0.0.1:${E2E_PORTS.standaloneEmulator}`;
const API_HOST = `127.0.0.1:${E2E_PORTS.standaloneEmulator}`;

test.use({ baseURL: APP });

// This file's own pair, started here so that no other run pays for it.
let servers: StartedServer[] = [];
test.beforeAll(async () => {
  test.setTimeout(150_000); // vite dev and tsx start in seconds alone, far slower on two busy cores
  const emulator = await startStandaloneEmulator(E2E_PORTS.standaloneEmulator);
  servers = [emulator];
  servers.push(await startProxiedDevServer(E2E_PORTS.proxiedApp, emulator.url));
});
test.afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
});

interface Recorded {
  requests: Request[];
  responses: Response[];
}

function record(page: Page): Recorded {
  const recorded: Recorded = { requests: [], responses: [] };
  page.on('request', (request) => recorded.requests.push(request));
  page.on('response', (response) => recorded.responses.push(response));
  return recorded;
}

/** Every request that left the browser: no token anywhere, no Authorization header at all. */
async function expectNoTokenSent(requests: Request[]) {
  expect(requests.length).toBeGreaterThan(0);
  for (const request of requests) {
    const headers = await request.allHeaders();
    const where = `${request.method()} ${request.url()}`;
    expect(
      Object.keys(headers).map((name) => name.toLowerCase()),
      where,
    ).not.toContain('authorization');
    expect(JSON.stringify(headers), where).not.toContain(E2E_TOKEN);
    expect(request.url(), where).not.toContain(E2E_TOKEN);
    expect(request.postData() ?? '', where).not.toContain(E2E_TOKEN);
    // API calls go to the page's own origin, never to the service directly. (Result media, such as
    // generated images, is loaded from wherever the service's result links point.)
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v1/')) expect(url.origin, where).toBe(APP);
  }
}

/** Resolves to `fallback` if `promise` takes longer than `ms` (a stream that never ends). */
const within = <T>(promise: Promise<T>, ms: number, fallback: T) =>
  Promise.race([promise, new Promise<T>((resolve) => setTimeout(() => resolve(fallback), ms))]);

async function expectNoTokenReceived(responses: Response[]) {
  expect(responses.length).toBeGreaterThan(0);
  for (const response of responses) {
    const where = `${response.request().method()} ${response.url()}`;
    const headers = response.headers();
    expect(JSON.stringify(headers), where).not.toContain(E2E_TOKEN);
    // Server-Sent Events (the callback inbox) never end, so their body cannot be read whole.
    if (headers['content-type']?.includes('text/event-stream')) continue;
    // Redirects have no body to read.
    const body = await within(
      response.body().catch(() => Buffer.alloc(0)),
      5_000,
      Buffer.alloc(0),
    );
    expect(body.includes(E2E_TOKEN), where).toBe(false);
  }
}

type Envelope = { code: number; msg?: string; data?: unknown };
const fetchFromPage = (page: Page, path: string, body?: unknown) =>
  page.evaluate(
    async ({ path, body }) => {
      const init: RequestInit =
        body === undefined
          ? {}
          : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) };
      const response = await fetch(path, init);
      return { status: response.status, json: (await response.json()) as Envelope };
    },
    { path, body },
  );

test('the emulator really demands the token, so success through the proxy proves it was added', async ({
  request,
}) => {
  const anonymous = await request.get(`${EMULATOR}/v1/video_translate/target_languages`);
  expect(anonymous.status()).toBe(401);
  const wrong = await request.get(`${EMULATOR}/v1/video_translate/target_languages`, {
    headers: { authorization: 'Bearer not-the-token' },
  });
  expect(wrong.status()).toBe(401);
});

test('the header shows the API host, and no token banner', async ({ page }) => {
  await page.goto('/');
  await expect(page.getByRole('banner')).toContainText(API_HOST);
  await expect(page.getByRole('banner')).not.toContainText('Built-in emulator');
  await expect(page.getByText('API_TOKEN is not set')).toHaveCount(0);
});

test('requests from the page succeed through the proxy without the token ever reaching the browser', async ({
  page,
}) => {
  const recorded = record(page);
  await page.goto('/');
  await expect(page.getByRole('banner')).toContainText(API_HOST);

  const languages = await fetchFromPage(page, '/v1/video_translate/target_languages');
  expect(languages.status).toBe(200);
  expect(languages.json.code).toBe(0);
  expect(Array.isArray(languages.json.data)).toBe(true);

  const created = await fetchFromPage(page, '/v1/image_generate', {
    prompt: 'a lighthouse at dusk',
    generate_count: 2,
  });
  expect(created.status).toBe(200);
  expect(created.json.code).toBe(0);
  const taskIds = (created.json.data as { task_ids: string[] }).task_ids;
  expect(taskIds).toHaveLength(2);

  const status = await fetchFromPage(page, `/v1/image_generate/${encodeURIComponent(taskIds[0]!)}`);
  expect(status.json.code).toBe(0);
  expect(status.json.data).toMatchObject({ task_id: taskIds[0] });

  // Visit every screen so their own requests are recorded too.
  // Callbacks is in the header's Support navigation, the others in Main.
  for (const link of ['Translate video', 'Tasks', 'Callbacks', 'Create image']) {
    await page.getByRole('banner').getByRole('link', { name: link, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  await page.waitForLoadState('networkidle');

  await expectNoTokenSent(recorded.requests);
  await expectNoTokenReceived(recorded.responses);
  const paths = recorded.requests.map((request) => new URL(request.url()).pathname);
  expect(paths).toContain('/v1/video_translate/target_languages');
  expect(paths).toContain('/v1/image_generate');
});

test('a real form submission goes through the proxy, and the server follows its task there', async ({
  page,
}) => {
  const recorded = record(page);
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Prompt' }).fill('A harbour at night, through the proxy');
  await page.getByRole('spinbutton', { name: 'Number of images' }).fill('2');
  await page.getByRole('button', { name: 'Generate images' }).click();

  const panel = page.getByRole('region', { name: '2 image tasks created' });
  await expect(panel).toBeVisible();
  const links = panel.getByRole('link', { name: /^i2is-/ });
  await expect(links).toHaveCount(2);
  await links.first().click();
  await expect(page).toHaveURL(/\/tasks\/i2is-/);
  // The server asked the service through the proxy, with the token; the page shows what it recorded.
  await expect(page.getByText(/^(GENERATING|SUCCEEDED)$/).first()).toBeVisible({ timeout: 15_000 });
  // The browser reads the team's record only: it never asks the service about a task itself.
  expect(recorded.requests.some((r) => /\/v1\/image_generate\/i2is-/.test(new URL(r.url()).pathname))).toBe(
    false,
  );

  expect(await page.content()).not.toContain(E2E_TOKEN);
  await expectNoTokenSent(recorded.requests);
  await expectNoTokenReceived(recorded.responses);
});

test('the page HTML, scripts and console config do not contain the token', async ({ page, request }) => {
  const recorded = record(page);
  await page.goto('/');
  await expect(page.getByRole('banner')).toContainText(API_HOST);
  expect(await page.content()).not.toContain(E2E_TOKEN);

  const scripts = recorded.responses.filter((response) =>
    ['script', 'document', 'stylesheet'].includes(response.request().resourceType()),
  );
  expect(scripts.length).toBeGreaterThan(1);
  await expectNoTokenReceived(scripts);

  const config = await request.get(`${APP}/__console/config`);
  const text = await config.text();
  expect(JSON.parse(text)).toMatchObject({ backend: 'remote', apiHost: API_HOST, tokenConfigured: true });
  expect(text).not.toContain(E2E_TOKEN);
});

test('a page of another origin cannot spend the token through the proxy', async ({ page }) => {
  // Another origin on the same host (the standalone emulator's), without this console's
  // Content-Security-Policy, as an attacker's page would be: the browser marks its requests same-site.
  await page.goto(`${EMULATOR}/emulator/health`);
  // Vite's dev server may reload the page once while it settles its dependency cache; ask again then.
  await expect(async () => {
    const result = await page.evaluate(async (target) => {
      const response = await fetch(`${target}/v1/image_generate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'cross-site probe' }),
      }).catch((error: unknown) => ({ status: 0, error: String(error) }));
      return { status: response.status };
    }, APP);
    // Vite's dev CORS lets 127.0.0.1 origins through the preflight, so the request does arrive, marked
    // Sec-Fetch-Site: same-site by Chromium, and the proxy refuses it before it reaches the service.
    expect(result.status).toBe(403);
  }).toPass({ timeout: 15_000 });
});

test('browser storage never holds the token', async ({ page, context }) => {
  await page.goto('/');
  await fetchFromPage(page, '/v1/image_generate', { prompt: 'storage probe' });
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Tasks', exact: true })
    .click();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  const stored = await page.evaluate(async () => {
    const dump: string[] = [document.cookie];
    for (const storage of [localStorage, sessionStorage]) {
      for (let i = 0; i < storage.length; i += 1) {
        const key = storage.key(i)!;
        dump.push(key, storage.getItem(key) ?? '');
      }
    }
    for (const info of await indexedDB.databases()) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(info.name!);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error);
      });
      for (const name of Array.from(db.objectStoreNames)) {
        const all = await new Promise<unknown[]>((resolve, reject) => {
          const get = db.transaction(name, 'readonly').objectStore(name).getAll();
          get.onsuccess = () => resolve(get.result);
          get.onerror = () => reject(get.error);
        });
        dump.push(JSON.stringify(all));
      }
      db.close();
    }
    return dump.join('\n');
  });
  expect(stored).not.toContain(E2E_TOKEN);
  expect(JSON.stringify(await context.cookies())).not.toContain(E2E_TOKEN);
});

test('a file uploaded from the page streams through the dev mount to the service', async ({ page }) => {
  const recorded = record(page);
  await page.goto('/');
  const result = await page.evaluate(async () => {
    // A PNG signature, then 3 MB: past the 1 MB JSON limit, under the 20 MB image limit.
    const bytes = new Uint8Array(3 * 1024 * 1024);
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const form = new FormData();
    form.append('file', new Blob([bytes], { type: 'image/png' }), 'moodboard.png');
    const response = await fetch('/v1/figure-resource/upload/file', { method: 'POST', body: form });
    return { status: response.status, json: (await response.json()) as { code: number; result?: unknown } };
  });
  expect(result.status).toBe(200);
  expect(result.json).toMatchObject({ code: 0, result: { url: expect.stringContaining(API_HOST) } });
  await expectNoTokenSent(recorded.requests);
  await expectNoTokenReceived(recorded.responses);
});
