// The shell at a phone's and a desktop's size: a phone header of at most 64 px with the navigation in
// a menu (focus managed, Escape closes), Callbacks in Support rather than the creators' navigation,
// and each form's submit button in sight at 1280×800 without scrolling.
import { axe } from './axe';
import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { expect, test } from './fixtures';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

const FORMS = [
  { path: '/', heading: 'Create image', submit: 'Generate images' },
  { path: '/translate', heading: 'Translate video', submit: 'Translate video' },
  { path: '/image-to-video', heading: 'Image to video', submit: 'Create videos' },
] as const;

const MAIN_LINKS = ['Create image', 'Translate video', 'Image to video', 'Tasks', 'Boards', 'Insights'];

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
const menuButton = (page: Page) => page.getByRole('banner').getByRole('button', { name: 'Menu' });

async function headerHeight(page: Page) {
  const box = await page.getByRole('banner').boundingBox();
  expect(box).not.toBeNull();
  return box!.height;
}

test.describe('phone, 390×844', () => {
  test.use({ viewport: PHONE });

  test('the header is at most 64 px on every screen, before and after the config arrives', async ({
    page,
  }) => {
    for (const path of ['/', '/translate', '/image-to-video', '/tasks', '/insights', '/callbacks']) {
      await page.goto(path);
      expect(await headerHeight(page), `header on ${path}`).toBeLessThanOrEqual(64);
      await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
      // The config (who is signed in, the backend) has arrived: the header kept its height.
      await expect(page.getByRole('banner')).toContainText('Built-in emulator');
      expect(await headerHeight(page), `header on ${path}`).toBeLessThanOrEqual(64);
      // The navigation waits behind the menu button.
      await expect(mainNav(page)).toBeHidden();
      await expect(menuButton(page)).toHaveAttribute('aria-expanded', 'false');
    }
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  test('the menu: focus on its first link, Escape closes it, a link goes and closes it', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Create image' })).toBeVisible();
    const button = menuButton(page);
    await button.click();
    await expect(button).toHaveAttribute('aria-expanded', 'true');
    const nav = mainNav(page);
    await expect(nav.getByRole('link')).toHaveText(MAIN_LINKS);
    await expect(nav.getByRole('link', { name: 'Create image' })).toBeFocused();
    await expect(nav.getByRole('link', { name: 'Create image' })).toHaveAttribute('aria-current', 'page');
    // Who is signed in (the local admin on this machine), the role, and the backend.
    const panel = page.locator(`#${await button.getAttribute('aria-controls')}`);
    await expect(panel).toContainText('Signed in as');
    await expect(panel.getByText('Admin', { exact: true })).toBeVisible();
    await expect(panel.getByRole('link', { name: 'People and roles' })).toBeVisible();
    await expect(panel).toContainText('Built-in emulator');
    expect(
      await axe(page)
        .include('header')
        .analyze()
        .then((r) => r.violations),
    ).toEqual([]);

    await page.keyboard.press('Escape');
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    await expect(nav).toBeHidden();
    await expect(button).toBeFocused();

    // Keyboard: Enter opens it, Tab moves through the links, Enter follows one and the menu closes.
    await page.keyboard.press('Enter');
    await expect(mainNav(page).getByRole('link', { name: 'Create image' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(mainNav(page).getByRole('link', { name: 'Translate video' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL('/translate');
    await expect(page.getByRole('heading', { level: 1, name: 'Translate video' })).toBeVisible();
    await expect(button).toHaveAttribute('aria-expanded', 'false');

    // Every link reaches its screen, marked as current.
    for (const [name, path] of [
      ['Tasks', '/tasks'],
      ['Insights', '/insights'],
      ['Image to video', '/image-to-video'],
    ] as const) {
      await button.click();
      await mainNav(page).getByRole('link', { name }).click();
      await expect(page).toHaveURL(path);
      await expect(mainNav(page)).toBeHidden();
      await button.click();
      await expect(mainNav(page).getByRole('link', { name })).toHaveAttribute('aria-current', 'page');
      await page.keyboard.press('Escape');
    }

    // A tap outside closes it.
    await button.click();
    await expect(mainNav(page)).toBeVisible();
    const panelBox = (await panel.boundingBox())!;
    expect(panelBox.y + panelBox.height).toBeLessThan(PHONE.height - 20);
    await page.mouse.click(PHONE.width / 2, PHONE.height - 10);
    await expect(mainNav(page)).toBeHidden();
  });

  test('Tasks: the controls fold behind Filters, with a count, so the first card starts in the top 300 px', async ({
    page,
    request,
  }) => {
    await request.post('/v1/image_generate', { data: { prompt: 'Phone fold: a card to find' } });
    await page.goto('/tasks');
    const firstCard = page.getByRole('article').first();
    await expect(firstCard).toBeVisible();
    expect((await firstCard.boundingBox())!.y).toBeLessThanOrEqual(300);
    // The search stays in sight; Mine, Starred, the kind, the order and the layout are folded.
    await expect(page.getByRole('searchbox', { name: 'Search tasks' })).toBeVisible();
    const mine = page.getByRole('checkbox', { name: 'Mine' });
    const kind = page.getByRole('combobox', { name: 'Kind' });
    await expect(mine).toBeHidden();
    await expect(kind).toBeHidden();
    await expect(page.getByRole('group', { name: 'Layout' })).toBeHidden();
    const filters = page.getByRole('button', { name: /^Filters/ });
    await expect(filters).toHaveAccessibleName('Filters');
    await filters.click();
    await expect(filters).toHaveAttribute('aria-expanded', 'true');
    await expect(mine).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Sort' })).toBeVisible();
    // The period and the rest load on first use: a busy machine takes its time.
    await expect(page.getByRole('group', { name: 'Period' })).toBeVisible({ timeout: 30_000 });
    await kind.selectOption('image_generate');
    await expect(page).toHaveURL(/kind=image_generate/);
    // Folded again, the button says how many of its filters are on.
    await filters.click();
    await expect(kind).toBeHidden();
    await expect(filters).toHaveAccessibleName('Filters 1 set');
  });

  test('Callbacks is in Support, not in the main navigation', async ({ page }) => {
    await page.goto('/');
    await menuButton(page).click();
    await expect(mainNav(page).getByRole('link')).toHaveText(MAIN_LINKS);
    await expect(mainNav(page).getByRole('link', { name: 'Callbacks' })).toHaveCount(0);
    const support = page.getByRole('navigation', { name: 'Support' });
    await support.getByRole('link', { name: 'Callbacks' }).click();
    await expect(page).toHaveURL('/callbacks');
    await expect(page.getByRole('heading', { level: 1, name: 'Callbacks' })).toBeVisible();
  });
});

test.describe('desktop, 1280×800', () => {
  test.use({ viewport: DESKTOP });

  test('the navigation is in the header as before; Callbacks is in Support, not in it', async ({ page }) => {
    await page.goto('/');
    await expect(mainNav(page).getByRole('link')).toHaveText(MAIN_LINKS);
    await expect(menuButton(page)).toBeHidden();
    const support = page.getByRole('navigation', { name: 'Support' });
    await expect(support.getByRole('link', { name: 'Callbacks' })).toBeVisible();
    await support.getByRole('link', { name: 'Callbacks' }).click();
    await expect(page).toHaveURL('/callbacks');
    await expect(support.getByRole('link', { name: 'Callbacks' })).toHaveAttribute('aria-current', 'page');
    await expect(mainNav(page).locator('[aria-current="page"]')).toHaveCount(0);
    // One row: the header is no taller than the phone's.
    expect(await headerHeight(page)).toBeLessThanOrEqual(64);
  });

  for (const form of FORMS) {
    test(`${form.heading}: the submit button is in sight without scrolling, and while scrolling`, async ({
      page,
    }) => {
      await page.goto(form.path);
      await expect(page.getByRole('heading', { level: 1, name: form.heading })).toBeVisible();
      const submit = page.getByRole('button', { name: form.submit, exact: true });
      await expect(submit).toBeVisible();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      const inView = async () => {
        const box = (await submit.boundingBox())!;
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height).toBeLessThanOrEqual(DESKTOP.height);
      };
      await inView();
      // The form is taller than the window (otherwise the check above says nothing about a sticky bar).
      const formHeight = (await page.locator('form').first().boundingBox())!.height;
      expect(formHeight).toBeGreaterThan(DESKTOP.height - 100);
      await page.mouse.wheel(0, 300);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      await inView();
    });
  }
});

/**
 * For a person to look at (`SHOTS=/tmp/shots-shell`): every form and Tasks, light and dark, at both
 * sizes, and the phone's menu open.
 */
test('screenshots of the header and forms', async ({ page }) => {
  const folder = process.env.SHOTS;
  test.skip(!folder, 'set SHOTS to a folder to take them');
  test.slow();
  mkdirSync(folder!, { recursive: true });
  for (const theme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const size of [DESKTOP, PHONE]) {
      await page.setViewportSize(size);
      for (const [name, path] of [
        ['create-image', '/'],
        ['translate', '/translate'],
        ['image-to-video', '/image-to-video'],
        ['tasks', '/tasks'],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
        await expect(page.getByRole('banner')).toContainText('Built-in emulator');
        await page.screenshot({ path: `${folder}/${name}-${size.width}-${theme}.png` });
      }
      if (size === PHONE) {
        await menuButton(page).click();
        await page.screenshot({ path: `${folder}/menu-${size.width}-${theme}.png` });
      }
    }
  }
});
