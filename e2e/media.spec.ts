// Media for people: a refused file takes no row, an uploaded file shows by name and
// size, and the task page shows a request's inputs as media.
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { SHOT_WIDTHS, saveScreenshot } from './screenshots';

const PNG = readFileSync('server/emulator/assets/reference.png');
const run = Date.now().toString(36);

async function pickFiles(
  page: Page,
  button: Locator,
  files: { name: string; mimeType: string; buffer: Buffer }[],
) {
  const chooser = page.waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles(files);
}

const sample = (baseURL: string | undefined, name: string) => `${baseURL}/emulator/samples/${name}`;

test.describe('Uploads as files', () => {
  test('a refused file adds no row and says why beside the control', async ({ page }) => {
    await page.goto('/');
    const group = page.getByRole('group', { name: /Reference images/ });
    await pickFiles(page, group.getByRole('button', { name: 'Upload images' }), [
      { name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('Meeting notes, not an image.\n') },
    ]);
    await expect(group.getByRole('alert')).toHaveText(
      /notes\.png is not a JPG, JPEG, PNG, BMP, WebP or GIF image\. Nothing was sent\./,
    );
    await expect(group.getByRole('textbox', { name: /Reference image URL/ })).toHaveCount(0);
    await expect(group.getByText('0 of 5')).toBeVisible();
    await expect(page.getByRole('region', { name: 'What you will get' }).getByText('None')).toBeVisible();
  });

  test('an uploaded file shows its name, size and thumbnail, not its address', async ({ page }) => {
    await page.goto('/');
    await page.getByRole('textbox', { name: 'Prompt' }).fill(`A lighthouse ${run}`);
    const group = page.getByRole('group', { name: /Reference images/ });
    await pickFiles(page, group.getByRole('button', { name: 'Upload images' }), [
      { name: 'moodboard.png', mimeType: 'image/png', buffer: PNG },
    ]);
    await expect(group.getByText('moodboard.png', { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(group.getByText(/^\d+ (B|KB) · uploaded$/)).toBeVisible();
    await expect(group.getByRole('img', { name: 'Preview of reference image 1' })).toBeVisible();
    await expect(group.getByText(/\/emulator\/uploads\//)).toHaveCount(0);
    await expect(group.getByRole('textbox', { name: 'Reference image URL 1' })).toBeHidden();
    await expect(
      page.getByRole('region', { name: 'What you will get' }).getByText('1', { exact: true }),
    ).toBeVisible();
    for (const width of SHOT_WIDTHS) {
      await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
      await saveScreenshot(page, `media-form-upload-${width}`);
    }
    // Edit link shows the address again, to change it.
    await group.getByRole('button', { name: 'Edit link of moodboard.png' }).click();
    await expect(group.getByRole('textbox', { name: 'Reference image URL 1' })).toBeFocused();
  });
});

test.describe('Inputs on the task page', () => {
  test("a translation's source video and an image's references and prompt are shown as media", async ({
    page,
    baseURL,
  }) => {
    const video = sample(baseURL, 'video.mp4');
    const translation = await page.request.post('/v1/video_translate', {
      data: { target_languages: ['ja'], video_url: video, name: `Inputs ${run}` },
    });
    const translationId = ((await translation.json()) as { data: { task_id: string }[] }).data[0]!.task_id;
    await page.goto(`/tasks/${translationId}`);
    const inputs = page.getByRole('region', { name: 'Inputs' });
    await expect(inputs.getByLabel('Source video')).toHaveAttribute('src', video);

    const prompt = `Harbour with references ${run}`;
    const image = await page.request.post('/v1/image_generate', {
      data: { prompt, generate_count: 1, reference_images: [sample(baseURL, 'reference.png')] },
    });
    const [imageId] = ((await image.json()) as { data: { task_ids: string[] } }).data.task_ids;
    await page.goto(`/tasks/${imageId}`);
    await expect(inputs.getByText(prompt)).toBeVisible();
    const reference = inputs.getByRole('img', { name: 'Reference image 1 of 1' });
    await expect(reference).toBeVisible();
    // It loaded (the page's CSP allows what it shows).
    await expect
      .poll(() => reference.evaluate((img: HTMLImageElement) => img.naturalWidth))
      .toBeGreaterThan(0);
    for (const width of SHOT_WIDTHS) {
      await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
      await inputs.scrollIntoViewIfNeeded();
      await saveScreenshot(page, `media-task-inputs-${width}`);
    }
  });
});
