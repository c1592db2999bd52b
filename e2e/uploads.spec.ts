// Local files on the built-in emulator (its upload endpoint, through the console's proxy path): a
// PNG dropped on Create image uploads with a visible progress bar, is sent as a reference image and
// its task succeeds; a video picked on Translate video is uploaded and translated; an upload the
// service turns away, and a cancelled one, leave the form usable. The form's own refusals (a 25 MB
// image, text named .png, too many files) are component tests. Uploads are slowed with Chromium's
// network throttling so the progress bar has time to show.
import { expectNoAxeViolations } from './axe';
import type { CDPSession, Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { SHOT_WIDTHS, saveScreenshot } from './screenshots';
import { readFileSync } from 'node:fs';

// Files of up to 25 MB cross Chromium's protocol and a throttled network: alone these take 5-25 s, but
// beside the other worker on a 2-core machine they took past the default 45 s (not a hang: alone they
// pass). Three times the timeout; how fast an upload is belongs to the benchmark (bench-upload).
test.describe.configure({ timeout: 135_000 });

const UPLOAD_PATH = '/v1/figure-resource/upload/file';

/** A real PNG (the emulator's sample) padded after IEND, so it takes a few seconds at the throttle. */
const PNG = Buffer.concat([readFileSync('server/emulator/assets/reference.png'), Buffer.alloc(160 * 1024)]);
const VIDEO = readFileSync('server/emulator/assets/video-16x9.mp4');

/** Upload bandwidth in bytes per second (Chromium's own network emulation). */
/**
 * Slows the page's uploads to `bytesPerSecond` (-1: no limit). Chromium throttles every request of
 * the page while it is on, so it is set once a screen has loaded: a screen's code fetched under it
 * once failed to load ("Failed to fetch dynamically imported module") after a navigation cut the
 * throttled uploads of the screen before.
 */
async function throttleUploads(page: Page, bytesPerSecond: number) {
  // One session per page: the conditions belong to the session that set them.
  let cdp = throttles.get(page);
  if (!cdp) {
    cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    throttles.set(page, cdp);
  }
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: bytesPerSecond,
  });
}
const throttles = new WeakMap<Page, CDPSession>();

/** Drops files on an element, with a DataTransfer built in the page from the bytes given. */
async function dropFiles(
  page: Page,
  target: Locator,
  files: { name: string; type: string; bytes: Buffer }[],
) {
  const dataTransfer = await page.evaluateHandle(
    (list) => {
      const transfer = new DataTransfer();
      for (const file of list) {
        const bytes = Uint8Array.from(atob(file.base64), (char) => char.charCodeAt(0));
        transfer.items.add(new File([bytes], file.name, { type: file.type }));
      }
      return transfer;
    },
    files.map((file) => ({ name: file.name, type: file.type, base64: file.bytes.toString('base64') })),
  );
  await target.dispatchEvent('dragenter', { dataTransfer });
  await target.dispatchEvent('dragover', { dataTransfer });
  await target.dispatchEvent('drop', { dataTransfer });
}

/** Picks files through the button's file dialog, as a creator would. */
async function pickFiles(
  page: Page,
  button: Locator,
  files: { name: string; mimeType: string; buffer: Buffer }[] | string,
) {
  const chooser = page.waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles(files);
}

function countUploads(page: Page) {
  const seen = { count: 0 };
  page.on('request', (request) => {
    if (request.url().endsWith(UPLOAD_PATH)) seen.count += 1;
  });
  return seen;
}

