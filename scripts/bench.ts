// `npm run bench`: measured figures beside their targets. Each section is an async function
// returning rows, so sections can be added here without touching the others. Needs a build
// (`npm run build`) for the size and Lighthouse sections.
// Sections: bench-size.ts, bench-lighthouse.ts (ship work), bench-follow.ts, bench-gallery.ts
// (gallery work), bench-upload.ts (uploads), bench-light.ts (the embedded default's memory, start-up
// and proxy), bench-results.ts (kept results), bench-scale.ts (every call at 1M and 10M tasks).
// `npm run bench -- following gallery` runs only the sections whose title matches (`-- scale`: the
// scale section alone).
import { benchCallbacks } from './bench-callbacks';
import { benchGallery } from './bench-gallery';
import { benchInsights } from './bench-insights';
import { benchLedger } from './bench-ledger';
import { benchLight } from './bench-light';
import { benchLighthouse } from './bench-lighthouse';
import { benchFollow } from './bench-follow';
import { benchResults } from './bench-results';
import { benchScale } from './bench-scale';
import { benchRouteWeight } from './bench-route-weight';
import { benchSize, printRows, type BenchRow } from './bench-size';
import { benchUpload } from './bench-upload';
import { benchZip } from './bench-zip';

const sections: { title: string; run: () => Promise<BenchRow[]> }[] = [
  { title: 'Bundle size of the first screen', run: () => benchSize() },
  {
    title: 'What Chromium fetches per route before the network is idle (JS + CSS, gzip)',
    run: () => benchRouteWeight(process.env.BENCH_DIST ?? 'dist'),
  },
  {
    title: 'Lighthouse 12 on the production build, Debian Chromium',
    run: () => benchLighthouse({ runs: Number(process.env.LIGHTHOUSE_RUNS ?? 1) }),
  },
  {
    title:
      'The server following 10,000 running tasks (two instances on PostgreSQL, a stub service on loopback)',
    run: () => benchFollow(),
  },
  {
    title: 'Task gallery with 10,000 tasks (production build, Debian Chromium, 1280 × 900)',
    run: () => benchGallery({ distDir: process.env.BENCH_DIST ?? 'dist' }),
  },
  {
    title: 'Callbacks: inbox reply and arrival in the open gallery (production build, Debian Chromium)',
    run: () => benchCallbacks({ distDir: process.env.BENCH_DIST ?? 'dist' }),
  },
  {
    title: 'Uploads: a 500 MB file through the console proxy vs straight to the emulator',
    run: () => benchUpload(),
  },
  {
    title:
      'Embedded default (npm start): memory, start-up, and status polls through the console vs the service alone',
    run: () => benchLight(),
  },
  {
    title: 'Kept results: copying a 1 GB file (BENCH_RESULTS_MB) into each store, and serving it back',
    run: () => benchResults(),
  },
  {
    title: 'Bulk zip: ~1 GB of results streamed as one zip, peak memory',
    run: () => benchZip(),
  },
  {
    title: 'The team record on PostgreSQL and PGlite (server time; BENCH_TASKS tasks, default 1,000,000)',
    run: () => benchLedger(),
  },
  {
    title:
      'Insights on PostgreSQL and PGlite (server time; BENCH_TASKS tasks over a year, default 1,000,000)',
    run: () => benchInsights(),
  },
  {
    title:
      "The record at scale: each screen's call at 1M and 10M tasks on PostgreSQL (server time, then through HTTP), and the follower's claim (BENCH_SCALE_SIZES)",
    run: () => benchScale(),
  },
];
const only = process.argv.slice(2).map((word) => word.toLowerCase());
const selected = only.length
  ? sections.filter((section) => only.some((word) => section.title.toLowerCase().includes(word)))
  : sections;

let failed = false;
for (const section of selected) {
  try {
    const rows = await section.run();
    printRows(section.title, rows);
    failed ||= rows.some((row) => !row.ok);
  } catch (error) {
    failed = true;
    console.error(`\n${section.title}: ${(error as Error).message}`);
  }
}
// Figures are reported, not enforced (CI enforces the size budget separately).
if (failed) console.log('\nSome figures miss their target.');
process.exit(0);
