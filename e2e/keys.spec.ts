// The keyboard on Tasks and the results lightbox: `/` focuses the search, `j` / `k` move
// between the cards and Enter opens one; a result image opens large in a modal dialog that ← and →
// walk through a request's images, Escape closes and the focus goes back; axe clean. On Tasks by
// request, a card's image and video open there too, and the video plays.
import { expectNoAxeViolations } from './axe';
import { mkdirSync } from 'node:fs';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { SHOT_WIDTHS, TAKE_SCREENSHOTS } from './screenshots';

const run = Date.now().toString(36);

async function createImages(request: APIRequestContext, prompt: string, count: number): Promise<string[]> {
  const answer = await request.post('/v1/image_generate', { data: { prompt, generate_count: count } });
  return ((await answer.json()) as { data: { task_ids: string[] } }).data.task_ids;
}

/** Someone follows the tasks (the team's record hears their status) until each has its result. */
async function follow(request: APIRequestContext, ids: string[], kind = 'image_generate') {
  for (const id of ids)
    await expect
      .poll(
        async () => {
          const answer = await request.get(`/v1/${kind}/${id}`);
          return ((await answer.json()) as { data?: { status?: string } }).data?.status;
        },
        { timeout: 30_000 },
      )
      .toBe('SUCCEEDED');
}

/** The lightbox as a person sees it, at 1280×800 and 390×844 (`npm run screenshots`). */
async function shoot(page: Page, name: string) {
  if (!TAKE_SCREENSHOTS) return;
  mkdirSync('screenshots', { recursive: true });
  await page.screenshot({ path: `screenshots/${name}.png` });
}

test('/ focuses the search; j and k move between the cards and Enter opens one', async ({ page }) => {
  const prompt = `Keys ${run}`;
  for (const n of [1, 2, 3]) await createImages(page.request, `${prompt} card ${n}`, 1);
  await page.goto(`/tasks?by=task&q=${encodeURIComponent(prompt)}`);
  const cards = page.getByRole('tabpanel').getByRole('article');
  await expect(cards).toHaveCount(3);
  const title = (n: number) => cards.nth(n).getByRole('heading').getByRole('link');
  const search = page.getByRole('searchbox', { name: 'Search tasks' });

  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  await expect(search).toHaveValue(prompt);
  // In the search box the keys are typed, not taken.
  await page.keyboard.press('End');
  await page.keyboard.press('j');
  await expect(search).toHaveValue(`${prompt}j`);
  await expect(search).toBeFocused();
  await page.keyboard.press('Backspace');
  await expect(search).toHaveValue(prompt);
  await expect(cards).toHaveCount(3);

  // Out of the field: j goes to the first card, then on; k back.
  await page.getByRole('heading', { level: 1, name: 'Tasks' }).click();
  await page.keyboard.press('j');
  await expect(title(0)).toBeFocused();
  await page.keyboard.press('j');
  await expect(title(1)).toBeFocused();
  await page.keyboard.press('j');
  await expect(title(2)).toBeFocused();
  await page.keyboard.press('k');
  await expect(title(1)).toBeFocused();
  const href = await title(1).getAttribute('href');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(href!);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
});

