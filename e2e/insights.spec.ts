// The Insights screen on tasks made through the API (the emulator runs them): one succeeds, one fails
// (emulator:fail). The figures show for the person who made them, a chart's table alternative holds
// the same counts, a failure row opens the Tasks screen filtered to it, a task finishing while the
// screen is open shows without a reload, and the screen is axe-clean in light and dark (at 390 px in
// `npm test`, at 1280 px too in `npm run screenshots`). The person
// is signed in by an authenticating proxy's TRUSTED_AUTH_HEADER on a server of this file's own, so
// no other spec's tasks count as theirs.
import { axe } from './axe';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { prodPort, startProdServer, type ProdServer } from './prod-server';
import { SHOT_WIDTHS, saveScreenshot } from './screenshots';

const auth = { authorization: 'Bearer e2e' };
const run = Date.now().toString(36);
// Names with a space: TRUSTED_AUTH_ADMINS is split on commas only.
const PERSON = `Insight ${run}`;
/** The axe test's own person, so that test needs no other to have run first. */
const AXE_PERSON = `Insight axe ${run}`;
/** What an authenticating proxy on this machine (a trusted peer) says about who is asking. */
const USER_HEADER = 'x-forwarded-user';
const INSIGHTS_PORT = 4062;

// A server of this file's own on a fixed port: its tests stay in one worker, in order.
test.describe.configure({ mode: 'default' });

let server: ProdServer;
test.beforeAll(async () => {
  server = await startProdServer(INSIGHTS_PORT, {
    TRUSTED_AUTH_HEADER: USER_HEADER,
    // The header is believed only from the proxy's address, which must be named: the browser here.
    TRUSTED_PROXIES: '127.0.0.1/32',
    TRUSTED_AUTH_ADMINS: `${PERSON}, ${AXE_PERSON}`,
    STREAMS_PER_SESSION: '64',
  });
});
test.afterAll(async () => {
  await server?.stop();
});
// Every page and its API requests come from PERSON, through the proxy's header.
test.use({
  baseURL: `http://127.0.0.1:${prodPort(INSIGHTS_PORT)}`,
  extraHTTPHeaders: { [USER_HEADER]: PERSON },
});

