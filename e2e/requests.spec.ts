// Requests, as people see them: one time for every viewer (the team's record, the server's clock),
// human names on cards, task pages and downloads.
import { expectNoAxeViolations } from './axe';
import type { Browser, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { saveScreenshot, SHOT_WIDTHS } from './screenshots';
import { shiftClock } from './shifted-clock';

const run = Date.now().toString(36);
const TWO_HOURS = 2 * 3600 * 1000;

/** A browser whose clock is two hours ahead: Date, Date.now and new Date() all shifted. */
async function shiftedPage(browser: Browser, baseURL: string): Promise<Page> {
  const context = await browser.newContext({ baseURL });
  await shiftClock(context, TWO_HOURS);
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
    test.setTimeout(90_000);
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
    test.setTimeout(90_000);
    const prompt = `Red bicycle, Lisbon ${run}`;
    const created = await page.request.post('/v1/image_generate', { data: { prompt, generate_count: 2 } });
    const ids = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids;
    // On Tasks by task, each card is headed by the prompt and leads to its request.
    await page.goto(`/tasks?q=${encodeURIComponent(ids[1]!)}&by=task`);
    const card = page.getByRole('article', { name: prompt });
    await expect(card.getByRole('link', { name: '2 of 2 in its request' })).toHaveAttribute(
      'href',
      `/requests/req-${ids[0]}`,
    );
    await page.goto(`/tasks/${ids[1]}`);
    await expect(page.getByRole('heading', { level: 1, name: prompt })).toBeVisible();
    await expect(page.getByText('SUCCEEDED', { exact: true }).first()).toBeVisible({ timeout: 15_000 });
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download image' }).click();
    expect((await downloading).suggestedFilename()).toMatch(
      new RegExp(`^red-bicycle-lisbon-${run}-2\\.png$`),
    );
  });

  test('a request is presented one result at a time: arrow keys, two different images, Escape leaves', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const prompt = `Calm ocean at sunset ${run}`;
    const created = await page.request.post('/v1/image_generate', { data: { prompt, generate_count: 2 } });
    const ids = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids;
    // Looked up through the console's /v1, as any poll does: the team's record learns each outcome.
    for (const id of ids)
      await expect
        .poll(
          async () =>
            (
              (await (await page.request.get(`/v1/image_generate/${id}`)).json()) as {
                data: { status: string };
              }
            ).data.status,
          { timeout: 30_000 },
        )
        .toBe('SUCCEEDED');
    await page.goto(`/requests/req-${ids[0]}`);
    await expect(page.getByText('SUCCEEDED', { exact: true })).toHaveCount(2);
    await page.getByRole('link', { name: 'Present' }).click();
    await expect(page).toHaveURL(new RegExp(`/requests/req-${ids[0]}/present$`));
    const show = page.getByRole('region', { name: `Presentation: ${prompt}` });
    await expect(show.getByText('1 / 2')).toBeVisible();
    const loaded = () =>
      show
        .getByRole('img', { name: prompt })
        .evaluate((img: HTMLImageElement) => (img.complete && img.naturalWidth > 0 ? img.currentSrc : ''));
    await expect.poll(loaded).not.toBe('');
    const first = await loaded();
    await page.keyboard.press('ArrowRight');
    await expect(show.getByText('2 / 2')).toBeVisible();
    await expect.poll(loaded).not.toBe('');
    expect(await loaded()).not.toBe(first);
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(page).toHaveURL(new RegExp(`/requests/req-${ids[0]}$`));
    await expect(page.getByRole('heading', { level: 1, name: prompt })).toBeVisible();
  });
});

