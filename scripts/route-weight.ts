// What a person's browser really fetches to show each screen: the production build is served on
// 127.0.0.1 (built-in emulator), each route is opened in a fresh Chromium context (empty cache,
// empty storage, like a first visit), and every JavaScript and CSS file requested until the
// network has been idle for a second is counted at its gzip size. Unlike a look at index.html,
// this counts the chunks a screen imports at mount and anything loaded right after.
import type { Browser, Request } from '@playwright/test';
import { gzipSync } from 'node:zlib';

/** 1 KB = 1000 bytes, as Vite reports sizes (the stricter reading of the budget). */
export const KB = 1000;
export const ROUTE_BUDGETS = { js: 100 * KB, css: 12 * KB };

/**
 * Every screen a person can land on. `route-weight.test.ts` checks that each navigation entry is
 * here, so a new screen cannot escape the budget.
 */
export const MEASURED_ROUTES = [
  '/',
  '/translate',
  '/image-to-video',
  '/tasks',
  '/tasks/i2is-route-weight-unknown',
  '/callbacks',
  '/no-such-page',
] as const;

/** How long the network must stay quiet before a route counts as loaded. */
const IDLE_MS = 1_000;
const ROUTE_TIMEOUT_MS = 20_000;

export interface FetchedFile {
  url: string;
  type: 'js' | 'css';
  gzip: number;
}

export interface RouteWeight {
  route: string;
  files: FetchedFile[];
  jsGzip: number;
  cssGzip: number;
}

export function gzipSize(body: Uint8Array): number {
  return gzipSync(body).length;
}

export function assetType(url: string, resourceType: string): 'js' | 'css' | undefined {
  const path = new URL(url).pathname;
  if (resourceType === 'script' || /\.m?js$/.test(path)) return 'js';
  if (resourceType === 'stylesheet' || /\.css$/.test(path)) return 'css';
  return undefined;
}

/** Sums a route's files; a file fetched twice (a retry, a preload and its use) counts once. */
export function summarise(route: string, files: FetchedFile[]): RouteWeight {
  const unique = [...new Map(files.map((file) => [file.url, file])).values()];
  const total = (type: FetchedFile['type']) =>
    unique.filter((file) => file.type === type).reduce((sum, file) => sum + file.gzip, 0);
  return { route, files: unique, jsGzip: total('js'), cssGzip: total('css') };
}

/**
 * Long-lived requests (the callback event stream) never finish, and they carry no code: they
 * do not hold the page "busy".
 */
function holdsNetworkBusy(request: Request): boolean {
  return request.resourceType() !== 'eventsource';
}

export async function measureRoute(browser: Browser, origin: string, route: string): Promise<RouteWeight> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const pending = new Set<Request>();
  const reads: Promise<FetchedFile | undefined>[] = [];
  let lastActivity = Date.now();
  page.on('request', (request) => {
    lastActivity = Date.now();
    if (holdsNetworkBusy(request)) pending.add(request);
  });
  const settle = (request: Request) => {
    lastActivity = Date.now();
    pending.delete(request);
  };
  page.on('requestfailed', settle);
  page.on('requestfinished', (request) => {
    settle(request);
    const type = assetType(request.url(), request.resourceType());
    if (!type) return;
    reads.push(
      request
        .response()
        .then((response) => response?.body())
        .then((body) => (body ? { url: request.url(), type, gzip: gzipSize(body) } : undefined)),
    );
  });
  try {
    await page.goto(`${origin}${route}`, { waitUntil: 'load', timeout: ROUTE_TIMEOUT_MS });
    const deadline = Date.now() + ROUTE_TIMEOUT_MS;
    while (pending.size > 0 || Date.now() - lastActivity < IDLE_MS) {
      if (Date.now() > deadline) throw new Error(`${route}: the network never went idle`);
      await page.waitForTimeout(100);
    }
    const files = (await Promise.all(reads)).filter((file): file is FetchedFile => Boolean(file));
    return summarise(route, files);
  } finally {
    await context.close();
  }
}

export async function measureRoutes(
  browser: Browser,
  origin: string,
  routes: readonly string[] = MEASURED_ROUTES,
): Promise<RouteWeight[]> {
  const results: RouteWeight[] = [];
  // One at a time: parallel pages would compete for two cores and the idle clock.
  for (const route of routes) results.push(await measureRoute(browser, origin, route));
  return results;
}

export function formatKb(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} KB`;
}

/** Report lines and the verdict: every route's JS and CSS within budget. */
export function checkRouteBudgets(weights: RouteWeight[], budgets = ROUTE_BUDGETS) {
  const lines: string[] = [];
  let ok = weights.length > 0;
  for (const weight of weights) {
    const within = weight.jsGzip <= budgets.js && weight.cssGzip <= budgets.css;
    ok &&= within;
    lines.push(
      `${within ? 'ok  ' : 'OVER'} ${weight.route.padEnd(34)} JS ${formatKb(weight.jsGzip).padStart(9)}   CSS ${formatKb(weight.cssGzip).padStart(8)}   (${weight.files.length} files)`,
    );
  }
  const largest = (type: 'jsGzip' | 'cssGzip') => Math.max(0, ...weights.map((weight) => weight[type]));
  lines.push(
    `largest route: JS ${formatKb(largest('jsGzip'))} (budget ${formatKb(budgets.js)}), CSS ${formatKb(largest('cssGzip'))} (budget ${formatKb(budgets.css)})`,
  );
  return { ok, lines, largestJs: largest('jsGzip'), largestCss: largest('cssGzip') };
}
