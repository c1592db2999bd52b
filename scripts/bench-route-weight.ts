// Bench section: the JavaScript and CSS (gzip) Chromium fetches for each route of the production
// build until the network is idle, the same measurement CI enforces (scripts/check-route-weight.ts).
import { startBenchHarness } from './bench-harness';
import type { BenchRow } from './bench-size';
import { ROUTE_BUDGETS, formatKb, measureRoutes } from './route-weight';

export async function benchRouteWeight(distDir = 'dist'): Promise<BenchRow[]> {
  const harness = await startBenchHarness(distDir, 'route-weight');
  try {
    const weights = await measureRoutes(harness.browser, harness.origin);
    return weights.map((weight) => ({
      figure: `${weight.route}: JS / CSS`,
      value: `${formatKb(weight.jsGzip)} / ${formatKb(weight.cssGzip)}`,
      target: `≤ ${formatKb(ROUTE_BUDGETS.js)} / ≤ ${formatKb(ROUTE_BUDGETS.css)}`,
      ok: weight.jsGzip <= ROUTE_BUDGETS.js && weight.cssGzip <= ROUTE_BUDGETS.css,
    }));
  } finally {
    await harness.close();
  }
}
