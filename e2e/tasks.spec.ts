import { expectNoAxeViolations } from './axe';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test, type Emulator } from './fixtures';
import { shiftClock } from './shifted-clock';

const auth = { authorization: 'Bearer e2e' };

async function createImageToVideo(
  request: APIRequestContext,
  baseURL: string,
  prompt: string,
): Promise<string> {
  const response = await request.post('/v1/image_to_video', {
    data: { image_url: `${baseURL}/emulator/samples/reference.png`, aspect_resolution: '720p', prompt },
    headers: auth,
  });
  expect(response.ok()).toBe(true);
  const body = (await response.json()) as { data: { task_ids: string[] } };
  return body.data.task_ids[0]!;
}

/**
 * Opens Tasks, then makes an image-to-video task of about 18 s at `timeScale` 1 (9 s at 0.5): made
 * only once the page is open, so that on a loaded machine it is still running when the test looks (a
 * shorter task, or one made before the page loaded, had finished before anyone could see it run).
 */
async function openTasksThenRunningTask(
  page: Page,
  emulator: Emulator,
  baseURL: string,
  prompt: string,
  timeScale = 1,
) {
  await emulator.set({ timeScale });
  await page.goto('/tasks');
  await expect(page.getByRole('button', { name: 'Look up ids' })).toBeVisible();
  return createImageToVideo(page.request, baseURL, prompt);
}

async function lookUp(page: Page, ids: string) {
  const open = page.getByRole('button', { name: 'Look up ids' });
  if ((await open.getAttribute('aria-expanded')) !== 'true') await open.click();
  await page.getByRole('textbox', { name: 'Look up task ids' }).fill(ids);
  await page.getByRole('button', { name: 'Look up', exact: true }).click();
}

const card = (page: Page, id: string) => page.getByRole('article').filter({ hasText: id });

