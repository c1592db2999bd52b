// Spending limits end to end: an admin sets a limit of 1 image per day for a creator on the People
// screen; the creator's Create image form shows "1 of 1 image left today" beside its submit button;
// the first submission goes through, the second is refused by the server (429) and the refusal
// shows beside the submit button with the prompt kept. Two people, each signed in by an
// authenticating proxy's TRUSTED_AUTH_HEADER on a server of this file's own.
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { prodPort, startProdServer, type ProdServer } from './prod-server';

const run = Date.now().toString(36);
const ADMIN = `Ada.${run}`;
const CREATOR = `Cole.${run}`;
const USER_HEADER = 'x-forwarded-user';
const LIMITS_PORT = 4063;
const SHOTS = process.env.LIMITS_SHOTS;

// A server of this file's own on a fixed port: its tests stay in one worker, in order.
test.describe.configure({ mode: 'default' });

let server: ProdServer;
test.beforeAll(async () => {
  server = await startProdServer(LIMITS_PORT, {
    TRUSTED_AUTH_HEADER: USER_HEADER,
    // The header is believed only from the proxy's address, which must be named: the browser here.
    TRUSTED_PROXIES: '127.0.0.1/32',
    TRUSTED_AUTH_ADMINS: ADMIN,
  });
});
test.afterAll(async () => {
  await server?.stop();
});

async function personPage(browser: Browser, name: string): Promise<Page> {
  const context = await browser.newContext({
    baseURL: `http://127.0.0.1:${prodPort(LIMITS_PORT)}`,
    extraHTTPHeaders: { [USER_HEADER]: name },
  });
  return context.newPage();
}

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    // From the top: a full-page capture of a scrolled page draws the sticky header mid-page.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('an admin limits a creator to 1 image a day: the form shows what is left, the second submit is refused beside the button', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  // The creator signs in once (a viewer by default), so the admin can make them a creator.
  const creator = await personPage(browser, CREATOR);
  await creator.goto('/');
  await expect(creator.getByRole('button', { name: 'Generate images' })).toBeVisible();

  const admin = await personPage(browser, ADMIN);
  await admin.goto('/people');
  await admin.getByRole('combobox', { name: `Role of ${CREATOR}` }).selectOption('creator');
  await expect(admin.getByRole('combobox', { name: `Role of ${CREATOR}` })).toHaveValue('creator');
  const section = admin.getByRole('region', { name: 'Spending limits' });
  await section.getByRole('combobox', { name: 'Limits for' }).selectOption({ label: CREATOR });
  const perDay = section.getByRole('textbox', { name: 'Images per day' });
  // Every bound is checked before anything is sent, next to its field.
  await perDay.fill('-1');
  await section.getByRole('button', { name: 'Save limits' }).click();
  await expect(section.getByText(/Enter a whole number from 0 to 1,000,000/)).toBeVisible();
  await perDay.fill('1');
  await section.getByRole('button', { name: 'Save limits' }).click();
  await expect(section.getByRole('status')).toHaveText(`Limits of ${CREATOR} saved.`);
  await shoot(admin, 'limits-editor');
  // The change is in the audit log.
  await admin.reload();
  await expect(
    admin
      .getByRole('region', { name: 'Audit log' })
      .getByRole('listitem')
      .filter({ hasText: 'Limits changed' }),
  ).toContainText(CREATOR);

  await creator.goto('/');
  const prompt = creator.getByRole('textbox', { name: 'Prompt' });
  const submit = creator.getByRole('button', { name: 'Generate images' });
  await expect(creator.getByText('1 of 1 image left today')).toBeVisible();
  await shoot(creator, 'limits-form');
  await prompt.fill('a lighthouse at dusk');
  await submit.click();
  await expect(creator.getByRole('region', { name: '1 image task created' })).toBeVisible();
  await expect(creator.getByText('0 of 1 image left today')).toBeVisible();

  await prompt.fill('a second lighthouse');
  await submit.click();
  const refusal = creator.getByRole('alert').filter({ hasText: 'You have used 1 of 1 image today' });
  await expect(refusal).toHaveText('You have used 1 of 1 image today; resets at 00:00 UTC');
  // Beside the submit button (it describes the button), and what was typed is kept.
  await expect(submit).toHaveAttribute('aria-describedby', 'limit-refusal');
  await expect(prompt).toHaveValue('a second lighthouse');
  await shoot(creator, 'limits-refused');

  // The server holds it whatever the browser does: a direct call is refused too.
  const direct = await creator.request.post('/v1/image_generate', {
    data: { prompt: 'direct', generate_count: 1 },
  });
  expect(direct.status()).toBe(429);
  await creator.context().close();
  await admin.context().close();
});
