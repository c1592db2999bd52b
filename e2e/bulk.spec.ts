// Bulk actions on the Tasks screen (issue 28): select cards (checkbox, shift-click range, Space,
// "Select all matching"), download them as one zip, re-run them after a confirmation, hide them from
// my view and bring them back, copy their links, Escape to clear.
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import yauzl from 'yauzl';
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
    expect(download.suggestedFilename()).toBe('Tasks (3).zip');
    const entries = await zipEntries(await download.path());
    expect(entries.sort()).toEqual(LANGUAGES.map((language) => `${language} - ${name}.mp4`).sort());
    await expect(bar.getByRole('status')).toContainText('Saved Tasks (3).zip');
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

  test('hide from my view, then "Show hidden" brings them back', async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    const name = `Hide recap ${run}`;
    await translations(page, baseURL!, name, ['Japanese', 'German']);
    await page.goto(`/tasks?q=${encodeURIComponent(name)}&by=task`);
    const gallery = page.getByRole('tabpanel');
    await expect(gallery.getByRole('article')).toHaveCount(2);
    await gallery.getByRole('checkbox', { name: `Select Japanese - ${name}` }).check();
    await page.getByRole('button', { name: 'Hide from my view' }).click();
    await expect(page.getByText('Hid 1 task from your view.')).toBeVisible();
    await expect(gallery.getByRole('article')).toHaveCount(1);
    // Still hidden after a reload: kept on the server for me.
    await page.reload();
    await expect(gallery.getByRole('article')).toHaveCount(1);
    const showHidden = page.getByRole('checkbox', { name: /^Show hidden/ });
    await showHidden.check();
    await expect(gallery.getByRole('article')).toHaveCount(2);
    await gallery.getByRole('checkbox', { name: `Select Japanese - ${name}` }).check();
    await page.getByRole('button', { name: 'Unhide' }).click();
    await expect(page.getByText('1 task back in your view.')).toBeVisible();
    // Nothing hidden any more: the toggle goes once turned off.
    await showHidden.click();
    await expect(showHidden).toBeHidden();
    await expect(gallery.getByRole('article')).toHaveCount(2);
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
});
