// The shell in real Chromium on the built-in emulator: it loads, says which backend it uses,
// every navigation link reaches its screen (Callbacks from Support), unknown routes are handled and the theme switches.
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

const ROUTES = [
  { nav: 'Main', link: 'Translate video', path: '/translate' },
  { nav: 'Main', link: 'Image to video', path: '/image-to-video' },
  { nav: 'Main', link: 'Tasks', path: '/tasks' },
  { nav: 'Main', link: 'Insights', path: '/insights' },
  // Support's place, apart from the creators' navigation (shown to the local admin).
  { nav: 'Support', link: 'Callbacks', path: '/callbacks' },
  { nav: 'Main', link: 'Create image', path: '/' },
] as const;

/** Uncaught page errors fail the test that collected them. */
function collectPageErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const navNamed = (page: Page, name: string) => page.getByRole('navigation', { name });

test('loads on the built-in emulator', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto('/');
  await expect(page).toHaveTitle('Media Console');
  await expect(page.getByRole('banner')).toContainText('Built-in emulator');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  // No token banner on the emulator.
  await expect(page.getByText('API_TOKEN is not set')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('the navigation links reach each route and mark the current one', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto('/');
  for (const { nav, link, path } of ROUTES) {
    const navLink = navNamed(page, nav).getByRole('link', { name: link, exact: true });
    await navLink.click();
    await expect(page).toHaveURL(path);
    await expect(navLink).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('banner').locator('[aria-current="page"]:visible')).toHaveCount(1);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('alert').filter({ hasText: 'ran into a problem' })).toHaveCount(0);
  }
  expect(errors).toEqual([]);
});

test('each route also loads directly (deep link)', async ({ page }) => {
  for (const { nav, link, path } of ROUTES) {
    await page.goto(path);
    await expect(navNamed(page, nav).getByRole('link', { name: link, exact: true })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
});

test('an unknown route shows "Page not found" with a way back', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(mainNav(page).locator('[aria-current="page"]')).toHaveCount(0);
  await page.getByRole('link', { name: 'Go to Create image' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { name: 'Page not found' })).toHaveCount(0);
});

test('the theme toggle switches to dark and the choice survives a reload', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/');
  const html = page.locator('html');
  await expect(html).not.toHaveClass(/\bdark\b/);
  const toggle = page.getByRole('button', { name: /change theme/i });
  // system → light → dark
  await toggle.click();
  await expect(toggle).toHaveAccessibleName(/light theme/i);
  await expect(html).not.toHaveClass(/\bdark\b/);
  await toggle.click();
  await expect(toggle).toHaveAccessibleName(/dark theme/i);
  await expect(html).toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(html).toHaveClass(/\bdark\b/);
  // dark → system, which follows the (light) system preference again
  await page.getByRole('button', { name: /change theme/i }).click();
  await expect(html).not.toHaveClass(/\bdark\b/);
});

test('follows a dark system preference', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto('/');
  await expect(page.locator('html')).toHaveClass(/\bdark\b/);
});

test('works at 390 px wide: header, backend and every link reachable', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const menu = page.getByRole('banner').getByRole('button', { name: 'Menu' });
  await menu.click();
  await expect(page.getByRole('banner')).toContainText('Built-in emulator');
  for (const { nav, link } of ROUTES) {
    const navLink = navNamed(page, nav).getByRole('link', { name: link, exact: true });
    await navLink.scrollIntoViewIfNeeded();
    await expect(navLink).toBeVisible();
  }
  await expect(mainNav(page).getByRole('link', { name: 'Callbacks' })).toHaveCount(0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});
