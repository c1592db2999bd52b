// Two tabs of one browser: one polls, the other learns every answer through the history store's
// BroadcastChannel; when the polling tab closes or goes to the background, the other takes over.
import type { BrowserContext, Page } from '@playwright/test';
import { expect, test } from './fixtures';

const statusRequests = (page: Page, counts: Map<Page, number>) => {
  counts.set(page, 0);
  page.on('request', (request) => {
    if (request.method() === 'GET' && /\/v1\/image_generate\/i2is-/.test(request.url()))
      counts.set(page, (counts.get(page) ?? 0) + 1);
  });
};

test('one tab polls, the other shows its answers live, and takes over when it closes', async ({
  context,
}) => {
  test.setTimeout(60_000);
  const counts = new Map<Page, number>();
  const first = await context.newPage();
  const second = await context.newPage();
  statusRequests(first, counts);
  statusRequests(second, counts);
  await first.goto('/tasks');
  await second.goto('/tasks');

  // A task that stays running (the emulator's magic word), created in the first tab.
  await first.goto('/');
  await first.getByRole('textbox', { name: 'Prompt' }).fill('Two tabs emulator:status=RENDERING');
  await first.getByRole('button', { name: 'Generate images' }).click();
  const link = first
    .getByRole('region', { name: '1 image task created' })
    .getByRole('link', { name: /^i2is-/ });
  const id = (await link.textContent())!.trim();

  // The second tab was open all along: the task and its status reach it through the broadcast.
  const card = second.getByRole('article').filter({ hasText: id });
  await expect(card).toBeVisible();
  await expect(card).toContainText('RENDERING');

  await second.waitForTimeout(6_000);
  const [a, b] = [counts.get(first)!, counts.get(second)!];
  expect(a + b).toBeGreaterThan(0);
  expect(Math.min(a, b)).toBe(0); // exactly one tab asked
  const [poller, other] = a > 0 ? [first, second] : [second, first];

  await poller.close();
  const before = counts.get(other)!;
  await expect.poll(() => counts.get(other)! - before, { timeout: 20_000 }).toBeGreaterThan(0);
});

/** What the browser does when a tab goes to the background or comes back (headless pages all stay visible). */
async function setHidden(page: Page, hidden: boolean) {
  await page.evaluate((hidden) => {
    const state = hidden ? 'hidden' : 'visible';
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => hidden });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  }, hidden);
}
const hide = (page: Page) => setHidden(page, true);

/** Two tabs with a running task; resolves to [the tab that polls, the other]. */
async function twoTabsWithARunningTask(
  context: BrowserContext,
  counts: Map<Page, number>,
): Promise<[Page, Page]> {
  const first = await context.newPage();
  const second = await context.newPage();
  statusRequests(first, counts);
  statusRequests(second, counts);
  await first.goto('/');
  await first.getByRole('textbox', { name: 'Prompt' }).fill('Leader emulator:status=RENDERING');
  await first.getByRole('button', { name: 'Generate images' }).click();
  await expect(first.getByRole('region', { name: '1 image task created' })).toBeVisible();
  await second.goto('/tasks');
  await expect.poll(() => counts.get(first)! + counts.get(second)!, { timeout: 15_000 }).toBeGreaterThan(0);
  await second.waitForTimeout(3_000);
  const [a, b] = [counts.get(first)!, counts.get(second)!];
  expect(Math.min(a, b)).toBe(0);
  return a > 0 ? [first, second] : [second, first];
}

test('when the polling tab goes to the background, a tab still in view takes over', async ({ context }) => {
  test.setTimeout(60_000);
  const counts = new Map<Page, number>();
  const [poller, other] = await twoTabsWithARunningTask(context, counts);
  // Hidden without notifications, the poller pauses; the tab in view must not be left with stale states.
  await hide(poller);
  const before = counts.get(other)!;
  await expect.poll(() => counts.get(other)! - before, { timeout: 15_000 }).toBeGreaterThan(0);
});

test('a tab coming to the front takes polling over from a hidden tab that polls for notifications', async ({
  context,
}) => {
  test.setTimeout(60_000);
  await context.addInitScript(() => localStorage.setItem('media-console:notify-finished', '1'));
  const counts = new Map<Page, number>();
  const [poller, other] = await twoTabsWithARunningTask(context, counts);
  // Polling for notifications, the hidden tab keeps the lock (every 30 s)...
  await hide(poller);
  const before = counts.get(other)!;
  await other.waitForTimeout(3_000);
  expect(counts.get(other)).toBe(before);
  // ...until a tab comes to the front: from then on it polls at the normal pace.
  await setHidden(other, true);
  await setHidden(other, false);
  await expect.poll(() => counts.get(other)! - before, { timeout: 10_000 }).toBeGreaterThan(0);
});
