// The callback loop on the built-in emulator: a translation created with the console's own inbox
// as callback_url ends, the emulator POSTs the callback, the inbox stores it, and the console asks
// the emulator about the task (a callback is a hint; without a status query for the kind, its
// result is kept as reported by the callback). The browser reads the log and the stream at
// /__console/callbacks, never at the secret address.
// Run: npx playwright test e2e/callbacks.spec.ts --workers=1
import { expectNoAxeViolations } from './axe';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { saveScreenshot } from './screenshots';

interface ConsoleConfig {
  /** The inbox's address without its secret (`…/callbacks/…`). */
  callbackAddress: string | null;
}

/** The inbox for signed-in browsers: log, events and pasted callbacks, without the secret. */
const CALLBACKS = '/__console/callbacks';

async function consoleConfig(page: Page): Promise<ConsoleConfig> {
  return (await (await page.request.get('/__console/config')).json()) as ConsoleConfig;
}

/** Fills and submits the Translate video form; returns the created task id. */
async function translateThroughForm(page: Page, name: string, language: string): Promise<string> {
  const config = await consoleConfig(page);
  await page.goto('/translate');
  await page.getByLabel('Video URL').fill(new URL('/emulator/samples/video.mp4', page.url()).toString());
  await page.getByText(language, { exact: true }).click();
  const captions = page.getByRole('switch', { name: 'Generate captions' });
  if ((await captions.getAttribute('aria-checked')) !== 'true') await captions.click();
  await page.getByLabel('Video name').fill(name);
  // The form prefills the console's own inbox, which the in-process emulator can reach; it waits
  // under "Advanced", closed while it holds the inbox.
  const advanced = page.getByRole('button', { name: /^Advanced/ });
  await expect(advanced).toHaveAttribute('aria-expanded', 'false');
  await advanced.click();
  await expect(page.getByLabel('Callback URL')).toHaveValue(config.callbackAddress!);
  expect(config.callbackAddress).toMatch(/\/callbacks\/…$/);
  const created = page.waitForResponse(
    (response) => response.url().endsWith('/v1/video_translate') && response.request().method() === 'POST',
  );
  await page.getByRole('button', { name: 'Translate video' }).click();
  const body = (await (await created).json()) as {
    code: number;
    data: { task_id: string; language: string }[];
  };
  expect(body.code).toBe(0);
  return body.data[0]!.task_id;
}

async function expectTranslatedTask(page: Page, taskId: string, expectedName: string) {
  // From the Callbacks screen, its id; from a task card, its heading (the request's name).
  await page
    .getByRole('link', { name: taskId })
    .or(page.getByRole('article').filter({ hasText: taskId }).getByRole('heading').getByRole('link'))
    .first()
    .click();
  await expect(page).toHaveURL(new RegExp(`/tasks/${taskId}$`));
  await expect(page.getByText('SUCCEEDED').first()).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText(expectedName, { exact: true }).first()).toBeVisible();
  const caption = page.getByRole('link', { name: /\.ass$/ }).first();
  await expect(caption).toHaveAttribute('href', /^https?:\/\/.+\.ass$/);
  await expect(page.getByLabel(`Video of task ${taskId}`).first()).toHaveAttribute('src', /^https?:\/\//);
}

async function expectCallbackListed(page: Page, taskId: string) {
  await page.getByRole('navigation', { name: 'Support' }).getByRole('link', { name: 'Callbacks' }).click();
  const list = page.getByRole('list', { name: 'Callbacks, newest first' });
  const item = list.getByRole('listitem').filter({ has: page.getByRole('link', { name: taskId }) });
  await expect(item).toBeVisible();
  await expect(item.getByText('SUCCEEDED', { exact: true })).toBeVisible();
  await expect(item.getByRole('heading')).toHaveText(/Video translation/);
}

