// Bench section: initial JavaScript and CSS of the first screen, from dist/, as the production
// server sends them (brotli) with gzip beside. The same measurement as the CI budget check
// (scripts/check-bundle-size.mjs), printed as bench rows.
// Usage: npx tsx scripts/bench-size.ts [distDir]   (after `npm run build`)
import { pathToFileURL } from 'node:url';
import { BUDGETS, formatKb, measureInitialAssets } from './check-bundle-size.mjs';

export interface BenchRow {
  figure: string;
  value: string;
  target: string;
  ok: boolean;
}

export async function benchSize(distDir = 'dist'): Promise<BenchRow[]> {
  const measured = measureInitialAssets(distDir);
  return [
    {
      figure: `Initial JS, brotli (${measured.js.length} file${measured.js.length === 1 ? '' : 's'})`,
      value: `${formatKb(measured.jsServed)} (gzip ${formatKb(measured.jsGzip)})`,
      target: `≤ ${formatKb(BUDGETS.js)}`,
      ok: measured.jsServed <= BUDGETS.js,
    },
    {
      figure: `Initial CSS, brotli (${measured.css.length} file${measured.css.length === 1 ? '' : 's'})`,
      value: `${formatKb(measured.cssServed)} (gzip ${formatKb(measured.cssGzip)})`,
      target: `≤ ${formatKb(BUDGETS.css)}`,
      ok: measured.cssServed <= BUDGETS.css,
    },
  ];
}

export function printRows(title: string, rows: BenchRow[]): void {
  console.log(`\n${title}`);
  const width = Math.max(...rows.map((row) => row.figure.length));
  for (const row of rows) {
    console.log(
      `  ${row.ok ? '✓' : '✗'} ${row.figure.padEnd(width)}  ${row.value.padStart(9)}   target ${row.target}`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printRows('Bundle size of the first screen', await benchSize(process.argv[2]));
}
