// Image to video, end to end in real Chromium against the emulator: from a generated image, through
// Animate, to a video that plays in the gallery; the rules of each model on the screen; screenshots.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { SHOT_WIDTHS, saveScreenshot } from './screenshots';

async function generateImage(page: Page, prompt: string, ratio: string): Promise<string> {
  await page.goto('/');
  await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
  await page.getByRole('radiogroup', { name: 'Aspect ratio' }).getByText(ratio, { exact: true }).click();
  await page.getByRole('button', { name: 'Generate images' }).click();
  const panel = page.getByRole('region', { name: '1 image task created' });
  return (await panel.getByRole('link', { name: /^i2is-/ }).textContent())!;
}

const card = (page: Page, id: string) => page.getByRole('article').filter({ hasText: id });
const openTasks = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();

test.describe('Image to video', () => {
  test('from a generated image, through Animate, to a video that plays in the gallery', async ({ page }) => {
    const imageId = await generateImage(page, 'A lighthouse on a cliff at dusk', '4:3');
    await openTasks(page);
    const imageCard = card(page, imageId);
    await expect(imageCard.getByText('SUCCEEDED', { exact: true })).toBeVisible({ timeout: 15_000 });

    // Click 1: Animate on the card.
    await imageCard.getByRole('link', { name: 'Animate' }).click();
    await expect(page).toHaveURL('/image-to-video');
    await expect(page.getByRole('heading', { level: 1, name: 'Image to video' })).toBeVisible();
    const startFrame = page.getByRole('textbox', { name: 'Start frame URL' });
    await expect(startFrame).toHaveValue(new RegExp(`/emulator/media/images/${imageId}\\.png$`));
    await expect(page.getByRole('img', { name: 'Preview of the start frame' })).toBeVisible();
    // A 4:3 image is landscape: the closest video orientation is 16:9.
    await expect(page.getByRole('radio', { name: 'Landscape' })).toBeChecked();
    await expect(page.getByRole('link', { name: imageId, exact: true })).toBeVisible();

    await page.getByRole('textbox', { name: 'Prompt' }).fill('The beam turns slowly. Speak "Home at last."');
    await page.getByRole('switch', { name: 'Audio' }).click();
    await expect(page.getByRole('region', { name: 'What you will get' })).toContainText(
      '1 × 8 s × 720p × landscape (16:9), with audio',
    );
    // Click 2: create.
    await page.getByRole('button', { name: 'Create videos' }).click();
    const panel = page.getByRole('region', { name: '1 video task created' });
    const videoId = (await panel.getByRole('link', { name: /^i2v-/ }).textContent())!;

    // The video task's page: its start frame and the image task it came from.
    await panel.getByRole('link', { name: videoId }).click();
    // In the task's details; the request's inputs, once they have loaded, show it a second time.
    await expect(
      page.getByRole('region', { name: 'Details' }).getByRole('img', { name: 'Start frame' }),
    ).toBeVisible();
    await page.getByRole('link', { name: imageId, exact: true }).click();
    await expect(page).toHaveURL(`/tasks/${imageId}`);
    await expect(page.getByRole('link', { name: 'Animate' })).toBeVisible();

    // In the gallery the video finishes and plays, landscape like the request.
    await openTasks(page);
    const videoCard = card(page, videoId);
    await expect(videoCard.getByText('SUCCEEDED', { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(videoCard.getByText('8 s video')).toBeVisible();
    const video = videoCard.locator('video');
    // The card may re-render as its last poll lands; press Play until the player is there.
    await expect(async () => {
      if (!(await video.count()))
        await videoCard
          .getByRole('button', { name: `Play video of task ${videoId}` })
          .click({ timeout: 2_000 });
      await expect(video).toHaveCount(1, { timeout: 2_000 });
    }).toPass({ timeout: 15_000 });
    await expect
      .poll(() => video.evaluate((el: HTMLVideoElement) => el.readyState >= 2 && !el.error), {
        timeout: 20_000,
      })
      .toBe(true);
    await expect
      .poll(() => video.evaluate((el: HTMLVideoElement) => [el.videoWidth > el.videoHeight, el.duration > 0]))
      .toEqual([true, true]);
  });

  test('KL takes reference images only and says what changed; impossible values cannot be chosen', async ({
    page,
    baseURL,
  }) => {
    await page.goto('/image-to-video');
    await page.getByRole('textbox', { name: 'Prompt' }).fill('Two rooms become one');
    await page
      .getByRole('textbox', { name: 'Start frame URL' })
      .fill(`${baseURL}/emulator/samples/reference.png`);
    await page.getByRole('radiogroup', { name: 'Resolution' }).getByText('4k').click();
    await page.getByRole('radiogroup', { name: 'Model' }).getByText('Model KL').click();
    await expect(
      page.getByRole('status').filter({ hasText: '4k is not available with KL: set to 1080p' }),
    ).toBeVisible();
    await expect(page.getByRole('radio', { name: 'Multi-reference' })).toBeChecked();
    await expect(page.getByRole('radio', { name: '4k' })).toHaveCount(0);
    await expect(page.getByRole('switch', { name: 'Audio' })).toHaveCount(0);
    await expect(page.getByRole('textbox', { name: 'Reference image URL 1' })).toHaveValue(/reference\.png$/);
    await page.getByRole('button', { name: 'Add reference image' }).click();
    await page
      .getByRole('textbox', { name: 'Reference image URL 2' })
      .fill(`${baseURL}/emulator/samples/reference.webp`);
    await page.keyboard.press('ControlOrMeta+Enter');
    await expect(page.getByRole('region', { name: '1 video task created' })).toBeVisible();
  });

  test('a start frame that cannot be downloaded gets 530002 on its field', async ({ page, baseURL }) => {
    await page.goto('/image-to-video');
    await page.getByRole('textbox', { name: 'Prompt' }).fill('x');
    const start = page.getByRole('textbox', { name: 'Start frame URL' });
    await start.fill(`${baseURL}/emulator/samples/missing.png`);
    await page.getByRole('button', { name: 'Create videos' }).click();
    await expect(start).toHaveAttribute('aria-invalid', 'true');
    await expect(start).toHaveAccessibleDescription(/530002/);
  });

  test(
    'screenshots at 1280 and 390 px, light and dark',
    { tag: '@screenshots' },
    async ({ page, baseURL }) => {
      for (const width of SHOT_WIDTHS) {
        for (const theme of ['light', 'dark'] as const) {
          await page.setViewportSize({ width, height: 900 });
          await page.emulateMedia({ colorScheme: theme });
          await page.goto('/image-to-video');
          await page.getByRole('textbox', { name: 'Prompt' }).fill('Slow push-in. Speak "Welcome."');
          await page
            .getByRole('textbox', { name: 'Start frame URL' })
            .fill(`${baseURL}/emulator/samples/reference.png`);
          await expect(page.getByRole('img', { name: 'Preview of the start frame' })).toBeVisible();
          expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          await saveScreenshot(page, `image-to-video-${width}-${theme}`);
        }
      }
    },
  );
});
