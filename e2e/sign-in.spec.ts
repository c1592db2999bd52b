// Single sign-on through a real OpenID Connect provider (oidc-provider on 127.0.0.1) in Chromium:
// three people sign in and get the role their groups give; the server holds each role; and the
// attacks on the way back: a replayed callback, an open redirect in the return path.
import { expect, test, type Browser } from '@playwright/test';
import { E2E_PORT_OFFSET } from '../playwright.config';
import { CLIENT, PEOPLE, startOidcProvider } from './oidc-provider';
import { prodPort, startProdServer, type ProdServer } from './prod-server';

// Servers on fixed ports, started once for the file: its tests stay in one worker, in order.
test.describe.configure({ mode: 'default' });

const PROVIDER_PORT = 4050 + E2E_PORT_OFFSET;
const CONSOLE_BASE_PORT = 4060;

let provider: Awaited<ReturnType<typeof startOidcProvider>>;
let server: ProdServer;

test.beforeAll(async () => {
  const consoleUrl = `http://127.0.0.1:${prodPort(CONSOLE_BASE_PORT)}`;
  provider = await startOidcProvider(PROVIDER_PORT, `${consoleUrl}/auth/callback`);
  server = await startProdServer(CONSOLE_BASE_PORT, {
    PUBLIC_BASE_URL: consoleUrl,
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: CLIENT.id,
    OIDC_CLIENT_SECRET: CLIENT.secret,
    OIDC_ADMIN_VALUES: 'media-admins',
    OIDC_CREATOR_VALUES: 'media-creators',
  });
});
test.afterAll(async () => {
  await server?.stop();
  await provider?.stop();
});

/** Through the provider's own login and consent pages, as a person would. */
async function signIn(browser: Browser, login: keyof typeof PEOPLE, path = '/tasks') {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(server.url + path);
  await expect(page).toHaveURL(/\/login\?next=/);
  await page.getByRole('link', { name: 'Sign in with single sign-on' }).click();
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill('any password');
  await page.locator('button[type="submit"]').click();
  // The provider asks once for consent.
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((url) => url.origin === server.url && !url.pathname.startsWith('/auth/'));
  return { context, page };
}

test('three people sign in through the provider; each gets the role their groups give, held by the server', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const expected = { vera: 'viewer', cole: 'creator', ada: 'admin' } as const;
  for (const login of ['vera', 'cole', 'ada'] as const) {
    const { context, page } = await signIn(browser, login);
    await expect(page).toHaveURL(`${server.url}/tasks`);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    // The header says who is signed in and their role (the phone's closed menu says it too, hidden).
    const header = page.getByRole('banner');
    await expect(header.getByText(PEOPLE[login].name).filter({ visible: true })).toBeVisible();
    const label = expected[login][0]!.toUpperCase() + expected[login].slice(1);
    await expect(header.getByText(label, { exact: true }).filter({ visible: true })).toBeVisible();
    if (login === 'vera') {
      await page.goto(`${server.url}/`);
      await expect(page.getByRole('button', { name: 'Generate images' })).toBeDisabled();
      await expect(page.getByText('Only creators and admins can create tasks')).toBeVisible();
    }
    const info = await (await page.request.get(`${server.url}/__console/config`)).json();
    expect(info.user).toMatchObject({ name: PEOPLE[login].name, role: expected[login], source: 'oidc' });
    const create = await page.request.post(`${server.url}/v1/image_generate`, {
      data: { prompt: 'a lighthouse', generate_count: 1 },
    });
    expect(create.status(), login).toBe(login === 'vera' ? 403 : 200);
    if (login === 'ada') {
      await page.getByRole('link', { name: /Signed in as Ada Admin/ }).click();
      await expect(page.getByRole('heading', { name: 'People', level: 1 })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'Audit log' })).toBeVisible();
      await expect(page.getByRole('listitem').filter({ hasText: 'Signed in' }).first()).toBeVisible();
      // For a person to look at (not kept): the People screen at desktop and phone widths.
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `test-results/e2e/identity/people-${width}.png`, fullPage: true });
      }
      await page.setViewportSize({ width: 1280, height: 720 });
    }
    if (login === 'vera') {
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({
          path: `test-results/e2e/identity/viewer-create-${width}.png`,
          fullPage: true,
        });
      }
    }
    const people = await page.request.get(`${server.url}/__console/people`);
    expect(people.status(), login).toBe(login === 'ada' ? 200 : 403);
    await context.close();
  }
});

test('a replayed callback (same state and code) signs nobody in', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  let callback = '';
  page.on('request', (request) => {
    if (request.url().startsWith(`${server.url}/auth/callback`)) callback = request.url();
  });
  await page.goto(`${server.url}/login`);
  await page.getByRole('link', { name: 'Sign in with single sign-on' }).click();
  await page.locator('input[name="login"]').fill('cole');
  await page.locator('input[name="password"]').fill('any password');
  await page.locator('button[type="submit"]').click();
  await page.locator('button[type="submit"]').click();
  await page.waitForURL(`${server.url}/`);
  expect(callback).toContain('state=');
  // In a browser that did not start the sign-in, and again in the one that did.
  const other = await browser.newContext();
  const thief = await other.newPage();
  await thief.goto(callback);
  await expect(thief.getByRole('alert')).toContainText('expired or was already used');
  expect((await thief.request.get(`${server.url}/__console/config`)).status()).toBe(401);
  await page.goto(callback);
  await expect(page.getByRole('alert')).toContainText('expired or was already used');
  await other.close();
  await context.close();
});

test('the return path never leaves the console (open redirect)', async ({ browser }) => {
  for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
    const { context, page } = await signIn(browser, 'cole', `/login?next=${encodeURIComponent(next)}`);
    expect(new URL(page.url()).origin).toBe(server.url);
    await context.close();
  }
});
