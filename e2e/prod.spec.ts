// The production server (`npm start` on the built dist/): strict CSP in a real Chromium, cache and
// security headers, sign-in with APP_PASSWORD (and an axe scan of its page), and the callback
// receiver left open for the service.
import { expectNoAxeViolations } from './axe';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { prodPort, startProdServer, type ProdServer } from './prod-server';

// Each group below has a server of its own on a fixed port, started once: its tests stay in one
// worker, in order, while the groups (each on its own port) may run on both workers at once. A start
// may take up to startProdServer's 90 s on a loaded 2-core machine: tests and hooks get 2 minutes.
test.describe.configure({ timeout: 120_000 });

const ROUTES = ['/', '/translate', '/tasks', '/callbacks'];
const PASSWORD = 'e2e-password-7d1c';
const CALLBACK_SECRET = 'e2e-callback-secret-4b9e';

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

async function watchPage(page: Page) {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400)
      problems.push(`HTTP ${response.status()} ${new URL(response.url()).pathname}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      (window.__cspViolations ??= []).push(`${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return problems;
}

test.describe('open production server', () => {
  test.describe.configure({ mode: 'default' });
  let server: ProdServer;
  test.beforeAll(async () => {
    server = await startProdServer(4180);
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('runs every screen under the strict CSP with no console errors', async ({ page }) => {
    const problems = await watchPage(page);
    for (const route of ROUTES) {
      await page.goto(server.url + route);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => window.__cspViolations ?? []), route).toEqual([]);
    }
    await page.getByRole('button', { name: /change theme/i }).click();
    expect(problems).toEqual([]);
  });

  /** The files that these import statically, themselves included (read from the served files). */
  async function staticClosure(request: APIRequestContext, start: string[]): Promise<Set<string>> {
    const files = new Set<string>();
    const visit = async (path: string) => {
      if (files.has(path)) return;
      files.add(path);
      const code = await (await request.get(server.url + path)).text();
      for (const match of code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g))
        await visit(`/assets/${match[1]}`);
    };
    for (const path of start) await visit(path);
    return files;
  }

  /** The files a screen's page names to load with the entry, its own chunk first. */
  async function preloadsOf(request: APIRequestContext, route: string): Promise<string[]> {
    const html = await (await request.get(server.url + route)).text();
    return [
      ...html.matchAll(/<link rel="modulepreload" crossorigin fetchpriority="low" href="([^"]+)">/g),
    ].map((match) => match[1]!);
  }

  test("a screen's page names the files that screen fetches, and nothing else, to load with the entry", async ({
    page,
    request,
  }) => {
    for (const route of [
      '/',
      '/translate',
      '/image-to-video',
      '/tasks',
      '/tasks/i2v-unknown-e2e',
      '/callbacks',
    ]) {
      const preloaded = await preloadsOf(request, route);
      expect(preloaded.length, route).toBeGreaterThan(0);
      const fetched = new Set<string>();
      page.on('request', (req) => fetched.add(new URL(req.url()).pathname));
      await page.goto(server.url + route);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      page.removeAllListeners('request');
      // Each named file is one the screen loads anyway: the list moves the wait, never adds bytes.
      for (const file of preloaded) expect(fetched, `${route}: ${file}`).toContain(file);
    }
  });

  test('a navigation link fetches its screen as the pointer reaches it, before the click', async ({
    page,
    request,
  }) => {
    const [boardsScreen] = await preloadsOf(request, '/boards');
    await page.goto(`${server.url}/tasks`);
    await expect(page.getByRole('heading', { level: 1, name: 'Tasks' })).toBeVisible();
    await page.waitForLoadState('networkidle');
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Boards' });
    const fetched = page.waitForRequest((req) => new URL(req.url()).pathname === boardsScreen);
    await link.hover();
    await fetched;
    await link.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Boards' })).toBeVisible();
  });

  test("the first screen paints its heading before it asks for the form's code", async ({
    page,
    request,
  }) => {
    // The frame after React put the heading in the page: the browser paints it in that frame.
    await page.addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (!document.querySelector('main h1')) return;
        observer.disconnect();
        requestAnimationFrame(
          () => ((window as { headingFrameAt?: number }).headingFrameAt = performance.now()),
        );
      }).observe(document, { childList: true, subtree: true });
    });
    const html = await (await request.get(`${server.url}/`)).text();
    const screenFiles = await staticClosure(
      request,
      [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((match) => match[1]!),
    );
    await page.goto(`${server.url}/`);
    await expect(page.getByRole('textbox', { name: 'Prompt' })).toBeVisible();
    const { headingFrameAt, scripts } = await page.evaluate(() => ({
      headingFrameAt: (window as { headingFrameAt?: number }).headingFrameAt,
      scripts: performance
        .getEntriesByType('resource')
        .filter((entry) => /\/assets\/[^/]+\.js$/.test(entry.name))
        .map((entry) => ({ path: new URL(entry.name).pathname, startTime: entry.startTime })),
    }));
    expect(headingFrameAt).toBeDefined();
    // The page's files and what they import come with the entry; the form's code (every other file)
    // is asked for only once the heading has painted, so it does not share the first paint's network.
    const later = scripts.filter((script) => !screenFiles.has(script.path));
    expect(later.length).toBeGreaterThan(0);
    for (const script of later) expect(script.startTime, script.path).toBeGreaterThan(headingFrameAt!);
  });

  test('sends security headers, long cache on hashed assets and no-cache on the page', async ({
    request,
  }) => {
    const page = await request.get(`${server.url}/tasks`);
    expect(page.headers()['cache-control']).toBe('no-cache');
    const csp = page.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe');
    expect(page.headers()['x-content-type-options']).toBe('nosniff');
    expect(page.headers()['x-frame-options']).toBe('DENY');
    expect(page.headers()['referrer-policy']).toBe('strict-origin-when-cross-origin');

    const script = /<script type="module"[^>]*src="([^"]+)"/.exec(await page.text())?.[1];
    expect(script).toMatch(/^\/assets\//);
    const asset = await request.get(server.url + script, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers()['content-encoding']).toBe('gzip');
    expect((await request.get(`${server.url}/assets/nope-123.js`)).status()).toBe(404);
  });
});

