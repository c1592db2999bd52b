// Accessibility: an axe scan of every screen in light and dark, at desktop and phone width (two of
// the four pairings in `npm test`), each control at least 24 x 24 px at the phone width, the keyboard
// shortcuts (help dialog with `?`, "g then letter" to change screen), and a keyboard-only pass through Create
// image to a task's page.
import { axe, describeViolations, expectNoAxeViolations } from './axe';
import type { APIRequestContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { TAKE_SCREENSHOTS } from './screenshots';

interface ScannedRoute {
  /** The route as the test names it (`/tasks/<id>` for a seeded task). */
  name: string;
  path: (taskIds: string[]) => string;
  /** Waits until the screen shows its real content, not a loading state. */
  ready?: (page: Page, taskIds: string[]) => Promise<void>;
}

const ROUTES: ScannedRoute[] = [
  {
    name: '/',
    path: () => '/',
    ready: (page) => expect(page.getByRole('textbox', { name: 'Prompt' })).toBeVisible(),
  },
  {
    name: '/translate',
    path: () => '/translate',
    ready: (page) => expect(page.getByLabel('Video URL')).toBeVisible(),
  },
  {
    name: '/image-to-video',
    path: () => '/image-to-video',
    ready: (page) => expect(page.getByRole('radiogroup', { name: 'Mode', exact: true })).toBeVisible(),
  },
  {
    name: '/tasks',
    path: () => '/tasks',
    // The team's list holds every spec's tasks; the seeded ones are the newest.
    ready: (page, ids) => expect(page.getByRole('article').filter({ hasText: ids[0] })).toBeVisible(),
  },
  {
    name: '/callbacks',
    path: () => '/callbacks',
    ready: (page, ids) =>
      expect(
        page
          .getByRole('list', { name: 'Callbacks, newest first' })
          .getByRole('link', { name: ids[1] })
          .first(),
      ).toBeVisible(),
  },
  {
    // The first seeded task succeeds: the page shows its image, fields, raw JSON and actions.
    name: '/tasks/<id>',
    path: (ids) => `/tasks/${ids[0]}`,
    ready: async (page, ids) => {
      await expect(page.getByText(ids[0]!, { exact: true }).first()).toBeVisible();
      await expect(page.getByText('SUCCEEDED', { exact: true }).first()).toBeVisible({ timeout: 15_000 });
      await expect(page.getByRole('link', { name: /Download image/ }).first()).toBeVisible();
    },
  },
  {
    // The second one failed (emulator:fail and a FAILED callback): the page leads with the error.
    name: '/tasks/<failed id>',
    path: (ids) => `/tasks/${ids[1]}`,
    ready: async (page, ids) => {
      await expect(page.getByText(ids[1]!, { exact: true }).first()).toBeVisible();
      await expect(page.getByRole('alert').filter({ hasText: 'The task failed' })).toBeVisible({
        timeout: 15_000,
      });
    },
  },
  {
    // The first of a request of two: "← All tasks", "1 of 2 in its request", the request's links.
    name: '/tasks/<id of a request of two>',
    path: (ids) => `/tasks/${ids[3]}`,
    ready: (page) => expect(page.getByRole('navigation', { name: 'This request' })).toBeVisible(),
  },
  {
    // A card per task: a task of a request of two links to it ("1 of 2 in its request").
    name: '/tasks?by=task',
    path: () => '/tasks?by=task',
    ready: (page) => expect(page.getByRole('link', { name: /of 2 in its request/ }).first()).toBeVisible(),
  },
  {
    name: '/nope',
    path: () => '/nope',
    ready: (page) => expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible(),
  },
];
const THEMES = ['light', 'dark'] as const;

/**
 * Every control a finger can tap that is smaller than 24 x 24 px (WCAG 2.2 target size, 2.5.8),
 * described. A checkbox or radio counts by its label when the label is the target; a link inside a
 * sentence is the rule's own exception; controls not drawn (hidden, screen-reader only) do not count.
 */
function smallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const MIN = 24;
    const selector =
      'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="tab"], [role="link"]';
    const small: string[] = [];
    for (const element of document.querySelectorAll<HTMLElement>(selector)) {
      if (element.closest('[inert], [aria-hidden="true"]')) continue;
      const style = getComputedStyle(element);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      // A control drawn by its label (a visually hidden radio) is tapped there; either box will do.
      const label = element instanceof HTMLInputElement ? element.labels?.[0] : undefined;
      const boxes = [element.getBoundingClientRect(), label?.getBoundingClientRect()].filter(
        (box) => box && box.width > 1 && box.height > 1,
      );
      if (!boxes.length) continue;
      const parent = element.parentElement;
      const inSentence =
        element.tagName === 'A' &&
        style.display === 'inline' &&
        parent?.tagName === 'P' &&
        parent.textContent!.trim() !== element.textContent!.trim();
      if (inSentence || boxes.some((box) => box!.width >= MIN && box!.height >= MIN)) continue;
      const box = boxes[0]!;
      const name = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().slice(0, 40);
      small.push(
        `${element.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`,
      );
    }
    return small;
  });
}
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];

