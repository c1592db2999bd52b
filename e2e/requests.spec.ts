// Requests, as people see them: one time for every viewer (the team's record, the server's clock),
// human names on cards, task pages and downloads.
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';

const run = Date.now().toString(36);
const TWO_HOURS = 2 * 3600 * 1000;

/** A browser whose clock is two hours ahead: Date, Date.now and new Date() all shifted. */
async function shiftedPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  await context.addInitScript((shift) => {
    const RealDate = Date;
    class ShiftedDate extends RealDate {
      constructor(...args: ConstructorParameters<typeof Date> | []) {
        if (args.length === 0) super(RealDate.now() + shift);
        else super(...(args as ConstructorParameters<typeof Date>));
      }
      static now() {
        return RealDate.now() + shift;
      }
    }
    globalThis.Date = ShiftedDate as DateConstructor;
  }, TWO_HOURS);
  return context.newPage();
}

/** What a finished task's page says of its times: the header, the Details row, the timeline's end. */
async function timesOn(page: Page) {
  const header = (await page
    .getByText(/^Took /)
    .first()
    .textContent())!;
  const finished = (await page
    .getByText('Finished', { exact: true })
    .locator('xpath=following-sibling::dd')
    .textContent())!;
  const timeline = (await page
    .getByRole('region', { name: 'Timeline' })
    .getByRole('listitem')
    .last()
    .textContent())!;
  return { header, finished, timeline };
}

test.describe('one truth for time', () => {
  test('a viewer with a clock two hours ahead reads the same created, finished and duration', async ({
    browser,
    baseURL,
    emulator,
  }) => {
    test.setTimeout(90_000);
    await emulator.set({ timeScale: 0.5 }); // the task runs a few seconds: the shifted browser follows it
    const creator = await (await browser.newContext({ baseURL })).newPage();
    const created = await creator.request.post('/v1/image_generate', {
      data: { prompt: `Clock check ${run}`, generate_count: 1 },
    });
    const id = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
    // The shifted browser opens the task while it runs: it looks it up and sees it finish itself.
    const shifted = await shiftedPage(browser, baseURL!);
    await shifted.goto(`/tasks/${id}`);
    await expect(shifted.getByText('SUCCEEDED', { exact: true }).first()).toBeVisible({ timeout: 30_000 });
    await creator.goto(`/tasks/${id}`);
    await expect(creator.getByText('SUCCEEDED', { exact: true }).first()).toBeVisible({ timeout: 15_000 });
    await expect(
      shifted.getByRole('region', { name: 'Timeline' }).getByRole('listitem').last(),
    ).toContainText('Finished');
    const mine = await timesOn(creator);
    const theirs = await timesOn(shifted);
    expect(theirs).toEqual(mine);
    // The header and the timeline agree on how long it took.
    const took = mine.header.replace(/^Took /, '');
    expect(mine.timeline).toContain(`took ${took}`);
    expect(mine.finished).toContain(`took ${took}`);
    expect(took).not.toMatch(/h/); // seconds, not the two hours between the clocks
    await Promise.all([creator.context().close(), shifted.context().close()]);
  });
});

test.describe('human names', () => {
  test('a translation is "Japanese - <name>" on its card and page, and downloads under that name', async ({
    page,
    baseURL,
  }) => {
    const name = `All-hands recap ${run}`;
    const created = await page.request.post('/v1/video_translate', {
      data: { video_url: `${baseURL}/emulator/samples/video.mp4`, target_languages: ['Japanese'], name },
    });
    expect(created.ok()).toBe(true);
    const id = ((await created.json()) as { data: { task_id: string }[] }).data[0]!.task_id;
    await page.goto(`/tasks?q=${encodeURIComponent(id)}`);
    const card = page.getByRole('article', { name: `Japanese - ${name}` });
    await expect(card).toBeVisible();
    await expect(card).toContainText(id); // the id is still there, secondary
    await card.getByRole('link', { name: `Japanese - ${name}` }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Japanese - ${name}` })).toBeVisible();
    await expect(page).toHaveTitle(`Japanese - ${name} · Media Console`);
    await expect(page.getByText('SUCCEEDED', { exact: true }).first()).toBeVisible({ timeout: 15_000 });
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download video' }).click();
    expect((await downloading).suggestedFilename()).toBe(`Japanese - ${name}.mp4`);
  });

  test('images of one prompt are named by it, numbered within the request', async ({ page }) => {
    const prompt = `Red bicycle, Lisbon ${run}`;
    const created = await page.request.post('/v1/image_generate', { data: { prompt, generate_count: 2 } });
    const ids = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids;
    await page.goto(`/tasks/${ids[1]}`);
    await expect(page.getByRole('heading', { level: 1, name: prompt })).toBeVisible();
    await expect(page.getByText('SUCCEEDED', { exact: true }).first()).toBeVisible({ timeout: 15_000 });
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download image' }).click();
    expect((await downloading).suggestedFilename()).toMatch(
      new RegExp(`^red-bicycle-lisbon-${run}-2\\.\\w+$`),
    );
  });
});
