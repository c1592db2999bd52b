// Accessibility: an axe scan of every screen in light and dark, at desktop and phone width, and the
// keyboard shortcuts (help dialog with `?`, "g then letter" to change screen).
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';

const ROUTES = [
  { path: '/', heading: /create/i },
  { path: '/translate', heading: /translat/i },
  { path: '/tasks', heading: /tasks/i },
  { path: '/callbacks', heading: /callback/i },
];
const THEMES = ['light', 'dark'] as const;
const WIDTHS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];

/** Tasks in every state and a few callbacks, so the scans see cards, badges and logs, not empty states. */
async function seedContent(page: Page, request: APIRequestContext) {
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
  const info = (await (await request.get('/__console/config')).json()) as { callbackInboxPath: string };
  await request.post(info.callbackInboxPath, {
    data: {
      code: 0,
      msg: 'ok',
      task_type: 'image_generate',
      data: { task_id: ids[1], status: 'FAILED', image_url: '', error_message: 'Content policy' },
    },
  });
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
}

async function openWithTheme(page: Page, path: string, theme: (typeof THEMES)[number]) {
  await page.addInitScript((value) => localStorage.setItem('media-console:theme', value), theme);
  await page.goto(path);
  await expect(page.locator('html')).toHaveClass(theme === 'dark' ? /\bdark\b/ : /^(?!.*\bdark\b)/);
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
  // Let lazy screens and their first queries settle so the scan sees the real screen.
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
}

function describeViolations(violations: Awaited<ReturnType<AxeBuilder['analyze']>>['violations']) {
  return violations.map(
    (v) => `${v.id} (${v.impact}): ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).join('\n    ')}`,
  );
}

for (const viewport of WIDTHS) {
  for (const theme of THEMES) {
    test.describe(`axe, ${theme}, ${viewport.name} (${viewport.width}px)`, () => {
      test.use({ viewport: { width: viewport.width, height: viewport.height } });
      for (const route of ROUTES) {
        test(`no violations on ${route.path}`, async ({ page, request }) => {
          if (route.path === '/tasks' || route.path === '/callbacks') await seedContent(page, request);
          await openWithTheme(page, route.path, theme);
          if (route.path === '/tasks') await expect(page.getByText('a11y task 0').first()).toBeVisible();
          const results = await new AxeBuilder({ page }).analyze();
          expect(describeViolations(results.violations)).toEqual([]);
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
    const results = await new AxeBuilder({ page }).include('dialog').analyze();
    expect(describeViolations(results.violations)).toEqual([]);
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
});
