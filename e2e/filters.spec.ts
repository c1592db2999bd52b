// The Tasks screen's filters, order and table, on a console of its own with the demo's team record
// (30 days of tasks by three people, about one in ten failed): period, creator and error reason
// (with counts) narrow the list, "Longest first" orders it, the table shows it, the URL carries it
// all (a link opens the same view), looking up ids is a secondary control that still works, and a
// mistyped id is kept in no history.
import { expectNoAxeViolations } from './axe';
import type { Locator, Page } from '@playwright/test';
import { EMULATOR_DEFAULTS, expect, postSettings, test } from './fixtures';
import { startProdServer, type ProdServer } from './prod-server';

let server: ProdServer;

test.describe.configure({ mode: 'serial' });
test.beforeAll(async ({ playwright }) => {
  // The demo's record is seeded at start: on a loaded machine that took over a minute.
  test.setTimeout(180_000);
  server = await startProdServer(4187, { DEMO: '1' });
  const request = await playwright.request.newContext();
  await postSettings(request, server.url, EMULATOR_DEFAULTS);
  await request.dispose();
});
test.afterAll(async () => {
  await server?.stop();
});
/** A page of this spec's console (not the worker's app). */
const open = (page: Page, path: string) => page.goto(`${server.url}${path}`);

const table = (page: Page) => page.getByRole('table');
const rows = (page: Page) =>
  table(page)
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
/** The cells of one column (0: kind, 1: creator, 2: status, 3: created, 4: duration; the title is the row's header). */
const column = (page: Page, index: number) => rows(page).locator(`td:nth-child(${index + 2})`);

async function tabCount(page: Page, name: string): Promise<number> {
  const text = await page.getByRole('tab', { name: new RegExp(`^${name}`) }).innerText();
  return Number(/([\d,]+)\s*$/.exec(text)![1]!.replace(/,/g, ''));
}

/**
 * Waits for the view's own counts: while a new view loads, its tabs keep the last view's counts,
 * marked busy (never 0). Called once the URL has the new filters, so the busy state is already set.
 */
async function countsSettled(page: Page) {
  await expect(page.getByRole('tablist', { name: 'Task status' })).toHaveAttribute('aria-busy', 'false');
}

/** The narrowed view's own count: fewer than `all`, and some. */
async function expectNarrowed(page: Page, all: number) {
  await countsSettled(page);
  const count = await tabCount(page, 'All');
  expect(count).toBeGreaterThan(0);
  expect(count).toBeLessThan(all);
}

async function openFilters(page: Page) {
  const button = page.getByRole('button', { name: /^Filters/ });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  await expect(page.getByRole('group', { name: 'More filters' })).toBeVisible();
}

/** "1h 2m", "3m 05s", "41s" in seconds. */
function seconds(text: string): number {
  const part = (unit: string) => Number(new RegExp(`(\\d+)${unit}`).exec(text)?.[1] ?? 0);
  return part('h') * 3600 + part('m') * 60 + part('s');
}

async function texts(cells: Locator) {
  return (await cells.allInnerTexts()).map((text) => text.trim());
}

test('filter by creator: the pick list holds the team, every row is theirs, the URL says so', async ({
  page,
}) => {
  await open(page, '/tasks?by=task&view=table');
  await expect(rows(page).first()).toBeVisible();
  const all = await tabCount(page, 'All');
  await openFilters(page);
  const creator = page.getByRole('combobox', { name: 'Creator' });
  await expect(creator.getByRole('option', { name: 'Maya Okafor' })).toBeAttached();
  await creator.selectOption('Maya Okafor');
  await expect(page).toHaveURL(/creator=Maya\+Okafor/);
  await expectNarrowed(page, all);
  await expect.poll(async () => new Set(await texts(column(page, 1)))).toEqual(new Set(['Maya Okafor']));
});

test('filter by date: the Last 7 days preset keeps the tasks of the last 7 days', async ({ page }) => {
  await open(page, '/tasks?by=task&view=table');
  await expect(rows(page).first()).toBeVisible();
  const all = await tabCount(page, 'All');
  await openFilters(page);
  await page.getByRole('button', { name: 'Last 7 days' }).click();
  await expect(page.getByRole('button', { name: 'Last 7 days' })).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/from=\d{4}-\d{2}-\d{2}&to=\d{4}-\d{2}-\d{2}/);
  await expectNarrowed(page, all);
  const from = new Date();
  from.setHours(0, 0, 0, 0);
  from.setDate(from.getDate() - 6);
  const times = await rows(page)
    .locator('time')
    .evaluateAll((found) => found.map((time) => Date.parse(time.getAttribute('datetime')!)));
  expect(times.length).toBeGreaterThan(0);
  for (const at of times) expect(at).toBeGreaterThanOrEqual(from.getTime());
  // The days themselves: a period ending the day before yesterday has none of today's tasks.
  await page.getByRole('button', { name: 'Any time' }).click();
  await expect(page).not.toHaveURL(/from=/);
});

test('filter by error reason: the reasons come with counts, and the chosen one is what the list shows', async ({
  page,
}) => {
  await open(page, '/tasks?by=task&view=table');
  await expect(rows(page).first()).toBeVisible();
  await openFilters(page);
  const reason = page.getByRole('combobox', { name: 'Error reason' });
  const option = reason.getByRole('option', { name: /timed out.* · \d+ failed$/i }).first();
  await expect(option).toBeAttached();
  const label = (await option.innerText()).trim();
  const count = Number(/· (\d+) failed$/.exec(label)![1]);
  expect(count).toBeGreaterThan(0);
  await reason.selectOption({ label });
  await expect(page).toHaveURL(/reason=/);
  await countsSettled(page);
  expect(await tabCount(page, 'Failed')).toBe(count);
  expect(await tabCount(page, 'All')).toBe(count);
  expect(await tabCount(page, 'Succeeded')).toBe(0);
  await expect.poll(async () => new Set(await texts(column(page, 2)))).toEqual(new Set(['FAILED']));
  // The codes are offered with counts too (the demo's failures have none).
  await expect(
    page
      .getByRole('combobox', { name: 'Error code' })
      .getByRole('option', { name: /^No code · \d+ failed$/ }),
  ).toBeAttached();
});