test.describe('Uploads', () => {
  test('a PNG dropped on Create image uploads with progress, is sent as a reference image and its task succeeds', async ({
    page,
  }) => {
    await throttleUploads(page, 40 * 1024);
    await page.goto('/');
    await page.getByRole('textbox', { name: 'Prompt' }).fill('A lighthouse in the style of the moodboard');
    const group = page.getByRole('group', { name: /Reference images/ });
    await dropFiles(page, group, [{ name: 'moodboard.png', type: 'image/png', bytes: PNG }]);

    const bar = page.getByRole('progressbar', { name: 'Uploading moodboard.png' });
    await expect(bar).toBeVisible();
    await expect(group.getByText(/\d+% · .* of 17\d KB/)).toBeVisible();
    // Real progress: the bar moves while the bytes go out.
    await expect.poll(async () => Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThan(10);

    // Sending now is held until the upload ends, and says why.
    await page.getByRole('button', { name: 'Generate images' }).click();
    await expect(page.getByText(/Not sent yet\. A file is still uploading/)).toBeVisible();

    // The row shows the file by name and size; its address is in the (hidden) input behind Edit link.
    const input = page.getByLabel('Reference image URL 1', { exact: true });
    await expect(input).toHaveValue(/^http.*\/uploads?\//, { timeout: 20_000 });
    await expect(bar).toHaveCount(0);
    await expect(page.getByRole('img', { name: 'Preview of reference image 1' })).toBeVisible();
    await expect(group.getByText('moodboard.png', { exact: true })).toBeVisible();
    await expect(group.getByText(/^17\d KB · uploaded$/)).toBeVisible();
    const uploadedUrl = await input.inputValue();

    const request = page.waitForRequest((r) => r.url().endsWith('/v1/image_generate'));
    await page.getByRole('button', { name: 'Generate images' }).click();
    expect((await request).postDataJSON().reference_images).toEqual([uploadedUrl]);

    const panel = page.getByRole('region', { name: '1 image task created' });
    await panel.getByRole('link', { name: /^i2is-/ }).click();
    await expect(page.getByText('reference image:')).toBeVisible();
    await expect(page.getByRole('link', { name: 'moodboard.png' })).toHaveAttribute('href', uploadedUrl);
    await expect(page.getByText(/^succeeded$/i).first()).toBeVisible({ timeout: 30_000 });
  });

  test('a video picked on Translate video is uploaded and translated', async ({ page }) => {
    await throttleUploads(page, 20 * 1024);
    await page.goto('/translate');
    await page
      .getByRole('group', { name: 'Target languages' })
      .getByText('Japanese', { exact: true })
      .click();
    await pickFiles(page, page.getByRole('button', { name: 'Upload video' }), [
      { name: 'interview.mp4', mimeType: 'video/mp4', buffer: VIDEO },
    ]);
    await expect(page.getByRole('progressbar', { name: 'Uploading interview.mp4' })).toBeVisible();
    const input = page.getByLabel('Video URL', { exact: true });
    await expect(input).toHaveValue(/^http/, { timeout: 20_000 });
    // The field shows the file (name, size, length), not the address the upload returned.
    await expect(page.getByText('interview.mp4', { exact: true })).toBeVisible();
    await expect(page.getByText(/ KB · \d+:\d\d · uploaded$/)).toBeVisible();

    const request = page.waitForRequest((r) => r.url().endsWith('/v1/video_translate'));
    await page.getByRole('button', { name: 'Translate video' }).click();
    expect((await request).postDataJSON().video_url).toBe(await input.inputValue());
    const panel = page.getByRole('region', { name: '1 translation task created' });
    await panel.getByRole('link', { name: /^vt-/ }).click();
    await expect(page.getByText('video:')).toBeVisible();
    await expect(page.getByRole('link', { name: 'interview.mp4' })).toBeVisible();
    await expect(page.getByText(/^succeeded$/i).first()).toBeVisible({ timeout: 30_000 });
  });

  // The form's own refusals (size, type, count) are component tests
  // (src/features/*/*-uploads.test.tsx); here a refusal by the server reaches the form.
  test('an upload the service turns away leaves the form usable with URLs, and says why', async ({
    page,
    emulator,
    baseURL,
  }) => {
    await emulator.set({ disabled: ['upload'] });
    const uploads = countUploads(page);
    await page.goto('/');
    await page.getByRole('textbox', { name: 'Prompt' }).fill('A cat in a hat');
    await pickFiles(page, page.getByRole('button', { name: 'Upload images' }), [
      { name: 'moodboard.png', mimeType: 'image/png', buffer: PNG },
    ]);
    await expect(page.getByText(/File uploads are not available on this backend/)).toBeVisible();
    expect(uploads.count).toBe(1);
    await expect(page.getByRole('button', { name: 'Upload images' })).toHaveCount(0);
    const input = page.getByRole('textbox', { name: 'Reference image URL 1' });
    await expect(input).toHaveValue('');
    await expectNoAxeViolations(page);

    await input.fill(`${baseURL}/emulator/samples/reference.png`);
    await page.getByRole('button', { name: 'Generate images' }).click();
    await expect(page.getByRole('region', { name: '1 image task created' })).toBeVisible();
  });

  test('a cancelled upload leaves the form usable', async ({ page, baseURL }) => {
    await throttleUploads(page, 8 * 1024);
    await page.goto('/');
    await page.getByRole('textbox', { name: 'Prompt' }).fill('A cat in a hat');
    await pickFiles(page, page.getByRole('button', { name: 'Upload images' }), [
      { name: 'slow.png', mimeType: 'image/png', buffer: PNG },
    ]);
    await expect(page.getByRole('progressbar', { name: 'Uploading slow.png' })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel uploading slow.png' }).click();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await expect(page.getByText(/still uploading/)).toHaveCount(0);

    const input = page.getByRole('textbox', { name: 'Reference image URL 1' });
    await expect(input).toHaveValue('');
    await input.fill(`${baseURL}/emulator/samples/reference.png`);
    await page.getByRole('button', { name: 'Generate images' }).click();
    await expect(page.getByRole('region', { name: '1 image task created' })).toBeVisible();
  });

  test(
    'screenshots of the three forms with files uploading, at 1280 and 390 px',
    { tag: '@screenshots' },
    async ({ page }) => {
      for (const width of SHOT_WIDTHS) {
        await page.setViewportSize({ width, height: 900 });
        await throttleUploads(page, -1);
        await page.goto('/');
        const group = page.getByRole('group', { name: /Reference images/ });
        await expect(group).toBeVisible();
        await throttleUploads(page, 6 * 1024);
        await dropFiles(page, group, [
          { name: 'moodboard.png', type: 'image/png', bytes: PNG },
          { name: 'palette-with-a-long-name-2026.png', type: 'image/png', bytes: PNG },
        ]);
        await expect(page.getByRole('progressbar')).toHaveCount(2);
        await expect
          .poll(async () => Number(await page.getByRole('progressbar').first().getAttribute('aria-valuenow')))
          .toBeGreaterThan(3);
        await expectNoAxeViolations(page);
        await saveScreenshot(page, `uploads-create-image-${width}`);

        await throttleUploads(page, -1);
        await page.goto('/image-to-video');
        const startFrame = page.getByRole('textbox', { name: 'Start frame URL' });
        await expect(startFrame).toBeVisible();
        await throttleUploads(page, 6 * 1024);
        await dropFiles(page, startFrame, [{ name: 'first-frame.png', type: 'image/png', bytes: PNG }]);
        await expect(page.getByRole('progressbar')).toHaveCount(1);
        await expectNoAxeViolations(page);
        await saveScreenshot(page, `uploads-image-to-video-${width}`);

        await throttleUploads(page, -1);
        await page.goto('/translate');
        const upload = page.getByRole('button', { name: 'Upload video' });
        await expect(upload).toBeVisible();
        await throttleUploads(page, 6 * 1024);
        await pickFiles(page, upload, [{ name: 'interview.mp4', mimeType: 'video/mp4', buffer: VIDEO }]);
        await expect(page.getByRole('progressbar')).toHaveCount(1);
        await expectNoAxeViolations(page);
        await saveScreenshot(page, `uploads-translate-${width}`);
      }
    },
  );
});

test(
  'screenshots of the three forms with their files uploaded, at 1280 and 390 px',
  { tag: '@screenshots' },
  async ({ page }) => {
    for (const width of SHOT_WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await page.goto('/');
      // The draft keeps the rows of the previous width; each shot starts from an empty form.
      await page.getByRole('button', { name: 'Reset' }).click();
      await dropFiles(page, page.getByRole('group', { name: /Reference images/ }), [
        { name: 'moodboard.png', type: 'image/png', bytes: PNG },
        { name: 'palette-with-a-long-name-2026.png', type: 'image/png', bytes: PNG },
      ]);
      await expect(page.getByLabel('Reference image URL 2', { exact: true })).toHaveValue(/^http/);
      await expect(page.getByRole('img', { name: 'Preview of reference image 2' })).toBeVisible();
      await expectNoAxeViolations(page);
      await saveScreenshot(page, `uploads-create-image-done-${width}`);

      await page.goto('/image-to-video');
      await dropFiles(page, page.getByRole('textbox', { name: 'Start frame URL' }), [
        { name: 'first-frame.png', type: 'image/png', bytes: PNG },
      ]);
      await expect(page.getByRole('img', { name: 'Preview of the start frame' })).toBeVisible();
      await expectNoAxeViolations(page);
      await saveScreenshot(page, `uploads-image-to-video-done-${width}`);

      await page.goto('/translate');
      await pickFiles(page, page.getByRole('button', { name: 'Upload video' }), [
        { name: 'interview.mp4', mimeType: 'video/mp4', buffer: VIDEO },
      ]);
      // An uploaded video shows as its file (name, size, length, poster); its player is behind Edit link.
      await expect(page.getByText('interview.mp4', { exact: true })).toBeVisible();
      await expect(page.getByText(/ KB · \d+:\d\d · uploaded$/)).toBeVisible();
      await expectNoAxeViolations(page);
      await saveScreenshot(page, `uploads-translate-done-${width}`);
    }
  },
);
