// CI budget check, run after `npm run build`: opens every route of the production build, served as
// `npm start` serves it, in Chromium and fails when any route receives more JavaScript or CSS than
// its budget before the network goes idle. The bytes counted are the bytes sent (brotli for the
// hashed assets); each file's gzip size is printed beside them. A size is a bound, so it is
// enforced; timings never are.
//
// Usage: npx tsx scripts/check-route-weight.ts [distDir]
// ROUTE_JS_BUDGET_KB / ROUTE_CSS_BUDGET_KB override the budgets (to see the check fail once).
import { pathToFileURL } from 'node:url';
import { startBenchHarness } from './bench-harness';
import { KB, ROUTE_BUDGETS, checkRouteBudgets, formatKb, measureRoutes } from './route-weight';
import { BROTLI_MIN_BYTES } from '../server/static/prod-brotli';

export function budgetsFromEnv(env: NodeJS.ProcessEnv = process.env) {
  const read = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return env[name] && Number.isFinite(value) && value > 0 ? value * KB : fallback;
  };
  return {
    js: read('ROUTE_JS_BUDGET_KB', ROUTE_BUDGETS.js),
    css: read('ROUTE_CSS_BUDGET_KB', ROUTE_BUDGETS.css),
  };
}

async function main() {
  const distDir = process.argv[2] ?? 'dist';
  const budgets = budgetsFromEnv();
  const harness = await startBenchHarness(distDir, 'route-weight');
  let ok = false;
  try {
    const weights = await measureRoutes(harness.browser, harness.origin);
    const report = checkRouteBudgets(weights, budgets);
    ok = report.ok;
    console.log(
      `What Chromium receives per route from the production server until the network is idle for 1 s, ${distDir}`,
    );
    console.log(
      `(brotli as served, files under ${BROTLI_MIN_BYTES} bytes sent as they are; each file gzipped beside it):`,
    );
    for (const line of report.lines) console.log(line);
    if (process.env.ROUTE_WEIGHT_FILES) {
      for (const weight of weights) {
        console.log(`\n${weight.route}`);
        for (const file of weight.files)
          console.log(
            `  ${formatKb(file.served).padStart(9)} ${file.encoding.padEnd(8)} gzip ${formatKb(file.gzip).padStart(8)}  ${file.url}`,
          );
      }
    }
  } finally {
    await harness.close();
  }
  if (!ok) {
    console.error(
      'check-route-weight: over budget. Load what a screen does not need at once later (ROUTE_WEIGHT_FILES=1 lists each file).',
    );
  }
  // The emulator's timers and keep-alive sockets must not keep the check alive.
  process.exit(ok ? 0 : 1);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