/** Tasks in every state and a few callbacks, so the scans see cards, badges and logs, not empty states. */
async function seedContent(page: Page, request: APIRequestContext): Promise<string[]> {
  const prompts = [
    'a11y scan: lighthouse at dusk',
    'a11y scan emulator:fail',
    'a11y scan emulator:status=GENERATING',
  ];
  const ids: string[] = [];
  for (const prompt of prompts) {
    const res = await request.post('/v1/image_generate', { data: { prompt } });
    const body = (await res.json()) as { data: { task_ids: string[] } };
    ids.push(...body.data.task_ids);
  }
  // The browser's door to the inbox (the secret address is the service's alone).
  await request.post('/__console/callbacks', {
    data: {
      code: 0,
      msg: 'ok',
      task_type: 'image_generate',
      data: { task_id: ids[1], status: 'FAILED', image_url: '', error_message: 'Content policy' },
    },
  });
  // A request of two images: its task page links to its request and its sibling.
  const pair = await request.post('/v1/image_generate', {
    data: { prompt: 'a11y scan: two harbours', generate_count: 2 },
  });
  ids.push(...((await pair.json()) as { data: { task_ids: string[] } }).data.task_ids);
  await page.goto('/');
  // Same layout as idb-keyval's createStore('media-console', 'tasks'): one record per key.
  await page.evaluate(async (taskIds) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('media-console');
      open.onupgradeneeded = () => open.result.createObjectStore('tasks');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    const tx = db.transaction('tasks', 'readwrite');
    const now = Date.now();
    taskIds.forEach((id, i) => {
      const createdAt = now - i * 1000;
      tx.objectStore('tasks').put(
        {
          id,
          kind: 'image_generate',
          source: 'created',
          params: { prompt: `a11y task ${i}` },
          createdAt,
          updatedAt: createdAt,
          status: '',
        },
        id,
      );
    });
    await new Promise((resolve) => (tx.oncomplete = resolve));
    db.close();
  }, ids);
  return ids;
}

async function openWithTheme(page: Page, path: string, theme: (typeof THEMES)[number]) {
  await page.addInitScript((value) => localStorage.setItem('media-console:theme', value), theme);
  await page.goto(path);
  await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
}

/**
 * `npm test` scans every screen twice, light at 1280 px and dark at 390 px: each theme and each width
 * once (a pass is 40-47 s on two busy cores). `npm run screenshots` adds the other two pairings.
 */
const IN_NPM_TEST = new Set(['light desktop', 'dark phone']);

// One test per theme and width: the tasks are seeded once and every route is scanned in the same
// page (a fresh page per route spent most of its time starting up, not scanning). Each route's
// violations are a soft assertion of their own, so one failing route still reports the others.
for (const viewport of WIDTHS) {
  for (const theme of THEMES) {
    const inNpmTest = IN_NPM_TEST.has(`${theme} ${viewport.name}`);
    if (!inNpmTest && !TAKE_SCREENSHOTS) continue;
    test.describe(`axe, ${theme}, ${viewport.name} (${viewport.width}px)`, () => {
      test.use({ viewport: { width: viewport.width, height: viewport.height } });
      test(
        'no violations on any screen',
        inNpmTest ? {} : { tag: '@screenshots' },
        async ({ page, request }) => {
          test.slow(); // eight screens, each loaded and scanned
          const ids = await seedContent(page, request);
          for (const route of ROUTES) {
            await test.step(route.name, async () => {
              await openWithTheme(page, route.path(ids), theme);
              await route.ready?.(page, ids);
              const results = await axe(page).analyze();
              expect.soft(describeViolations(results.violations), `axe on ${route.name}`).toEqual([]);
              // A phone is tapped: every target at least 24 x 24 px.
              if (viewport.name === 'phone')
                expect.soft(await smallTargets(page), `targets under 24 px on ${route.name}`).toEqual([]);
            });
          }
        },
      );
      if (theme === 'dark' && viewport.name === 'phone') {
        test('no violations with the shortcuts dialog open (?)', async ({ page }) => {
          await openWithTheme(page, '/', theme);
          await page.locator('body').press('?');
          const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
          await expect(dialog).toBeVisible();
          await expect(dialog.getByText('Submit the form')).toBeVisible();
          // The whole page, as it is with the modal open (the dialog in the top layer, the rest inert).
          await expectNoAxeViolations(page);
          // The dialog fits the phone's width: nothing in it scrolls sideways.
          const overflow = await dialog.evaluate((el) => el.scrollWidth - el.clientWidth);
          expect(overflow).toBeLessThanOrEqual(0);
        });
      }
    });
  }
}