test.describe('results where they were asked for', () => {
  test('the form follows its request: tiles with state and images, then the request, the siblings, remix', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const prompt = `Harbour at dawn ${run}`;
    await page.goto('/');
    await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
    await page.getByRole('spinbutton', { name: 'Number of images' }).fill('2');
    await page.getByRole('button', { name: 'Generate images' }).click();
    const panel = page.getByRole('region', { name: '2 image tasks created' });
    const results = panel.getByRole('list', { name: 'Results' });
    const tiles = results.getByRole('listitem');
    await expect(tiles).toHaveCount(2, { timeout: 30_000 });
    await expect(tiles.first().getByRole('heading', { name: 'Image 1' })).toBeVisible();
    // Each tile shows its image as soon as it is done, with what to do next.
    for (const tile of [tiles.first(), tiles.last()]) {
      await expect(tile.getByRole('img', { name: `Generated image: ${prompt}` })).toBeVisible({
        timeout: 20_000,
      });
      await expect(tile.getByText('SUCCEEDED', { exact: true })).toBeVisible();
      await expect(tile.getByText(/^Took /)).toBeVisible();
    }
    await expect(tiles.first().getByRole('link', { name: 'Download Image 1' })).toHaveAttribute(
      'download',
      new RegExp(`^harbour-at-dawn-${run}-1\\.\\w+$`),
    );
    await expect(tiles.first().getByRole('link', { name: 'Animate' })).toBeVisible();
    for (const width of SHOT_WIDTHS) {
      await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
      await saveScreenshot(page, `requests-form-panel-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await expectNoAxeViolations(page);
    const ids = await panel.getByRole('link', { name: /^i2is-/ }).allTextContents();

    // Use this prompt: the form gets it back.
    await page.getByRole('textbox', { name: 'Prompt' }).fill('something else');
    await tiles.first().getByRole('button', { name: 'Use this prompt' }).click();
    await expect(page.getByRole('textbox', { name: 'Prompt' })).toHaveValue(prompt);

    // Animate asks for the motion, with the image's prompt as a one-click suggestion.
    await tiles.first().getByRole('link', { name: 'Animate' }).click();
    const motion = page.getByRole('textbox', { name: 'Prompt' });
    await expect(motion).toHaveValue('');
    await expect(motion).toBeFocused();
    await expect(page.getByText(/What should move in this image\?/)).toBeVisible();
    await page.getByRole('button', { name: "Use the image's prompt" }).click();
    await expect(motion).toHaveValue(prompt);
    // Read once, the parameters leave the address (a reload keeps the draft, not the link's values).
    await expect(page).toHaveURL(/\/image-to-video$/);

    // Coming back to the form shows the recent requests.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Create image' }).click();
    const recent = page.getByRole('region', { name: 'Your recent requests' });
    await expect(recent).toContainText(prompt);
    await expect(recent.getByRole('img', { name: `Generated image: ${prompt}` })).toHaveCount(2);

    // The request's own view, and a task page's links to its request and siblings.
    await page.goto('/');
    await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
    await page.getByRole('button', { name: 'Generate images' }).click();
    const again = page.getByRole('region', { name: /image tasks created/ });
    const newTiles = again.getByRole('list', { name: 'Results' }).getByRole('listitem');
    for (const tile of [newTiles.first(), newTiles.last()])
      await expect(tile.getByRole('button', { name: `View larger: Generated image: ${prompt}` })).toBeVisible(
        {
          timeout: 20_000,
        },
      );
    // Four results on the page (this request's and the recent one's): the lightbox pages within
    // the request it was opened from, and zooms.
    await newTiles
      .last()
      .getByRole('button', { name: /^View larger/ })
      .click();
    const lightbox = page.getByRole('dialog');
    await expect(lightbox).toHaveAccessibleName('Image 2 of 2');
    await page.keyboard.press('ArrowRight');
    await expect(lightbox).toHaveAccessibleName('Image 1 of 2');
    const zoom = page.getByRole('group', { name: 'Zoom' });
    await zoom.getByRole('button', { name: 'Zoom in' }).click();
    await expect(zoom.getByRole('button', { name: 'Fit to screen' })).toHaveText('150%');
    await lightbox.getByRole('img').dblclick();
    await expect(zoom.getByRole('button', { name: 'Fit to screen' })).toHaveText('100%');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await again.getByRole('link', { name: 'All tasks of this request →' }).click();
    await expect(page).toHaveURL(/\/requests\/req-/);
    await expect(page.getByRole('heading', { level: 1, name: prompt })).toBeVisible();
    const cards = page.getByRole('list', { name: 'Tasks of this request' }).getByRole('article');
    await expect(cards).toHaveCount(2);
    await expect(page.getByText('SUCCEEDED', { exact: true })).toHaveCount(2, { timeout: 20_000 });
    await expectNoAxeViolations(page);
    for (const width of SHOT_WIDTHS) {
      await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
      await saveScreenshot(page, `requests-request-page-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // The request's own actions: every result as one zip named after it, the parameters sent, a
    // re-run that says what it spends first, and its prompt back into the form.
    const requestPage = page.url();
    const zipping = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download all' }).click();
    expect((await zipping).suggestedFilename()).toBe(`${prompt}.zip`);
    const sent = page.getByRole('region', { name: 'Parameters sent' });
    await expect(sent).toContainText(`Prompt${prompt}`);
    await expect(sent).toContainText('Number of results2');
    await page.getByRole('button', { name: 'Re-run…' }).click();
    const question = page.getByRole('group', { name: 'Re-run this request' });
    await expect(question).toContainText('spends 2 tasks and 2 images');
    await question.getByRole('button', { name: 'Cancel' }).click();
    await expect(question).toHaveCount(0);
    await page.goto('/');
    await page.getByRole('textbox', { name: 'Prompt' }).fill('a draft of something else');
    await page.goto(requestPage);
    await page.getByRole('button', { name: 'Use this prompt' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('textbox', { name: 'Prompt' })).toHaveValue(prompt);
    await expect(page.getByRole('spinbutton', { name: 'Number of images' })).toHaveValue('2');

    await page.goto(`/tasks/${ids[1]}`);
    const siblings = page.getByRole('navigation', { name: 'This request' });
    await expect(siblings.getByRole('link', { name: /Image 2/ })).toHaveAttribute('aria-current', 'page');
    await siblings.getByRole('link', { name: /Image 1/ }).click();
    await expect(page).toHaveURL(`/tasks/${ids[0]}`);
    await expect(page.getByRole('button', { name: 'Copy link' })).toBeVisible();
    for (const width of SHOT_WIDTHS) {
      await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
      await saveScreenshot(page, `requests-task-page-${width}`);
    }
  });
});

test.describe('results beside the form', () => {
  test('at 1280 x 800 all four images of a request, with their actions, fit above the fold', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    const prompt = `Four harbours ${run}`;
    await page.goto('/');
    await page.getByRole('textbox', { name: 'Prompt' }).fill(prompt);
    await page.getByRole('spinbutton', { name: 'Number of images' }).fill('4');
    await page.getByRole('button', { name: 'Generate images' }).click();
    const tiles = page
      .getByRole('region', { name: '4 image tasks created' })
      .getByRole('list', { name: 'Results' })
      .getByRole('listitem');
    await expect(tiles).toHaveCount(4, { timeout: 30_000 });
    for (const [index, tile] of (await tiles.all()).entries()) {
      await expect(tile.getByRole('img', { name: `Generated image: ${prompt}` })).toBeVisible({
        timeout: 20_000,
      });
      const label = `Image ${index + 1}`;
      const actions = [
        tile.getByRole('link', { name: `Open ${label}` }),
        tile.getByRole('link', { name: `Download ${label}` }),
        tile.getByRole('button', { name: 'Use this prompt' }),
        tile.getByRole('link', { name: 'Animate' }),
      ];
      for (const action of actions) {
        await expect(action).toBeVisible();
        // Named for the pointer too (a tooltip), and a target of at least 24 x 24 px.
        await expect(action).toHaveAttribute('title', /.+/);
        const box = (await action.boundingBox())!;
        expect(Math.min(box.width, box.height)).toBeGreaterThanOrEqual(24);
      }
    }
    // From the top of the page, as it first shows: every tile, actions included, is in the first screen.
    await page.evaluate(() => window.scrollTo(0, 0));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    for (const tile of await tiles.all()) {
      const box = (await tile.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(800);
    }
  });

  test('a translation request: a player per language with a frame as poster, and Download all languages', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 1280, height: 800 });
    const name = `Town hall ${run}`;
    await page.goto('/translate');
    const languages = page.getByRole('group', { name: 'Target languages' });
    await languages.getByText('German', { exact: true }).click();
    await languages.getByText('Korean', { exact: true }).click();
    await page.getByRole('textbox', { name: 'Video URL' }).fill(`${baseURL}/emulator/samples/video.mp4`);
    await page.getByRole('textbox', { name: /Video name/ }).fill(name);
    await page.getByRole('button', { name: 'Translate video' }).click();
    const panel = page.getByRole('region', { name: '2 translation tasks created' });
    const tiles = panel.getByRole('list', { name: 'Results' }).getByRole('listitem');
    for (const language of ['German', 'Korean']) {
      const tile = tiles.filter({ has: page.getByRole('heading', { name: language }) });
      const player = tile.locator('video');
      await expect(player).toBeVisible({ timeout: 30_000 });
      // The panel's width, not a thumbnail: at least 280 x 157 px.
      const box = (await player.boundingBox())!;
      expect(box.width).toBeGreaterThanOrEqual(280);
      expect(box.height).toBeGreaterThanOrEqual(157);
      // Before it plays it shows a frame of its own (no poster from the service) and its language.
      await expect
        .poll(() =>
          player.evaluate((video: HTMLVideoElement) => video.readyState >= 2 && video.videoWidth > 0),
        )
        .toBe(true);
      await expect(player).toHaveAttribute('src', /#t=0\.1$/);
      await expect(tile.getByText(language, { exact: true })).toHaveCount(2);
    }
    const downloading = page.waitForEvent('download');
    await panel.getByRole('button', { name: 'Download all languages' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(`${name}.zip`);
    await expect(panel.getByRole('status').filter({ hasText: 'Saved' })).toHaveText(`Saved ${name}.zip.`);
  });
});

test.describe('the gallery by request', () => {
  test('a request is one card: 4 images as a grid, 2 languages with their states; By task splits them; the title opens the request', async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    const tag = `gallery${run}`;
    const prompt = `Tram in the rain ${tag}`;
    const name = `Quarterly recap ${tag}`;
    const images = await page.request.post('/v1/image_generate', { data: { prompt, generate_count: 4 } });
    const imageIds = ((await images.json()) as { data: { task_ids: string[] } }).data.task_ids;
    const translation = await page.request.post('/v1/video_translate', {
      data: {
        video_url: `${baseURL}/emulator/samples/video.mp4`,
        target_languages: ['Japanese', 'German'],
        name,
      },
    });
    expect(translation.ok()).toBe(true);
    const languageIds = ((await translation.json()) as { data: { task_id: string }[] }).data.map(
      (item) => item.task_id,
    );

    // The page's event stream is open before anyone follows the tasks: it carries what changes from then on.
    const streamOpen = page.waitForResponse((response) => response.url().endsWith('/__console/tasks/events'));
    await page.goto(`/tasks?q=${tag}`);
    await streamOpen;
    // Someone follows the tasks (the record hears their status): the cards change as it does.
    const follow = async (kind: string, id: string) =>
      expect
        .poll(
          async () => {
            const answer = await page.request.get(`/v1/${kind}/${id}`);
            return ((await answer.json()) as { data?: { status?: string } }).data?.status;
          },
          { timeout: 30_000 },
        )
        .toBe('SUCCEEDED');
    const following = Promise.all([
      ...imageIds.map((id) => follow('image_generate', id)),
      ...languageIds.map((id) => follow('video_translate', id)),
    ]);
    const byRequest = page
      .getByRole('group', { name: 'Show cards' })
      .getByRole('button', { name: 'By request' });
    await expect(byRequest).toHaveAttribute('aria-pressed', 'true');
    const gallery = page.getByRole('tabpanel');
    await expect(gallery.getByRole('article')).toHaveCount(2);
    // Four images: one card, a grid of four thumbnails; each, once finished, opens large in the
    // lightbox (e2e/keys.spec.ts walks through it).
    const imageCard = gallery.getByRole('article', { name: prompt });
    const thumbnails = imageCard.getByRole('list', { name: 'Images' }).getByRole('listitem');
    await expect(thumbnails).toHaveCount(4);
    await expect(imageCard.getByRole('button', { name: `View larger: Image 4: ${prompt}` })).toBeVisible({
      timeout: 30_000,
    });
    await expect(imageCard.getByText('All 4 succeeded')).toBeVisible();
    // Two languages: one card, each language with its state (live until both are done).
    const translationCard = gallery.getByRole('article', { name });
    const languages = translationCard.getByRole('list', { name: 'Languages' }).getByRole('listitem');
    await expect(languages).toHaveCount(2);
    await expect(languages.first()).toContainText('Japanese');
    await expect(languages.last()).toContainText('German');
    for (const language of [languages.first(), languages.last()])
      await expect(language).toContainText(/SUCCEEDED|PROCESSING|QUEUED|PENDING|RUNNING|FAILED/);
    await expect(languages.first()).toContainText('SUCCEEDED', { timeout: 30_000 });
    await expect(languages.last()).toContainText('SUCCEEDED', { timeout: 30_000 });
    await following;
    await expectNoAxeViolations(page);
    for (const width of SHOT_WIDTHS) {
      await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
      await saveScreenshot(page, `tasks-by-request-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });

    // By task: a card per task, and the link keeps the choice, as does this browser.
    await page.getByRole('button', { name: 'By task' }).click();
    await expect(page).toHaveURL(/[?&]by=task/);
    await expect(page.getByRole('button', { name: 'By task' })).toHaveAttribute('aria-pressed', 'true');
    await expect(gallery.getByRole('article')).toHaveCount(6);
    await expect(gallery.getByRole('article', { name: prompt })).toHaveCount(4);
    await expect(gallery.getByRole('article', { name: `German - ${name}` })).toBeVisible();
    await expectNoAxeViolations(page);
    for (const width of SHOT_WIDTHS) {
      await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
      await saveScreenshot(page, `tasks-by-task-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`/tasks?q=${tag}`);
    await expect(gallery.getByRole('article')).toHaveCount(6);

    // Back by request, and the request's title opens its page.
    await page.getByRole('button', { name: 'By request' }).click();
    await expect(gallery.getByRole('article')).toHaveCount(2);
    await gallery.getByRole('article', { name: prompt }).getByRole('link', { name: prompt }).click();
    await expect(page).toHaveURL(`/requests/req-${imageIds[0]}`);
    await expect(page.getByRole('heading', { level: 1, name: prompt })).toBeVisible();
    await expect(page.getByRole('list', { name: 'Tasks of this request' }).getByRole('article')).toHaveCount(
      4,
    );
  });
});
