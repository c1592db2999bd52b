// What a person's browser really fetches to show each screen: the production build is served by
// `npm start`'s app on 127.0.0.1 (built-in emulator), each route is opened in a fresh Chromium
// context (empty cache, empty storage, like a first visit), and every JavaScript and CSS file
// requested until the network has been idle for a second is counted at the size its response body
// had on the wire: brotli for the hashed assets (server/static/prod-brotli.ts), as Chromium asks for it
// with `Accept-Encoding: br`, and plain for the few files too small to compress. The gzip size of
// each file is reported beside it. Unlike a look at index.html, this counts the chunks a screen
// imports at mount and anything loaded right after.
import type { Browser, Request, Response } from '@playwright/test';
import { gzipSync } from 'node:zlib';
import { BROTLI_MIN_BYTES } from '../server/static/prod-brotli';

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
  '/insights',
  '/callbacks',
  '/boards',
  '/boards/b-route-weight-unknown',
  '/compare?ids=a,b',
  '/no-such-page',
] as const;

/** How long the network must stay quiet before a route counts as loaded. */
const IDLE_MS = 1_000;
const ROUTE_TIMEOUT_MS = 20_000;

interface FetchedFile {
  url: string;
  type: 'js' | 'css';
  /** The response's Content-Encoding: `br` for the hashed assets, `identity` when sent as is. */
  encoding: string;
  /** Bytes of the response body as sent (its Content-Length): what the budget counts. */
  served: number;
  /** The same file gzipped, for comparison with figures counted that way. */
  gzip: number;
}

interface RouteWeight {
  route: string;
  files: FetchedFile[];
  jsServed: number;
  cssServed: number;
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
  const total = (type: FetchedFile['type'], size: 'served' | 'gzip') =>
    unique.filter((file) => file.type === type).reduce((sum, file) => sum + file[size], 0);
  return {
    route,
    files: unique,
    jsServed: total('js', 'served'),
    cssServed: total('css', 'served'),
    jsGzip: total('js', 'gzip'),
    cssGzip: total('css', 'gzip'),
  };
}

/**
 * The body's size as it crossed the wire: the Content-Length the server sent (the brotli bytes
 * for a `br` answer), or, for a streamed answer without one, what Chromium counted.
 */
export function servedSize(
  headers: Record<string, string>,
  bodySizeOnWire: number,
  decodedLength: number,
): number {
  const declared = Number(headers['content-length']);
  if (headers['content-length'] && Number.isInteger(declared) && declared >= 0) return declared;
  if (bodySizeOnWire >= 0) return bodySizeOnWire;
  // Neither is known only for an answer that was not encoded (a memory-cache hit): its own length.
  return decodedLength;
}

async function readFetchedFile(
  request: Request,
  response: Response | null,
  type: FetchedFile['type'],
): Promise<FetchedFile | undefined> {
  if (!response) return undefined;
  const [body, headers, sizes] = await Promise.all([response.body(), response.allHeaders(), request.sizes()]);
  return {
    url: request.url(),
    type,
    encoding: headers['content-encoding'] ?? 'identity',
    served: servedSize(headers, sizes.responseBodySize, body.length),
    gzip: gzipSize(body),
  };
}

/**
 * Long-lived requests (the callback event stream) never finish, and they carry no code: they
 * do not hold the page "busy".
 */
function holdsNetworkBusy(request: Request): boolean {
  return request.resourceType() !== 'eventsource';
}

async function measureRoute(browser: Browser, origin: string, route: string): Promise<RouteWeight> {
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
    reads.push(request.response().then((response) => readFetchedFile(request, response, type)));
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

/** Report lines and the verdict: every route's JS and CSS, as served, within budget. */
export function checkRouteBudgets(weights: RouteWeight[], budgets = ROUTE_BUDGETS) {
  const kb = (bytes: number, width: number) => formatKb(bytes).padStart(width);
  const lines: string[] = [
    `     ${'route'.padEnd(34)} ${'JS br'.padStart(9)} ${'gzip'.padStart(9)}   ${'CSS br'.padStart(8)} ${'gzip'.padStart(8)}`,
  ];
  let ok = weights.length > 0;
  for (const weight of weights) {
    const within = weight.jsServed <= budgets.js && weight.cssServed <= budgets.css;
    ok &&= within;
    lines.push(
      `${within ? 'ok  ' : 'OVER'} ${weight.route.padEnd(34)} ${kb(weight.jsServed, 9)} ${kb(weight.jsGzip, 9)}   ${kb(weight.cssServed, 8)} ${kb(weight.cssGzip, 8)}   (${weight.files.length} files)`,
    );
  }
  const largest = (size: 'jsServed' | 'cssServed' | 'jsGzip' | 'cssGzip') =>
    Math.max(0, ...weights.map((weight) => weight[size]));
  lines.push(
    `largest route: JS ${formatKb(largest('jsServed'))} (gzip ${formatKb(largest('jsGzip'))}; budget ${formatKb(budgets.js)}), CSS ${formatKb(largest('cssServed'))} (gzip ${formatKb(largest('cssGzip'))}; budget ${formatKb(budgets.css)})`,
  );
  // The server leaves only files under BROTLI_MIN_BYTES uncompressed; anything else sent another way
  // (a browser that did not ask for br, a broken middleware) is counted as sent, and said.
  const notBrotli = weights
    .flatMap((weight) => weight.files)
    .filter((file) => file.encoding !== 'br' && file.served >= BROTLI_MIN_BYTES)
    .map((file) => `${new URL(file.url).pathname} (${file.encoding})`);
  if (notBrotli.length > 0) lines.push(`not served as brotli: ${[...new Set(notBrotli)].join(', ')}`);
  return { ok, lines, largestJs: largest('jsServed'), largestCss: largest('cssServed') };
}
