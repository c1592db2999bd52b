// Bench section: the task gallery with 10,000 tasks in Debian's Chromium, on the production build
// (dist/ served by the production server with the built-in emulator). IndexedDB is seeded directly,
// then /tasks is loaded: first card time, DOM size, a scroll to the end and back, the JS heap after
// it, and the time a search takes to narrow 10,000 tasks to one.
// Usage: npx tsx scripts/bench-gallery.ts [distDir]   (after `npm run build`)
import type { Browser } from '@playwright/test';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { startBenchHarness } from './bench-harness';
import { printRows, type BenchRow } from './bench-size';
import { seedHistoryInPage } from './bench-gallery-seed';

export interface GalleryBenchOptions {
  distDir?: string;
  count?: number;
}

declare global {
  interface Window {
    __firstCardAt?: number;
  }
}

/** A fresh browser context with `count` tasks in its history, showing /tasks. */
async function openGallery(browser: Browser, origin: string, count: number) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  // tsx (esbuild keepNames) wraps functions in __name(); functions sent to the page need it too.
  await page.addInitScript({ content: 'window.__name = (f) => f;' });
  // Seed from a same-origin page that is not the app, so nothing reads the store meanwhile.
  await page.goto(`${origin}/emulator/health`);
  await page.evaluate(seedHistoryInPage, { count, origin });
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.querySelector('[role="listitem"] article')) {
        window.__firstCardAt = performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  // Median of several loads (the first one also fills the HTTP cache, as a returning user has it).
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    await page.goto(`${origin}/tasks`);
    await page.waitForFunction(() => window.__firstCardAt !== undefined, undefined, { timeout: 30_000 });
    times.push(await page.evaluate(() => window.__firstCardAt!));
  }
  const firstCard = times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
  await page.waitForTimeout(500);
  return { page, firstCard };
}

const RUNS = Math.max(1, Number(process.env.GALLERY_RUNS ?? 3));

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function benchGallery({ distDir = 'dist', count = 10_000 }: GalleryBenchOptions = {}): Promise<
  BenchRow[]
> {
  const harness = await startBenchHarness(distDir, 'gallery');
  const { origin, browser } = harness;
  try {
    const baseline = await openGallery(browser, origin, 100);
    const baselineMs = baseline.firstCard;
    await baseline.page.context().close();
    const { page, firstCard } = await openGallery(browser, origin, count);
    const shown = await page.getByRole('tab', { name: /^All/ }).textContent();
    const nodes = await page.evaluate(() => document.getElementsByTagName('*').length);
    const cards = await page.locator('article').count();

    // A fast flick (40 px per frame for 300 frames), then jumps through the whole list and back.
    const scroll = await page.evaluate(async () => {
      const frame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
      const intervals: number[] = [];
      let maxNodes = 0;
      let last = await frame();
      for (let i = 0; i < 300; i++) {
        if (i % 100 === 0) {
          scrollTo(0, 0);
          last = await frame();
        }
        scrollBy(0, 40);
        const now = await frame();
        intervals.push(now - last);
        last = now;
        if (i % 10 === 0) maxNodes = Math.max(maxNodes, document.getElementsByTagName('*').length);
      }
      intervals.sort((a, b) => a - b);
      const height = document.documentElement.scrollHeight;
      const jumps = 50;
      const started = performance.now();
      for (let i = 1; i <= jumps; i++) {
        scrollTo(0, (height * i) / jumps);
        await frame();
        await frame();
        maxNodes = Math.max(maxNodes, document.getElementsByTagName('*').length);
      }
      const atEnd = document.querySelectorAll('article').length > 0;
      const jumpMs = (performance.now() - started) / jumps;
      scrollTo(0, 0);
      await frame();
      return {
        p95: intervals[Math.floor(intervals.length * 0.95)] ?? 0,
        slow: intervals.filter((v) => v > 50).length,
        maxNodes,
        jumpMs,
        atEnd,
        height,
      };
    });
    const reachedEnd = scroll.atEnd && scroll.height > 100_000;

    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    await cdp.send('HeapProfiler.collectGarbage');
    const { metrics } = await cdp.send('Performance.getMetrics');
    const heap = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;

    const searchStarted = Date.now();
    await page
      .getByRole('searchbox', { name: 'Search tasks' })
      .fill(`bench-${String(count - 1).padStart(5, '0')}`);
    await page.locator('article').first().waitFor();
    await page.waitForFunction(() => document.querySelectorAll('article').length === 1, undefined, {
      timeout: 10_000,
    });
    const searchMs = Date.now() - searchStarted;

    return [
      {
        figure: `Gallery tasks loaded (All tab)`,
        value: (shown ?? '').replace(/\D/g, ''),
        target: String(count),
        ok: (shown ?? '').replace(/\D/g, '') === String(count),
      },
      {
        figure: 'Machine load average (2 cores shared; figures vary with it)',
        value: loadavg()[0]!.toFixed(1),
        target: 'report',
        ok: true,
      },
      {
        figure: `First card rendered, from navigation start (median of ${RUNS})`,
        value: `${Math.round(firstCard)} ms`,
        target: '≤ 1000 ms',
        ok: firstCard <= 1000,
      },
      {
        figure: 'Same with 100 tasks (app start-up alone)',
        value: `${Math.round(baselineMs)} ms`,
        target: 'report',
        ok: true,
      },
      {
        figure: 'DOM elements after first render',
        value: String(nodes),
        target: '≤ 1500',
        ok: nodes <= 1500,
      },
      { figure: 'Cards mounted (virtualized)', value: String(cards), target: '≤ 30', ok: cards <= 30 },
      {
        figure: 'Frame time while flick-scrolling, p95',
        value: `${Math.round(scroll.p95)} ms`,
        target: '≤ 34 ms',
        ok: scroll.p95 <= 34,
      },
      { figure: 'Frames over 50 ms in 300', value: String(scroll.slow), target: '≤ 5', ok: scroll.slow <= 5 },
      {
        figure: `Jump anywhere in the list (${Math.round(scroll.height / 1000)}k px), per jump`,
        value: `${Math.round(scroll.jumpMs)} ms`,
        target: '≤ 100 ms',
        ok: reachedEnd && scroll.jumpMs <= 100,
      },
      {
        figure: 'Most DOM elements while scrolling',
        value: String(scroll.maxNodes),
        target: '≤ 1500',
        ok: scroll.maxNodes <= 1500,
      },
      {
        figure: 'JS heap after scrolling (after GC)',
        value: mb(heap),
        target: '≤ 60 MB',
        ok: heap <= 60 * 1024 * 1024,
      },
      {
        figure: `Search narrows ${count.toLocaleString('en')} tasks to 1`,
        value: `${searchMs} ms`,
        target: '≤ 500 ms',
        ok: searchMs <= 500,
      },
    ];
  } finally {
    await harness.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printRows(
    'Task gallery with 10,000 tasks (production build, Debian Chromium)',
    await benchGallery({ distDir: process.argv[2] }),
  );
  process.exit(0);
}
