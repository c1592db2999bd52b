// Bench section: Lighthouse 12 scores of the production build (dist/ served by the production server
// on 127.0.0.1, built-in emulator), in Debian's Chromium, desktop and mobile presets.
// Usage: npx tsx scripts/bench-lighthouse.ts   (after `npm run build`; LIGHTHOUSE_RUNS=3 for a median,
// LIGHTHOUSE_PATHS=/,/tasks for some routes only, '/tasks/<a team task>' for a task the bench creates;
// by default every screen a person can land on)
import { serve } from '@hono/node-server';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProdApp } from '../server/app/prod-app';
import { readProdConfig } from '../server/app/prod-config';
import { printRows, type BenchRow } from './bench-size';
import { MEASURED_ROUTES } from './route-weight';

const CATEGORIES = ['performance', 'accessibility', 'best-practices'] as const;
// The targets: performance 100 on desktop and at least 99 on mobile; the rest 100 on both.
const TARGETS: Record<(typeof CATEGORIES)[number], number> = {
  performance: 99,
  accessibility: 100,
  'best-practices': 100,
};
const targetFor = (category: (typeof CATEGORIES)[number], preset: string) =>
  category === 'performance' && preset === 'desktop' ? 100 : TARGETS[category];
const LABELS: Record<(typeof CATEGORIES)[number], string> = {
  performance: 'performance',
  accessibility: 'accessibility',
  'best-practices': 'best practices',
};
// Quiet on a closed network: no update checks, sync or field trials competing with the page.
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-default-apps',
  '--disable-extensions',
  '--metrics-recording-only',
  '--mute-audio',
];

interface LighthouseOptions {
  distDir?: string;
  /** 0 picks a free port; the project's convention is 4180-4189 for production-server tests. */
  port?: number;
  /** Runs per preset; the median score is reported (performance varies on a busy machine). */
  runs?: number;
  /** Routes to audit, each in both presets; every screen a person can land on by default. */
  paths?: readonly string[];
}

/**
 * A task's page as support staff open it from a link: a finished task the team created, which this
 * browser has never seen. The bench creates it through the server and asks for its status there
 * until it has succeeded, as the creator's browser would, so the team's record holds the result.
 * (The measured routes have only an unknown id's page, where the record and the service say 404.)
 */
const TEAM_TASK_PATH = '/tasks/<a team task>';

/** Every measured route but the unknown one (a "page not found" is nobody's first screen). */
const LIGHTHOUSE_PATHS = [...MEASURED_ROUTES.filter((route) => route !== '/no-such-page'), TEAM_TASK_PATH];

const TEAM_TASK_TIMEOUT_MS = 60_000;

async function createFinishedTeamTask(origin: string): Promise<string> {
  const created = await fetch(`${origin}/v1/image_generate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'A lighthouse at dusk, seen from the cliffs', image_ratio: '3:4' }),
  });
  const body = (await created.json()) as { data?: { task_ids?: string[] } };
  const id = body.data?.task_ids?.[0];
  if (!id)
    throw new Error(`Could not create a task to audit: HTTP ${created.status} ${JSON.stringify(body)}`);
  for (const deadline = Date.now() + TEAM_TASK_TIMEOUT_MS; Date.now() < deadline;) {
    const answer = await fetch(`${origin}/v1/image_generate/${encodeURIComponent(id)}`);
    const status = ((await answer.json()) as { data?: { status?: string } }).data?.status;
    if (status === 'SUCCEEDED') return id;
    if (status === 'FAILED') throw new Error(`The task to audit failed: ${id}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(`The task to audit did not finish within ${TEAM_TASK_TIMEOUT_MS / 1000} s: ${id}`);
}

function chromePath(): string | undefined {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** One audit; a trace hiccup on a busy machine (NO_NAVSTART and the like) gets two more tries. */
async function auditOnce(url: string, port: number, preset: 'desktop' | 'mobile') {
  let lastError = 'no result';
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = await lighthouse(
      url,
      { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] },
      preset === 'desktop' ? desktopConfig : undefined,
    );
    if (result && !result.lhr.runtimeError) return result;
    lastError = result?.lhr.runtimeError?.message ?? 'Lighthouse returned no result';
  }
  throw new Error(`Lighthouse: ${lastError}`);
}

/** Each category's median score over `runs` audits of one page in one preset. */
async function medianScores(url: string, port: number, preset: 'desktop' | 'mobile', runs: number) {
  const scores: number[][] = [];
  for (let run = 0; run < runs; run++) {
    const { lhr } = await auditOnce(url, port, preset);
    scores.push(CATEGORIES.map((category) => Math.round((lhr.categories[category]?.score ?? 0) * 100)));
  }
  return new Map(CATEGORIES.map((category, i) => [category, median(scores.map((run) => run[i]!))]));
}

export async function benchLighthouse(options: LighthouseOptions = {}): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-lighthouse-'));
  const config = readProdConfig({ DIST_DIR: options.distDir ?? 'dist', DATA_DIR: dataDir, API_BASE_URL: '' });
  const prod = createProdApp(config);
  const server = serve({ fetch: prod.app.fetch, hostname: '127.0.0.1', port: options.port ?? 4188 });
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  const chrome = await chromeLauncher.launch({
    chromePath: chromePath(),
    chromeFlags: CHROME_FLAGS,
    logLevel: 'error',
  });
  const rows: BenchRow[] = [];
  try {
    const origin = `http://127.0.0.1:${port}`;
    const paths = options.paths ?? LIGHTHOUSE_PATHS;
    const teamTask = paths.includes(TEAM_TASK_PATH) ? await createFinishedTeamTask(origin) : undefined;
    for (const path of paths) {
      const url =
        path === TEAM_TASK_PATH ? `${origin}/tasks/${encodeURIComponent(teamTask!)}` : origin + path;
      for (const preset of ['desktop', 'mobile'] as const) {
        const scores = await medianScores(url, chrome.port, preset, options.runs ?? 1);
        for (const category of CATEGORIES) {
          const value = scores.get(category) ?? 0;
          rows.push({
            figure: `Lighthouse ${preset} ${path}: ${LABELS[category]}`,
            value: String(value),
            target: `≥ ${targetFor(category, preset)}`,
            ok: value >= targetFor(category, preset),
          });
        }
      }
    }
  } finally {
    chrome.kill();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await prod.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const runs = Number(process.env.LIGHTHOUSE_RUNS ?? 1);
  const paths = process.env.LIGHTHOUSE_PATHS?.split(',').filter(Boolean);
  printRows(
    `Lighthouse 12 on the production build (median of ${runs} run${runs === 1 ? '' : 's'})`,
    await benchLighthouse({ runs, paths }),
  );
  // SSE or keep-alive sockets of the emulator must not keep the bench alive.
  process.exit(0);
}
