// Screenshots are for a person to open and judge, not assertions: `npm run screenshots` takes them
// (SCREENSHOTS=1, both widths, PNGs in screenshots/); `npm test` runs the same checks at the phone
// width, where layouts are tightest, and saves nothing.
import type { Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';

export const TAKE_SCREENSHOTS = Boolean(process.env.SCREENSHOTS);

/** Desktop and phone for `npm run screenshots`; the phone alone in `npm test`. */
export const SHOT_WIDTHS: readonly number[] = TAKE_SCREENSHOTS ? [1280, 390] : [390];

const FOLDER = 'screenshots';

/** A full-page shot from the top (so the sticky header sits where a visitor sees it), when asked for. */
export async function saveScreenshot(page: Page, name: string) {
  if (!TAKE_SCREENSHOTS) return;
  mkdirSync(FOLDER, { recursive: true });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${FOLDER}/${name}.png`, fullPage: true });
}