test('a result image opens in a lightbox: arrows walk the request, Escape closes and gives focus back; axe clean', async ({
  page,
}) => {
  const prompt = `Lightbox ${run}`;
  const ids = await createImages(page.request, prompt, 4);
  await follow(page.request, ids);
  await page.goto(`/requests/req-${ids[0]}`);
  const open = page.getByRole('button', { name: `View larger: Generated image: ${prompt}` });
  await expect(open).toHaveCount(4, { timeout: 30_000 });

  await open.nth(1).click();
  const dialog = page.getByRole('dialog', { name: 'Image 2 of 4' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('heading', { name: 'Image 2 of 4' })).toBeVisible();
  const image = dialog.getByRole('img', { name: `Generated image: ${prompt}` });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(dialog.getByRole('link', { name: 'Download' })).toHaveAttribute(
    'href',
    /^\/__console\/tasks\/.+\/download\/result$/,
  );
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeFocused();
  await expectNoAxeViolations(page, { include: 'dialog' });
  for (const width of SHOT_WIDTHS) {
    await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
    await shoot(page, `lightbox-${width}`);
  }

  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('dialog', { name: 'Image 3 of 4' })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('dialog', { name: 'Image 1 of 4' })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('dialog', { name: 'Image 4 of 4' })).toBeVisible();
  await page.getByRole('button', { name: 'Next image' }).click();
  await expect(page.getByRole('dialog', { name: 'Image 1 of 4' })).toBeVisible();
  // The focus stays inside while it is open.
  for (let i = 0; i < 5; i++) {
    await page.keyboard.press('Tab');
    await expect(page.getByRole('dialog').locator(':focus')).toHaveCount(1);
  }
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(open.nth(1)).toBeFocused();

  // On the task page: the image opens too, and Close gives the focus back.
  await page.goto(`/tasks/${ids[0]}`);
  const single = page.getByRole('button', { name: `View larger: Generated image: ${prompt}` });
  await single.click();
  const alone = page.getByRole('dialog', { name: 'Image' });
  await expect(alone.getByRole('img', { name: `Generated image: ${prompt}` })).toBeVisible();
  await alone.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(single).toBeFocused();
});

test("By request: a card's image opens the lightbox, its video plays there, and the arrows go between them", async ({
  page,
  baseURL,
}) => {
  const prompt = `Card lightbox ${run}`;
  const images = await createImages(page.request, prompt, 2);
  const made = await page.request.post('/v1/image_to_video', {
    data: {
      image_url: `${baseURL}/emulator/samples/reference.png`,
      aspect_resolution: '720p',
      prompt,
      generate_count: 2,
    },
  });
  const clips = ((await made.json()) as { data: { task_ids: string[] } }).data.task_ids;
  await follow(page.request, images);
  await follow(page.request, clips, 'image_to_video');
  await page.goto(`/tasks?q=${encodeURIComponent(prompt)}`);
  await expect(page.getByRole('tabpanel').getByRole('article')).toHaveCount(2);
  const imageButtons = page.getByRole('button', { name: new RegExp(`^View larger: Image \\d: ${prompt}$`) });
  await expect(imageButtons).toHaveCount(2);
  // Newest first: the videos' card, then the images'.
  const first = page.getByRole('button', { name: `View larger: Video 1: ${prompt}` });
  await first.click();
  const dialog = page.getByRole('dialog');
  await expect(page.getByRole('dialog', { name: 'Video 1 of 4' })).toBeVisible();
  const player = dialog.locator('video');
  await expect(player).toHaveAttribute('controls', '');
  await expect(player).toHaveAttribute('poster', /.+/);
  await player.evaluate(async (element: HTMLVideoElement) => {
    element.muted = true;
    await element.play();
  });
  await expect
    .poll(() => player.evaluate((element: HTMLVideoElement) => element.currentTime))
    .toBeGreaterThan(0);
  await expectNoAxeViolations(page, { include: 'dialog' });
  await shoot(page, 'lightbox-video');
  if (TAKE_SCREENSHOTS) {
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, 'lightbox-video-390');
    await page.setViewportSize({ width: 1280, height: 800 });
  }
  const firstSource = await player.getAttribute('src');
  // From the player itself, → goes to the next result (it does not seek).
  await player.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('dialog', { name: 'Video 2 of 4' })).toBeVisible();
  await expect(player).not.toHaveAttribute('src', firstSource!);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('dialog', { name: 'Image 3 of 4' })).toBeVisible();
  await expect(player).toHaveCount(0);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('dialog', { name: 'Video 1 of 4' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(first).toBeFocused();
  // An image of the request's card opens where it is among them.
  await imageButtons.nth(1).click();
  await expect(page.getByRole('dialog', { name: 'Image 4 of 4' })).toBeVisible();
});
