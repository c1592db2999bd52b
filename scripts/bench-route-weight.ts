// Bench section: the JavaScript and CSS Chromium receives for each route of the production build
// until the network is idle (brotli as served, gzip beside it), the same measurement CI enforces
// (scripts/check-route-weight.ts).
import { startBenchHarness } from './bench-harness';
import type { BenchRow } from './bench-size';
import { ROUTE_BUDGETS, formatKb, measureRoutes } from './route-weight';

export async function benchRouteWeight(distDir = 'dist'): Promise<BenchRow[]> {
  const harness = await startBenchHarness(distDir, 'route-weight');
  try {
    const weights = await measureRoutes(harness.browser, harness.origin);
    return weights.map((weight) => ({
      figure: `${weight.route}: JS / CSS, brotli as served`,
      value: `${formatKb(weight.jsServed)} / ${formatKb(weight.cssServed)} (gzip ${formatKb(weight.jsGzip)} / ${formatKb(weight.cssGzip)})`,
      target: `≤ ${formatKb(ROUTE_BUDGETS.js)} / ≤ ${formatKb(ROUTE_BUDGETS.css)}`,
      ok: weight.jsServed <= ROUTE_BUDGETS.js && weight.cssServed <= ROUTE_BUDGETS.css,
    }));
  } finally {
    await harness.close();
  }
}