test('sort longest first: the table goes from the longest task down, in both views', async ({ page }) => {
  await open(page, '/tasks?by=task&view=table&tab=succeeded');
  await expect(rows(page).first()).toBeVisible();
  await page.getByRole('combobox', { name: 'Sort' }).selectOption('Longest first');
  await expect(page).toHaveURL(/sort=longest/);
  await expect
    .poll(async () => {
      const durations = (await texts(column(page, 4))).map(seconds);
      return durations.length > 5 && durations.every((d, i) => i === 0 || durations[i - 1]! >= d);
    })
    .toBe(true);
  // "By request" keeps the order (a request where its longest task falls).
  await page.getByRole('group', { name: 'Show cards' }).getByRole('button', { name: 'By request' }).click();
  await expect(page).toHaveURL(/by=request/);
  await expect(page).toHaveURL(/sort=longest/);
  await expect(rows(page).first()).toBeVisible();
});

test('the table: accessible markup, rows link to their page, no sideways scroll of the page on a phone', async ({
  page,
}) => {
  await open(page, '/tasks?by=task');
  await page.getByRole('group', { name: 'Layout' }).getByRole('button', { name: 'Table' }).click();
  await expect(page).toHaveURL(/view=table/);
  await expect(table(page).getByRole('columnheader')).toHaveText([
    'Title',
    'Kind',
    'Creator',
    'Status',
    'Created',
    'Duration',
  ]);
  await openFilters(page);
  await expectNoAxeViolations(page, { include: 'main' });
  const first = rows(page).first().getByRole('link');
  const href = await first.getAttribute('href');
  expect(href).toMatch(/^\/tasks\/.+/);
  await first.click();
  await expect(page).toHaveURL(`${server.url}${href}`);

  await page.setViewportSize({ width: 390, height: 844 });
  await open(page, '/tasks?by=request&view=table');
  await expect(rows(page).first()).toBeVisible();
  await expect(rows(page).first().getByRole('link')).toHaveAttribute('href', /^\/(requests|tasks)\//);
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.viewport);
  const box = page.getByRole('region', { name: /Tasks table/ });
  expect(await box.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
});

test('a link opens the same view: filters, order and layout from the URL', async ({ page, browser }) => {
  await open(page, '/tasks?by=task');
  await page.getByRole('tab', { name: /^Failed/ }).click();
  await page.getByRole('combobox', { name: 'Sort' }).selectOption('Longest first');
  await page.getByRole('group', { name: 'Layout' }).getByRole('button', { name: 'Table' }).click();
  await openFilters(page);
  await page.getByRole('combobox', { name: 'Creator' }).selectOption('Jonas Berg');
  await page.getByRole('button', { name: '30 days' }).click();
  await expect(page).toHaveURL(/from=/);
  await expect(rows(page).first()).toBeVisible();
  const link = page.url();
  const titles = await texts(rows(page).getByRole('rowheader'));

  const support = await browser.newPage();
  await support.goto(link);
  await expect(support.getByRole('tab', { name: /^Failed/ })).toHaveAttribute('aria-selected', 'true');
  await expect(support.getByRole('combobox', { name: 'Sort' })).toHaveValue('longest');
  await expect(support.getByRole('group', { name: 'More filters' })).toBeVisible();
  await expect(support.getByRole('combobox', { name: 'Creator' })).toHaveValue('Jonas Berg');
  await expect(support.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => texts(rows(support).getByRole('rowheader'))).toEqual(titles);
  await support.close();
});

test('looking up ids: a secondary control that opens the box, and it works', async ({ page }) => {
  const created = await page.request.post(`${server.url}/v1/image_generate`, {
    data: { prompt: 'A lighthouse at dusk', generate_count: 1 },
    headers: { authorization: 'Bearer e2e' },
  });
  const id = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
  await open(page, '/tasks');
  await expect(page.getByRole('textbox', { name: 'Look up task ids' })).toHaveCount(0);
  const lookUp = page.getByRole('button', { name: 'Look up ids' });
  await lookUp.click();
  await expect(lookUp).toHaveAttribute('aria-expanded', 'true');
  await page.getByRole('textbox', { name: 'Look up task ids' }).fill(id);
  await page.getByRole('button', { name: 'Look up', exact: true }).click();
  await expect(page.getByText('Added 1 task.')).toBeVisible();

  // Export, Import and Settings are in one menu.
  await page.getByRole('button', { name: 'More' }).click();
  await expect(page.getByRole('menu', { name: 'More' }).getByRole('menuitem')).toHaveText([
    'Export history',
    'Import history…',
    'Settings…',
  ]);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);
});

test('a mistyped id opened as /tasks/<id> says not found and is added to no history', async ({ page }) => {
  await open(page, '/tasks/img-this-is-a-typo');
  await expect(page.getByText('Task not found', { exact: true })).toBeVisible();
  await page.getByRole('link', { name: '← All tasks' }).click();
  await page.getByRole('button', { name: 'More' }).click();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('menuitem', { name: 'Export history' }).click(),
  ]);
  const chunks = await (await download.createReadStream()).toArray();
  const exported = JSON.parse(Buffer.concat(chunks).toString()) as { tasks: { id: string }[] };
  expect(exported.tasks.map((task) => task.id)).not.toContain('img-this-is-a-typo');
});