test.describe('task gallery', () => {
  test('a looked-up image-to-video task goes from pending to succeeded and plays', async ({
    emulator,
    page,
    baseURL,
  }) => {
    // About 9 s: long enough to see it running even when a loaded machine is slow to open the page.
    await emulator.set({ timeScale: 0.4 });
    // The page first: on a loaded machine its load alone took most of the task's 9 s.
    await page.goto('/tasks');
    await expect(page.getByRole('button', { name: 'Look up ids' })).toBeVisible();
    const id = await createImageToVideo(page.request, baseURL!, 'A calm sea at dawn');
    await lookUp(page, id);
    const task = card(page, id);
    await expect(task.getByText(/^(PENDING|PROCESSING)$/)).toBeVisible();
    await expect(task.getByText('SUCCEEDED', { exact: true })).toBeVisible({ timeout: 30_000 });
    // The team's list holds every spec's tasks: the newest succeeded one is this one.
    await page.getByRole('tab', { name: /Succeeded/ }).click();
    await expect(page).toHaveURL(/\/tasks\?tab=succeeded$/);
    await expect(page.getByRole('article').first()).toContainText(id);

    await task.getByRole('button', { name: `Play video of task ${id}` }).click();
    const video = task.locator('video');
    await expect(video).toHaveAttribute('preload', 'none');
    // From the service (the emulator's media) until it is kept, then from the team's storage.
    await expect(video).toHaveAttribute(
      'poster',
      /^http:\/\/127\.0\.0\.1:\d+\/(emulator\/media|__console\/results)\//,
    );
    await expect
      .poll(() => video.evaluate((el: HTMLVideoElement) => el.readyState >= 2 && !el.error), {
        timeout: 10_000,
      })
      .toBe(true);
  });

  test("a succeeded task is kept in the team's storage: its card says Kept and its video seeks from there", async ({
    page,
    baseURL,
  }) => {
    const id = await createImageToVideo(page.request, baseURL!, 'A lantern on a pier at night');
    await page.goto('/tasks');
    await lookUp(page, id);
    const task = card(page, id);
    await expect(task.getByText('SUCCEEDED', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(task.getByText('Kept', { exact: true })).toBeVisible({ timeout: 30_000 });
    await task.getByRole('button', { name: `Play video of task ${id}` }).click();
    const video = task.getByLabel(`Video of task ${id}`);
    await expect(video).toHaveAttribute('src', new RegExp(`/__console/results/${id}/video/0$`));
    await expect
      .poll(() => video.evaluate((el: HTMLVideoElement) => el.readyState >= 1 && !el.error), {
        timeout: 10_000,
      })
      .toBe(true);
    // A seek asks for a range: the console answers with exactly those bytes.
    const part = await page.request.get(`/__console/results/${id}/video/0`, {
      headers: { range: 'bytes=0-99' },
    });
    expect(part.status()).toBe(206);
    expect((await part.body()).length).toBe(100);
  });

  test("a kept copy removed from the team's storage, past the service's 7 days, says so on the card and the task page", async ({
    page,
    baseURL,
  }) => {
    const id = await createImageToVideo(page.request, baseURL!, 'A kite over the dunes');
    await page.goto('/tasks');
    await lookUp(page, id);
    await expect(card(page, id).getByText('Kept', { exact: true })).toBeVisible({ timeout: 30_000 });
    expect((await page.request.delete(`/__console/results/${id}`)).status()).toBe(200);
    // Eight days on, for the browser's clock and the server's as the page reads it (the Date
    // header of the team record's answers): the service's own link has expired too.
    const shift = 8 * 24 * 3600 * 1000;
    await shiftClock(page, shift);
    await page.route(
      (url) => url.pathname.startsWith('/__console/tasks') && !url.pathname.endsWith('/events'),
      async (route) => {
        // Leaving a page cancels its requests, one of them perhaps in this handler: nobody is left to
        // answer then (Playwright says "Fetch response has been disposed"), and the next page asks again.
        try {
          const response = await route.fetch();
          const date = new Date(Date.now() + shift).toUTCString();
          await route.fulfill({ response, headers: { ...response.headers(), date } });
        } catch (error) {
          if (
            !/Fetch response has been disposed|Target page, context or browser has been closed/.test(
              String(error),
            )
          )
            throw error;
        }
      },
    );
    await page.goto(`/tasks/${id}`);
    await expect(page.getByText('Removed by an admin')).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText('Result expired')).toHaveCount(0);
    await page.goto('/tasks');
    await expect(card(page, id).getByText('Removed by an admin')).toBeVisible({ timeout: 15_000 });
  });

  test('a failed task shows its error_message on the card and in the detail', async ({ page, baseURL }) => {
    const id = await createImageToVideo(page.request, baseURL!, 'please emulator:fail now');
    await page.goto('/tasks');
    await lookUp(page, id);
    const task = card(page, id);
    await expect(task.getByText('FAILED', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(task.getByText(/Emulated failure: the model could not process this request/)).toBeVisible();
    await page.getByRole('tab', { name: /Failed/ }).click();
    await expect(card(page, id)).toBeVisible();
    await task.getByRole('heading').getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/tasks/${id}$`));
    await expect(page.getByRole('alert').filter({ hasText: 'The task failed' })).toContainText(
      'Emulated failure',
    );
  });

  test('an unknown id shows not found with the service code and msg, never done', async ({ page }) => {
    await page.goto('/tasks');
    await lookUp(page, 'i2v-does-not-exist, vt-also-missing');
    // The service does not know them, so the team's record never will: they are listed under the box.
    const problems = page.getByRole('list', { name: 'Ids the service does not know' });
    const missing = problems.getByRole('listitem').filter({ hasText: 'i2v-does-not-exist' });
    await expect(missing).toContainText('code 100003');
    await expect(missing.getByText(/The service does not know this id/)).toContainText(/not found/i);
    await expect(problems.getByRole('listitem').filter({ hasText: 'vt-also-missing' })).toContainText(
      'Video translation',
    );
    await expect(card(page, 'i2v-does-not-exist')).toHaveCount(0);
    await missing.getByRole('link', { name: 'i2v-does-not-exist' }).click();
    await expect(page.getByText('Not found', { exact: true })).toBeVisible();
    await expect(page.getByText('SUCCEEDED')).toHaveCount(0);
  });

  test('a reload while a task runs loses nothing', async ({ emulator, page, baseURL }) => {
    // Running only until the first reload: half the usual length is enough.
    const id = await openTasksThenRunningTask(page, emulator, baseURL!, 'Reload me', 0.5);
    await lookUp(page, id);
    await expect(card(page, id).getByText(/^(PENDING|PROCESSING)$/)).toBeVisible();
    await page.reload();
    const task = card(page, id);
    await expect(task).toBeVisible();
    await expect(task.getByText(/^(PENDING|PROCESSING|SUCCEEDED)$/)).toBeVisible();
    await expect(task.getByText('SUCCEEDED', { exact: true })).toBeVisible({ timeout: 25_000 });
    await page.reload();
    await expect(card(page, id).getByText('SUCCEEDED', { exact: true })).toBeVisible();
  });

  test('the deep link /tasks/<id> opens and follows a task this browser never saw', async ({
    page,
    baseURL,
  }) => {
    const id = await createImageToVideo(page.request, baseURL!, 'Shared with support');
    await page.goto(`/tasks/${id}`);
    await expect(page.getByText(id, { exact: true }).first()).toBeVisible();
    await expect(page.getByText('SUCCEEDED', { exact: true }).first()).toBeVisible({ timeout: 15_000 });
    await expect(page.getByText('720 × 1280 pixels').or(page.getByText(/\d+ × \d+ pixels/))).toBeVisible();
    await expect(page.getByText(/^\d+ seconds$/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Copy as cURL' })).toBeVisible();
    // From this console, named from the request (server/tasks/download.ts).
    await expect(page.getByRole('link', { name: 'Download video' })).toHaveAttribute(
      'href',
      `/__console/tasks/${id}/download/result`,
    );
    await expect(page.getByRole('link', { name: 'Download video' })).toHaveAttribute(
      'download',
      'shared-with-support.mp4',
    );
    await page.getByRole('link', { name: '← All tasks' }).click();
    await expect(card(page, id)).toBeVisible();
  });

  test('the gallery and the detail have no axe violations', async ({ page, baseURL }) => {
    const ok = await createImageToVideo(page.request, baseURL!, 'Accessible');
    const failed = await createImageToVideo(page.request, baseURL!, 'emulator:fail');
    await page.goto('/tasks');
    await lookUp(page, `${ok} ${failed} i2v-missing-for-axe`);
    await expect(card(page, failed).getByText('FAILED', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expect(card(page, ok).getByText('SUCCEEDED', { exact: true })).toBeVisible({ timeout: 15_000 });
    await expectNoAxeViolations(page, { message: 'the gallery' });
    await page.goto(`/tasks/${ok}`);
    await expect(page.getByText(ok, { exact: true }).first()).toBeVisible();
    await expectNoAxeViolations(page, { message: 'the task page' });
  });
});

test.describe('task gallery: backends and history files', () => {
  test('a kind without a status endpoint shows "waiting for callback", not an error', async ({
    emulator,
    page,
  }) => {
    await emulator.set({ disabled: ['image_generate_query'] });
    const response = await page.request.post('/v1/image_generate', {
      data: { prompt: 'A quiet harbour' },
      headers: auth,
    });
    const id = ((await response.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
    await page.goto('/tasks');
    await lookUp(page, id);
    const task = card(page, id);
    await expect(task.getByText('Waiting for callback', { exact: true })).toBeVisible();
    await expect(task).toContainText('no status endpoint');
    await page.getByRole('tab', { name: /In progress/ }).click();
    await expect(card(page, id)).toBeVisible();
  });

  test('import a history file, re-run a task from it, and export', async ({ page, baseURL }) => {
    const original = {
      id: 'i2is-imported-1',
      kind: 'image_generate',
      source: 'created',
      params: { prompt: 'A paper boat on a puddle', generate_count: 1 },
      createdAt: Date.now() - 86_400_000,
      updatedAt: Date.now() - 86_000_000,
      status: 'SUCCEEDED',
      result: {
        task_id: 'i2is-imported-1',
        status: 'SUCCEEDED',
        image_url: `${baseURL}/emulator/media/images/expired.png`,
      },
    };
    // Finished 8 days ago: past the service's ~7 days, its result is gone.
    const expired = {
      ...original,
      id: 'i2is-imported-old',
      createdAt: Date.now() - 8 * 86_400_000,
      updatedAt: Date.now() - 8 * 86_400_000,
      finishedAt: Date.now() - 8 * 86_400_000,
      result: { ...original.result, task_id: 'i2is-imported-old' },
    };
    await page.goto('/tasks');
    await page.getByLabel('Import task history file').setInputFiles({
      name: 'history.json',
      mimeType: 'application/json',
      buffer: Buffer.from(
        JSON.stringify({
          format: 'media-console.task-history',
          version: 1,
          tasks: [original, expired, { id: 'bad' }],
        }),
      ),
    });
    await expect(
      page.getByText(/Imported: 2 new, 0 updated, 0 unchanged\. Skipped 1 invalid entry/),
    ).toBeVisible();
    // The team's record takes nothing on a file's word (the service does not know these ids), so
    // imported tasks open from their own page, out of this browser's history.
    await page.goto(`/tasks/${expired.id}`);
    await expect(page.getByText('Result expired')).toBeVisible();
    await expect(page.getByRole('link', { name: /Download/ })).toHaveCount(0);
    await page.goto(`/tasks/${original.id}`);
    await expect(page.getByText('A paper boat on a puddle').first()).toBeVisible();
    // The stored link no longer loads: the page says so instead of showing a broken image.
    await expect(page.getByText('Link expired or unavailable')).toBeVisible();

    await page.getByRole('button', { name: 'Re-run…' }).click();
    await page
      .getByRole('group', { name: 'Re-run this task' })
      .getByRole('button', { name: 'Re-run', exact: true })
      .click();
    await expect(page).not.toHaveURL(new RegExp(`/tasks/${original.id}$`));
    await expect(page.getByRole('link', { name: original.id })).toBeVisible();
    await expect(page.getByText('SUCCEEDED', { exact: true }).first()).toBeVisible({ timeout: 15_000 });

    await page.getByRole('link', { name: '← All tasks' }).click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page
        .getByRole('button', { name: 'More' })
        .click()
        .then(() => page.getByRole('menuitem', { name: 'Export history' }).click()),
    ]);
    const exported = JSON.parse(
      await (await download.createReadStream()).toArray().then((chunks) => Buffer.concat(chunks).toString()),
    ) as {
      tasks: { id: string; rerunOf?: string }[];
    };
    // Export writes this browser's history: the two imported tasks and the re-run.
    expect(exported.tasks).toHaveLength(3);
    expect(exported.tasks.find((t) => t.rerunOf === original.id)).toBeDefined();
  });
});