test.describe('production server with APP_PASSWORD', () => {
  test.describe.configure({ mode: 'default' });
  let server: ProdServer;
  test.beforeAll(async () => {
    server = await startProdServer(4181, { APP_PASSWORD: PASSWORD, CALLBACK_SECRET });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('asks for the password, then opens the app where the user was going', async ({ page }) => {
    const problems = await watchPage(page);
    await page.goto(`${server.url}/tasks`);
    await expect(page).toHaveURL(/\/login\?next=%2Ftasks$/);
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toHaveText('That password is not correct.');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL(`${server.url}/tasks`);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    // The account is the creator (one shared account with APP_PASSWORD): no name is asked, Mine uses it.
    await expect(page.getByRole('checkbox', { name: 'Mine' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Name for your tasks' })).toHaveCount(0);
    const listed = page.waitForRequest(
      (r) => r.url().includes('/__console/tasks?') && r.url().includes('creator='),
    );
    await page.getByRole('checkbox', { name: 'Mine' }).check();
    expect(new URL((await listed).url()).searchParams.get('creator')).toBe('Team (shared password)');
    await expect(page.getByText('Team (shared password)').first()).toBeVisible();
    // The wrong password's 401 is the only expected console error.
    expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
    expect(await page.evaluate(() => window.__cspViolations ?? [])).toEqual([]);
  });

  test('the sign-in page has no axe violations, light and dark, before and after a wrong password', async ({
    page,
  }) => {
    const problems = await watchPage(page);
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.goto(`${server.url}/login`);
      await expect(page.getByRole('heading', { level: 1, name: 'Media Console' })).toBeVisible();
      await expect(page.getByLabel('Password')).toBeFocused(); // autofocus: type straight away
      await expectNoAxeViolations(page, { message: `${colorScheme}, fresh` });

      await page.getByLabel('Password').fill(`wrong password (${colorScheme})`);
      await page.getByLabel('Password').press('Enter');
      await expect(page.getByRole('alert')).toHaveText('That password is not correct.');
      await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
      await expect(page.getByLabel('Password')).toHaveAccessibleDescription('That password is not correct.');
      await expectNoAxeViolations(page, { message: `${colorScheme}, wrong password` });
    }
    // Only the two wrong passwords' 401s; the page runs under the CSP.
    expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
    expect(await page.evaluate(() => window.__cspViolations ?? [])).toEqual([]);
  });

  test('keeps /v1 and /__console closed without a session', async ({ playwright }) => {
    const anonymous = await playwright.request.newContext();
    expect((await anonymous.get(`${server.url}/__console/config`)).status()).toBe(401);
    expect((await anonymous.post(`${server.url}/v1/image_generate`, { data: {} })).status()).toBe(401);
    expect((await anonymous.get(`${server.url}/callbacks/${CALLBACK_SECRET}/events`)).status()).toBe(401);
    // The secret-free door to the inbox the browser uses: behind the sign-in like all of /__console.
    expect((await anonymous.get(`${server.url}/__console/callbacks/events`)).status()).toBe(401);
    expect((await anonymous.get(`${server.url}/__console/callbacks/log`)).status()).toBe(401);
    expect((await anonymous.post(`${server.url}/__console/callbacks`, { data: {} })).status()).toBe(401);
    await anonymous.dispose();
  });

  test('leaves POST /callbacks/<secret> open for the service', async ({ playwright }) => {
    const anonymous = await playwright.request.newContext();
    const res = await anonymous.post(`${server.url}/callbacks/${CALLBACK_SECRET}`, {
      data: {
        code: 0,
        msg: 'ok',
        task_type: 'image_generate',
        data: { task_id: 'e2e-prod-1', status: 'FAILED', image_url: '', error_message: 'e2e' },
      },
      maxRedirects: 0,
    });
    expect(res.status()).toBe(200);
    await anonymous.dispose();
  });
});

test.describe('demo mode (npm run demo)', () => {
  test.describe.configure({ mode: 'default' });
  let server: ProdServer;
  test.beforeAll(async () => {
    // The demo seeds 30 days of a team's work before it answers: on a loaded 2-core machine that took
    // more than the default 45 s once.
    test.setTimeout(120_000);
    server = await startProdServer(4183, { DEMO: '1', EMULATOR_TIME_SCALE: '1' });
  });
  test.afterAll(async () => {
    await server?.stop();
  });

  test('opens on the gallery: example tasks in every state, cards with images, media allowed by the CSP', async ({
    page,
  }) => {
    const problems = await watchPage(page);
    // `npm run demo` prints the root address: a demo's first screen is Tasks, not an empty form.
    await page.goto(`${server.url}/`);
    await expect(page).toHaveURL(/\/tasks$/);
    await expect(page.getByText('SUCCEEDED').first()).toBeVisible({ timeout: 15_000 });
    // Cards show generated images that really load (PNGs painted for their prompt), not placeholders.
    const image = page.getByRole('img', { name: /^Generated image: / }).first();
    await expect(image).toBeVisible();
    await expect
      .poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 100))
      .toBe(true);
    // The grid is virtualized: each state is looked for on its own tab, not somewhere off screen.
    await page.getByRole('tab', { name: /Failed/ }).click();
    await expect(page.getByText('FAILED').first()).toBeVisible();
    // Failures read like the service's; the emulator's trigger words appear nowhere in the demo.
    await expect(
      page.getByText(/Content review failed|timed out|Speech recognition failed|try again later/).first(),
    ).toBeVisible();
    await expect(page.getByText(/emulator:|Emulated/)).toHaveCount(0);
    // No example stays running: nothing on the first screen says "Working on it…" for good.
    await page.getByRole('tab', { name: /^All/ }).click();
    await expect(page.getByText('SUCCEEDED').first()).toBeVisible();
    await expect(page.getByText(/Working on it|GENERATING|PROCESSING|PENDING/)).toHaveCount(0);
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => window.__cspViolations ?? [])).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('shows task details with their media under the CSP', async ({ page, request }) => {
    const problems = await watchPage(page);
    const info = (await (await request.get(`${server.url}/__console/config`)).json()) as {
      demoTasks: { id: string; kind: string }[];
    };
    await page.goto(`${server.url}/tasks`);
    await expect(page.getByText('SUCCEEDED').first()).toBeVisible({ timeout: 15_000 });
    for (const kind of ['image_generate', 'video_translate', 'image_to_video']) {
      // The oldest task of each kind has finished successfully.
      const task = info.demoTasks.filter((t) => t.kind === kind).at(-1);
      await page.goto(`${server.url}/tasks/${task?.id}`);
      await expect(page.getByText('SUCCEEDED').first()).toBeVisible();
      if (kind === 'image_to_video') {
        // The clip's poster is its first look: a real frame, not a black player.
        const video = page.getByLabel(/^Video of task /).first();
        const poster = await video.getAttribute('poster');
        expect(poster).toMatch(/^http/);
        expect((await request.get(poster!)).headers()['content-type']).toBe('image/jpeg');
      }
      await page.waitForLoadState('networkidle');
      expect(await page.evaluate(() => window.__cspViolations ?? []), kind).toEqual([]);
    }
    // The demo puts its tasks in the team's record at start: each page reads it, no 404 first.
    expect(problems).toEqual([]);
  });
});

test('with a real API_TOKEN set, nothing the browser receives contains it', async ({ page }) => {
  const TOKEN = 'e2e-prod-token-must-stay-on-the-server-41f7';
  const server = await startProdServer(4184, {
    API_BASE_URL: 'https://api.example.invalid',
    API_TOKEN: TOKEN,
  });
  try {
    const bodies: string[] = [];
    page.on('response', async (response) => {
      if (!response.url().startsWith(server.url)) return;
      const headers = JSON.stringify(await response.allHeaders());
      bodies.push(`${response.url()} ${headers} ${await response.text().catch(() => '')}`);
    });
    for (const path of ['/', '/translate', '/tasks', '/callbacks']) {
      await page.goto(`${server.url}${path}`);
      await page.waitForLoadState('networkidle');
    }
    await expect(page.getByRole('banner')).toContainText('api.example.invalid');
    expect(bodies.length).toBeGreaterThan(4);
    for (const body of bodies) expect(body).not.toContain(TOKEN);
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + document.cookie);
    expect(stored).not.toContain(TOKEN);
  } finally {
    await server.stop();
  }
});

test('a published console with no sign-in configured asks for one and prints a one-time set-up link', async () => {
  const url = `http://127.0.0.1:${prodPort(4182)}`;
  const server = await startProdServer(4182, {
    PUBLIC_BASE_URL: url,
    API_BASE_URL: '',
    ALLOW_OPEN_ACCESS: '',
  });
  try {
    // Printed once the database is open, a moment after the server has started to listen.
    await expect.poll(() => server.output()).toContain(`${url}/setup/`);
    const anonymous = await fetch(`${url}/__console/config`);
    expect(anonymous.status).toBe(401);
  } finally {
    await server.stop();
  }
});