test.describe('callback inbox', () => {
  test('a translation created through the form completes through its callback', async ({ page }) => {
    const name = `cb-form-${Date.now()}`;
    const taskId = await translateThroughForm(page, name, 'Japanese');
    await expect
      .poll(
        async () => {
          const log = (await (await page.request.get(`${CALLBACKS}/log`)).json()) as {
            data: { items: { body: { data: { task_id: string } } }[] };
          };
          return log.data.items.some((item) => item.body.data.task_id === taskId);
        },
        { message: 'the emulator delivered the callback to the inbox' },
      )
      .toBe(true);
    await expectCallbackListed(page, taskId);
    await expectTranslatedTask(page, taskId, `Japanese-${name}`);
  });

  test.describe('with the translation query switched off', () => {
    test.beforeEach(async ({ emulator }) => {
      await emulator.set({ disabled: ['video_translate_query'] });
    });

    test('the callback alone brings the result to the gallery', async ({ page }) => {
      const name = `cb-only-${Date.now()}`;
      const taskId = await translateThroughForm(page, name, 'Korean');
      // Switched off answers like an unknown path (code 404), not like an unknown task (100003).
      const query = await page.request.get(`/v1/video_translate/${taskId}`);
      expect(query.status()).toBe(404);
      expect(((await query.json()) as { code: number }).code).toBe(404);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
      // No status query can answer: only the callback can make the task SUCCEEDED.
      const card = page.getByRole('article').filter({ hasText: taskId });
      await expect(card.getByRole('heading', { name: `Korean - ${name}` })).toBeVisible();
      await expect(card.getByText('SUCCEEDED').first()).toBeVisible({ timeout: 15_000 });
      await expectTranslatedTask(page, taskId, `Korean-${name}`);
      await expectCallbackListed(page, taskId);
    });
  });
});

test('two tabs both show a callback that arrives, over one shared stream', async ({ context }) => {
  const streams: string[] = [];
  context.on('request', (request) => {
    if (new URL(request.url()).pathname.endsWith('/events')) streams.push(request.url());
  });
  const first = await context.newPage();
  await first.goto('/callbacks');
  await expect(first.getByText('Live updates: Live')).toBeVisible();
  const second = await context.newPage();
  await second.goto('/callbacks');
  await expect(second.getByText('Live updates: Live')).toBeVisible();

  // A task the record knows (a callback for any other is kept in the log only), which the
  // emulator fails: the FAILED callback is then confirmed by the status query it triggers.
  const created = await first.request.post('/v1/image_generate', {
    data: { prompt: `two tabs ${Date.now()} emulator:fail` },
  });
  const taskId = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
  const body = {
    code: 0,
    msg: 'ok',
    task_type: 'image_generate',
    data: { task_id: taskId, status: 'FAILED', error_message: 'Emulated failure' },
  };
  expect((await first.request.post(CALLBACKS, { data: body })).ok()).toBe(true);
  for (const page of [first, second]) {
    const list = page.getByRole('list', { name: 'Callbacks, newest first' });
    await expect(list.getByRole('listitem').first().getByRole('link', { name: taskId })).toBeVisible();
  }
  expect(streams, 'one event stream for the whole browser').toHaveLength(1);
  // The service's answer (the emulator fails the task) is what the task page shows.
  await second.goto(`/tasks/${taskId}`);
  await expect(second.getByText('FAILED').first()).toBeVisible({ timeout: 15_000 });
});

test('the Callbacks screen fits a phone and a desktop', { tag: '@screenshots' }, async ({ page }) => {
  // At least one callback of each documented form, pasted by hand like support staff would.
  await page.goto('/callbacks');
  for (const example of ['Video translation', 'Image generation', 'Image to video']) {
    await page.getByRole('button', { name: example }).click();
    await page.getByRole('button', { name: 'Store and check' }).click();
    await expect(page.getByRole('status').filter({ hasText: /Stored as|Already in the log/ })).toBeVisible();
  }
  await expect(page.getByText('Live updates: Live')).toBeVisible();
  for (const [width, height] of [
    [1280, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.getByRole('list', { name: 'Callbacks, newest first' }).getByText('Raw JSON').first().click();
    await expectNoAxeViolations(page, { message: `axe at ${width}px` });
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, `horizontal scroll at ${width}px`).toBeLessThanOrEqual(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.mouse.move(0, height - 1);
    await saveScreenshot(page, `callbacks-${width}`);
    await page.getByRole('list', { name: 'Callbacks, newest first' }).getByText('Raw JSON').first().click();
  }
  await page.evaluate(() => {
    document.documentElement.classList.add('dark');
    window.scrollTo(0, 0);
  });
  await page.mouse.move(0, 843);
  // The colour transitions of the theme switch have finished: no animation or transition runs.
  await expect
    .poll(() => page.evaluate(() => document.getAnimations().filter((a) => a.playState === 'running').length))
    .toBe(0);
  await saveScreenshot(page, 'callbacks-390-dark');
});