/** An image-to-video task made as PERSON (or `person`), asked for until it has finished (the record keeps the answer). */
async function finishedTask(
  request: APIRequestContext,
  baseURL: string,
  prompt: string,
  person = PERSON,
): Promise<string> {
  const response = await request.post('/v1/image_to_video', {
    data: { image_url: `${baseURL}/emulator/samples/reference.png`, aspect_resolution: '720p', prompt },
    headers: person === PERSON ? auth : { ...auth, [USER_HEADER]: person },
  });
  expect(response.ok(), await response.text()).toBe(true);
  const id = ((await response.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
  await expect
    .poll(
      async () => {
        const status = await request.get(`/v1/image_to_video/${id}`, { headers: auth });
        return ((await status.json()) as { data?: { status?: string } }).data?.status;
      },
      { timeout: 20_000 },
    )
    .toMatch(/^(SUCCEEDED|FAILED)$/);
  return id;
}

const tile = (page: Page, label: string) =>
  page.getByRole('term').filter({ hasText: label }).locator('xpath=following-sibling::dd[1]');

async function openInsights(page: Page, person: string) {
  await page.goto(`/insights?person=${encodeURIComponent(person)}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Insights' })).toBeVisible();
}

test.describe('Insights', () => {
  test('figures for the seeded tasks, a matching table, a failure linking to Tasks, live', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await finishedTask(page.request, baseURL!, `insights ok ${run}`);
    const failed = await finishedTask(page.request, baseURL!, `insights emulator:fail ${run}`);

    await page.goto('/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Insights' }).click();
    await expect(page).toHaveURL(/\/insights$/);
    await page.getByRole('combobox', { name: 'Person' }).selectOption(PERSON);
    await expect(page).toHaveURL(
      new RegExp(`person=${encodeURIComponent(PERSON).replace(/%20/g, '(\\+|%20)')}`),
    );

    await expect(tile(page, 'Tasks created')).toHaveText('2');
    await expect(tile(page, 'Success rate').first()).toHaveText('50 %');
    await expect(tile(page, 'Failed')).toHaveText('1');
    await expect(
      page.getByRole('img', { name: /Line chart: tasks created per day by outcome/ }),
    ).toBeVisible();
    await expect(page.locator('canvas').first()).toBeVisible();

    // The chart's table alternative: today's row holds one success and one failure.
    const outcome = page.getByRole('region', { name: 'Tasks over time by outcome' });
    await outcome.getByText('Show as a table').click();
    const today = new Date().toISOString().slice(0, 10);
    const row = outcome.getByRole('row', { name: new RegExp(today) });
    await expect(row.getByRole('cell')).toHaveText(['1', '1', '0']);

    // Per person: the name, two tasks, 5 s of video made (the emulator's default duration).
    const person = page
      .getByRole('region', { name: 'Per person' })
      .getByRole('row', { name: new RegExp(PERSON) });
    await expect(person.getByRole('cell').first()).toHaveText('2');

    // Live: a task finishing while the screen is open counts without a reload.
    await finishedTask(page.request, baseURL!, `insights live ${run}`);
    await expect(tile(page, 'Tasks created')).toHaveText('3', { timeout: 30_000 });

    // A failure row opens the Tasks screen on the failed tab of that kind, this person's.
    const failures = page.getByRole('region', { name: 'Failures by reason' });
    await failures.getByRole('link', { name: /Emulated failure: the model could not process/ }).click();
    await expect(page).toHaveURL(/\/tasks\?tab=failed&kind=image_to_video&q=Insight/);
    await expect(page.getByRole('article').filter({ hasText: failed })).toBeVisible({ timeout: 15_000 });
  });

  test('a bad custom period says why; the CSV has the exact columns', async ({ page }) => {
    await page.goto('/insights?period=custom&from=2026-03-10&to=2026-03-01');
    await expect(page.getByRole('alert')).toHaveText('The first day must not be after the last day.');
    const csv = await page.request.get('/__console/insights.csv?from=2026-01-01&to=2026-01-02');
    expect(csv.status()).toBe(200);
    expect((await csv.text()).split('\r\n')[0]).toBe(
      'day,kind,creator,created,succeeded,failed,running,p50_seconds,p95_seconds',
    );
    const bad = await page.request.get('/__console/insights?kind=sculpture');
    expect(bad.status()).toBe(400);
    expect(((await bad.json()) as { msg: string }).msg).toContain('kind must be one of');
  });

  test(
    'axe-clean in light and dark with every table open, at 390 px (1280 px with screenshots)',
    { tag: '@screenshots' },
    async ({ page, baseURL }) => {
      // Each pass loads the screen and scans it with every table open: slow on a loaded machine.
      // `npm test` scans the phone width; `npm run screenshots` adds 1280 px and saves the PNGs.
      test.setTimeout(120_000);
      await finishedTask(page.request, baseURL!, `insights axe ${run}`, AXE_PERSON);
      for (const theme of ['light', 'dark'] as const) {
        for (const width of SHOT_WIDTHS) {
          await test.step(`${theme}, ${width} px`, async () => {
            await page.emulateMedia({ colorScheme: theme });
            await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
            await openInsights(page, AXE_PERSON);
            await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
            await expect(tile(page, 'Tasks created')).toHaveText('1');
            await expect(page.locator('canvas')).toHaveCount(3);
            await saveScreenshot(page, `insights-${theme}-${width}`);
            for (const summary of await page.getByText('Show as a table').all()) await summary.click();
            const results = await axe(page).analyze();
            expect
              .soft(
                results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`),
                `axe in ${theme} at ${width} px`,
              )
              .toEqual([]);
          });
        }
      }
    },
  );
});
