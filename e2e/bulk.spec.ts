// Bulk actions on the Tasks screen: select cards (checkbox, shift-click range, Space,
// "Select all matching"), download them as one zip, re-run them after a confirmation, hide them from
// my view and bring them back, copy their links, Escape to clear.
import { mkdirSync, readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import yauzl from 'yauzl';
import { expectNoAxeViolations } from './axe';
import { expect, test } from './fixtures';

const run = Date.now().toString(36);

/** Three finished translations of one video, named `name`: their task ids. */
async function translations(page: Page, baseURL: string, name: string, languages: string[]) {
  const created = await page.request.post('/v1/video_translate', {
    data: { video_url: `${baseURL}/emulator/samples/video.mp4`, target_languages: languages, name },
  });
  expect(created.ok()).toBe(true);
  const ids = ((await created.json()) as { data: { task_id: string }[] }).data.map((item) => item.task_id);
  for (const id of ids)
    await expect
      .poll(
        async () => {
          const answer = await page.request.get(`/v1/video_translate/${id}`);
          return ((await answer.json()) as { data?: { status?: string } }).data?.status;
        },
        { timeout: 30_000 },
      )
      .toBe('SUCCEEDED');
  return ids;
}

function zipEntries(path: string): Promise<string[]> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(readFileSync(path), { lazyEntries: true }, (error, zip) => {
      if (error) return reject(error);
      const names: string[] = [];
      zip.on('entry', (entry: yauzl.Entry) => {
        names.push(entry.fileName);
        zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', reject);
      zip.readEntry();
    }),
  );
}

const LANGUAGES = ['Japanese', 'German', 'French'];

/** For a person to look at (`SHOTS=/tmp/shots-hidden`): the page as it is, at its size and theme. */
async function saveShot(page: Page, name: string) {
  const folder = process.env.SHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  const { width } = page.viewportSize()!;
  await page.screenshot({ path: `${folder}/${name}-${width}.png`, fullPage: true });
}

test.describe('bulk actions', () => {
  test('select a card, shift-click a range, download them as one zip', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const name = `Zip recap ${run}`;
    await translations(page, baseURL!, name, LANGUAGES);
    await page.goto(`/tasks?q=${encodeURIComponent(name)}&by=task`);
    const gallery = page.getByRole('tabpanel');
    await expect(gallery.getByRole('article')).toHaveCount(3);
    // Newest first: the order on screen is the order of the range.
    const boxes = gallery.getByRole('checkbox', { name: /^Select / });
    await boxes.first().check();
    const bar = page.getByRole('region', { name: 'Selected tasks' });
    await expect(bar).toContainText('1 task selected');
    await boxes.nth(2).click({ modifiers: ['Shift'] });
    await expect(bar).toContainText('3 tasks selected');
    for (const language of LANGUAGES)
      await expect(gallery.getByRole('checkbox', { name: `Select ${language} - ${name}` })).toBeChecked();

    const downloading = page.waitForEvent('download');
    await bar.getByRole('button', { name: 'Download zip' }).click();
    const download = await downloading;
    // One request's tasks: the zip is named after the request.
    expect(download.suggestedFilename()).toBe(`${name}.zip`);
    const entries = await zipEntries(await download.path());
    expect(entries.sort()).toEqual(LANGUAGES.map((language) => `${language} - ${name}.mp4`).sort());
    await expect(bar.getByRole('status')).toContainText(`Saved ${name}.zip`);
  });

  test('Shift on a card box four cards on selects all four, and choosing the first moves no card', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const name = `Range recap ${run}`;
    const four = ['Japanese', 'German', 'French', 'Korean'];
    await translations(page, baseURL!, name, four);
    await page.goto(`/tasks?q=${encodeURIComponent(name)}&by=task`);
    const gallery = page.getByRole('tabpanel');
    await expect(gallery.getByRole('article')).toHaveCount(4);
    const second = gallery.getByRole('article').nth(1);
    const before = await second.boundingBox();
    const boxes = gallery.getByRole('checkbox', { name: /^Select / });
    await boxes.first().check();
    const bar = page.getByRole('region', { name: 'Selected tasks' });
    await expect(bar).toContainText('1 task selected');
    expect((await second.boundingBox())?.y).toBe(before?.y);
    // Shift-click on the box's frame (the label around it), as a person's click lands.
    const frame = boxes.nth(3).locator('xpath=..');
    await frame.click({ modifiers: ['Shift'], position: { x: 3, y: 3 } });
    await expect(bar).toContainText('4 tasks selected');
    for (const language of four)
      await expect(gallery.getByRole('checkbox', { name: `Select ${language} - ${name}` })).toBeChecked();
  });

  test('re-run says how many tasks and that it spends credits, then sends them', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const name = `Rerun recap ${run}`;
    await translations(page, baseURL!, name, ['Japanese', 'German']);
    await page.goto(`/tasks?q=${encodeURIComponent(name)}&by=task`);
    const gallery = page.getByRole('tabpanel');
    await gallery.getByRole('checkbox', { name: `Select Japanese - ${name}` }).check();
    await gallery.getByRole('checkbox', { name: `Select German - ${name}` }).check();
    const bar = page.getByRole('region', { name: 'Selected tasks' });
    await bar.getByRole('button', { name: 'Re-run…' }).click();
    const confirm = bar.getByRole('alertdialog', { name: 'Re-run the selected tasks' });
    await expect(confirm).toContainText('Re-run 2 tasks?');
    await expect(confirm).toContainText('spends credits');
    // Cancel leaves everything as it was.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await bar.getByRole('button', { name: 'Re-run…' }).click();
    await bar.getByRole('button', { name: 'Re-run 2 tasks' }).click();
    await expect(page.getByText('Re-ran 2 tasks: 2 new requests sent.')).toBeVisible({ timeout: 30_000 });
    await expect(gallery.getByRole('article')).toHaveCount(4, { timeout: 30_000 });
  });

  test('hide from my view: out of the cards and the counts, "Show hidden" in the URL brings them back', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const name = `Hide recap ${run}`;
    await translations(page, baseURL!, name, ['Japanese', 'German']);
    await page.goto(`/tasks?q=${encodeURIComponent(name)}&by=task`);
    const gallery = page.getByRole('tabpanel');
    const all = page.getByRole('tab', { name: /^All/ });
    await expect(gallery.getByRole('article')).toHaveCount(2);
    await expect(all).toHaveText(/2$/);
    await gallery.getByRole('checkbox', { name: `Select Japanese - ${name}` }).check();
    await page.getByRole('button', { name: 'Hide from my view' }).click();
    await expect(page.getByText('Hid 1 task from your view.')).toBeVisible();
    await expect(gallery.getByRole('article')).toHaveCount(1);
    // The server's counts leave it out too.
    await expect(all).toHaveText(/1$/);
    // Still hidden after a reload: kept on the server for me.
    await page.reload();
    await expect(gallery.getByRole('article')).toHaveCount(1);
    await expect(all).toHaveText(/1$/);
    const showHidden = page.getByRole('checkbox', { name: /^Show hidden/ });
    await showHidden.check();
    await expect(page).toHaveURL(/[?&]hidden=show/);
    await expect(gallery.getByRole('article')).toHaveCount(2);
    await expect(all).toHaveText(/2$/);
    // The link opens the same view.
    const link = page.url();
    const other = await page.context().newPage();
    await other.goto(link);
    await expect(other.getByRole('checkbox', { name: /^Show hidden/ })).toBeChecked();
    await expect(other.getByRole('tabpanel').getByRole('article')).toHaveCount(2);
    await other.close();
    await gallery.getByRole('checkbox', { name: `Select Japanese - ${name}` }).check();
    await page.getByRole('button', { name: 'Unhide' }).click();
    await expect(page.getByText('1 task back in your view.')).toBeVisible();
    // Nothing hidden any more: the toggle goes once turned off.
    await showHidden.click();
    await expect(showHidden).toBeHidden();
    await expect(page).not.toHaveURL(/hidden=show/);
    await expect(gallery.getByRole('article')).toHaveCount(2);
    await expect(all).toHaveText(/2$/);
  });

  test('a re-run stopped by the rate limit part-way says which re-ran and which did not; again sends the rest', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const name = `Limit recap ${run}`;
    await translations(page, baseURL!, name, ['Japanese', 'German']);
    await page.goto(`/tasks?q=${encodeURIComponent(name)}&by=task`);
    const gallery = page.getByRole('tabpanel');
    // The service's rate limit on the second creation (the emulator plans 429s for status queries only).
    let creations = 0;
    await page.route('**/v1/video_translate', async (route) => {
      if (route.request().method() !== 'POST' || ++creations !== 2) return route.fallback();
      await route.fulfill({
        status: 429,
        headers: { 'retry-after': '20' },
        json: { code: 429, msg: 'Rate limit exceeded' },
      });
    });
    await gallery.getByRole('checkbox', { name: `Select Japanese - ${name}` }).check();
    await gallery.getByRole('checkbox', { name: `Select German - ${name}` }).check();
    const bar = page.getByRole('region', { name: 'Selected tasks' });
    await bar.getByRole('button', { name: 'Re-run…' }).click();
    await bar.getByRole('button', { name: 'Re-run 2 tasks' }).click();
    const report = bar.getByRole('status').filter({ hasText: 'not re-run' });
    await expect(report).toContainText('Re-ran 1 of 2 tasks (1 new request sent). 1 not re-run');
    await expect(report).toContainText(
      "the service's rate limit (HTTP 429: Rate limit exceeded); try again in 20 s",
    );
    const [reran, notReran] = await report.getByRole('list').all();
    await expect(reran!.getByRole('listitem')).toHaveCount(1);
    await expect(notReran!.getByRole('listitem')).toHaveCount(1);
    const notSent = (await notReran!.getByRole('listitem').innerText()).split(':')[0]!;
    await expect(bar).toContainText('1 task selected');
    await expect(gallery.getByRole('checkbox', { name: `Select ${notSent}` })).toBeChecked();
    await expectNoAxeViolations(page, { include: 'main' });
    await saveShot(page, 'rerun-stopped-by-429');
    // The new task of the one that went, on screen; then again: the one left, and only it.
    await expect(gallery.getByRole('article')).toHaveCount(3, { timeout: 30_000 });
    await bar.getByRole('button', { name: 'Re-run…' }).click();
    await bar.getByRole('button', { name: 'Re-run 1 task' }).click();
    await expect(page.getByText('Re-ran 1 task: 1 new request sent.')).toBeVisible({ timeout: 30_000 });
    expect(creations).toBe(3);
    await expect(gallery.getByRole('article')).toHaveCount(4, { timeout: 30_000 });
  });

  test('copy links puts one link per line on the clipboard', async ({ page, context, baseURL }) => {
    test.setTimeout(120_000);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const name = `Links recap ${run}`;
    const ids = await translations(page, baseURL!, name, ['Japanese', 'German']);
    await page.goto(`/tasks?q=${encodeURIComponent(name)}&by=task`);
    const gallery = page.getByRole('tabpanel');
    await gallery.getByRole('checkbox', { name: `Select Japanese - ${name}` }).check();
    await gallery.getByRole('checkbox', { name: `Select German - ${name}` }).check();
    await page.getByRole('button', { name: 'Copy links' }).click();
    await expect(page.getByText('Copied 2 links, one per line.')).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied.split('\n').sort()).toEqual(ids.map((id) => `${baseURL}/tasks/${id}`).sort());
  });

  test('keyboard: Space selects, "Select all matching" takes the whole view, Escape clears', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const name = `Keys recap ${run}`;
    await translations(page, baseURL!, name, LANGUAGES);
    await page.goto(`/tasks?q=${encodeURIComponent(name)}&by=request`);
    const gallery = page.getByRole('tabpanel');
    // By request: one card for the three languages, one box for all of them.
    await expect(gallery.getByRole('article')).toHaveCount(1);
    const box = gallery.getByRole('checkbox', { name: `Select ${name}` });
    await box.focus();
    await page.keyboard.press('Space');
    await expect(box).toBeChecked();
    const bar = page.getByRole('region', { name: 'Selected tasks' });
    await expect(bar).toContainText('3 tasks selected');
    await page.keyboard.press('Escape');
    await expect(bar).toBeHidden();
    await expect(box).not.toBeChecked();
    await page.getByRole('button', { name: 'Select all matching' }).click();
    await expect(bar).toContainText('3 tasks selected');
    await expect(box).toBeChecked();
    await page.keyboard.press('Escape');
    await expect(bar).toBeHidden();
  });

  /**
   * For a person to look at (`SHOTS=/tmp/shots-hidden`): the selection bar, the filters panel, the
   * table and "Show hidden", light at 1280×800 and 390×844, and dark at 390; axe on each.
   */
  test('screenshots of the bulk bar, filters, table and Show hidden', async ({ page, baseURL }) => {
    test.skip(!process.env.SHOTS, 'set SHOTS to a folder to take them');
    test.setTimeout(240_000);
    const name = `Shots recap ${run}`;
    await translations(page, baseURL!, name, LANGUAGES);
    const hidden = (await translations(page, baseURL!, `${name} (hidden)`, ['Spanish']))[0]!;
    const hid = await page.request.post('/__console/tasks/hidden', { data: { ids: [hidden], hidden: true } });
    expect(hid.ok()).toBe(true);
    const axeClean = async () => {
      await expectNoAxeViolations(page, { include: 'main' });
    };
    const q = `q=${encodeURIComponent(name)}`;
    for (const [theme, width, height] of [
      ['light', 1280, 800],
      ['light', 390, 844],
      ['dark', 390, 844],
    ] as const) {
      await page.emulateMedia({ colorScheme: theme });
      await page.setViewportSize({ width, height });
      const suffix = theme === 'dark' ? '-dark' : '';
      await page.goto(`/tasks?${q}&by=task&hidden=show`);
      const gallery = page.getByRole('tabpanel');
      await expect(gallery.getByRole('article')).toHaveCount(4);
      await expect(page.getByRole('checkbox', { name: /^Show hidden/ })).toBeChecked();
      await gallery
        .getByRole('checkbox', { name: /^Select / })
        .nth(0)
        .check();
      await gallery
        .getByRole('checkbox', { name: /^Select / })
        .nth(1)
        .check();
      await expect(page.getByRole('region', { name: 'Selected tasks' })).toContainText('2 tasks selected');
      await axeClean();
      await saveShot(page, `bulk-bar-show-hidden${suffix}`);
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: /^Filters/ }).click();
      await expect(page.getByRole('group', { name: 'More filters' })).toBeVisible();
      await axeClean();
      await saveShot(page, `filters${suffix}`);
      await page.goto(`/tasks?${q}&by=task&view=table`);
      await expect(page.getByRole('table').getByRole('row')).toHaveCount(4);
      await axeClean();
      await saveShot(page, `table${suffix}`);
    }
  });
});