test.describe('keyboard', () => {
  test('? opens the shortcuts dialog, Esc closes it, g k goes to Tasks', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.locator('body').press('?');
    const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await expect(dialog).toBeVisible();
    await expectNoAxeViolations(page, { include: 'dialog' });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await page.keyboard.press('g');
    await page.keyboard.press('k');
    await expect(page).toHaveURL(/\/tasks$/);
  });

  test('the skip link is the first Tab stop and shows its focus', async ({ page }) => {
    await page.goto('/tasks');
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeVisible();
    const outline = await skip.evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).not.toBe('none');
  });

  test('keyboard only: Create image from the skip link to a task page, no mouse', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Create image' })).toBeVisible();
    const prompt = page.getByRole('textbox', { name: 'Prompt' });
    await expect(prompt).toBeVisible(); // the form chunk has loaded

    // From the page start: the skip link, then straight into the form.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await expect(prompt).toBeFocused();
    await page.keyboard.type('A lighthouse at dawn, typed without a mouse');

    // Through the form: each control is one Tab stop, radios change with the arrow keys.
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Add reference image' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Upload images' })).toBeFocused();
    await page.keyboard.press('Tab');
    const mode = page.getByRole('radiogroup', { name: 'Mode' });
    await expect(mode.getByRole('radio', { name: 'Standard' })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(mode.getByRole('radio', { name: 'Professional' })).toBeFocused();
    await expect(mode.getByRole('radio', { name: 'Professional' })).toBeChecked();
    await page.keyboard.press('Tab');
    const count = page.getByRole('spinbutton', { name: 'Number of images' });
    await expect(count).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await expect(count).toHaveValue('2');
    await page.keyboard.press('Tab');
    const quality = page.getByRole('radiogroup', { name: 'Quality' });
    await expect(quality.getByRole('radio', { name: '2K' })).toBeFocused();
    await page.keyboard.press('Tab');
    const ratio = page.getByRole('radiogroup', { name: 'Aspect ratio' });
    await expect(ratio.getByRole('radio', { name: '9:16' })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    const chosenRatio = ratio.getByRole('radio', { checked: true });
    await expect(chosenRatio).toBeFocused();
    await expect(chosenRatio).not.toHaveAccessibleName('9:16');

    // Ctrl+Enter submits from wherever focus is inside the form.
    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/v1/image_generate'), {
      timeout: 10_000,
    });
    await page.keyboard.press('Control+Enter');
    expect((await sent).postDataJSON()).toMatchObject({
      prompt: 'A lighthouse at dawn, typed without a mouse',
      module: 'pro',
      generate_count: 2,
      image_quality: '2K',
    });
    const panel = page.getByRole('region', { name: '2 image tasks created' });
    await expect(panel).toBeVisible();
    const links = panel.getByRole('link', { name: /^i2is-/ });
    await expect(links).toHaveCount(2);
    const id = (await links.first().textContent())!;
    await expect(panel.getByRole('heading', { name: '2 image tasks created' })).toBeFocused();

    // The result has focus. Once both tasks' images have arrived, the next Tab is the first task's
    // image, then its link, and Enter opens it. (Waiting for one image is not enough: the second task
    // can finish first, and then the first tile still has no image to Tab to.)
    await expect(panel.getByRole('button', { name: /^View larger/ })).toHaveCount(2, { timeout: 15_000 });
    await expect(panel.getByRole('heading', { name: '2 image tasks created' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(panel.getByRole('button', { name: /^View larger/ }).first()).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(links.first()).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(`/tasks/${id}`);
    await expect(page.getByText(id, { exact: true }).first()).toBeVisible();
    await expect(page.getByText('SUCCEEDED', { exact: true }).first()).toBeVisible({ timeout: 15_000 });
  });
});
