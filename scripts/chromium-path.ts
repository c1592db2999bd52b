import { existsSync } from 'node:fs';

/**
 * The Chromium that the tests and the page benchmarks drive. `CHROMIUM_PATH` when set; else Debian's
 * headless shell (`apt-get install chromium-headless-shell`), the same engine without the full browser's
 * windowing, GPU process and extras, which Playwright itself picks for headless runs and which costs
 * about a third less CPU per test here; else Debian's `chromium`; else Playwright's own download.
 */
export function chromiumPath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path));
}
