// What the browser bench sections share: the production build served on 127.0.0.1 with the
// built-in emulator and a throwaway data folder, and Debian's Chromium (or Playwright's own).
import { serve } from '@hono/node-server';
import { chromium, type Browser } from '@playwright/test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeApp, type NodeApp } from '../server/app/node-app';
import { chromiumPath } from './chromium-path';
import { createProdApp } from '../server/app/prod-app';
import { readProdConfig } from '../server/app/prod-config';

interface BenchHarness {
  origin: string;
  browser: Browser;
  /** The Node side (emulator, database): a bench may fill the record before any page asks. */
  nodeApp: NodeApp;
  close(): Promise<void>;
}

export async function startBenchHarness(distDir: string, name: string): Promise<BenchHarness> {
  if (!existsSync(join(distDir, 'index.html')))
    throw new Error(`${distDir}/index.html is missing: run \`npm run build\` first`);
  const dataDir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const config = readProdConfig({ DIST_DIR: distDir, DATA_DIR: dataDir, API_BASE_URL: '' });
  const nodeApp = createNodeApp(config.server);
  const prod = createProdApp(config, { nodeApp });
  // As `npm start` does: the database opens (PGlite compiles its WebAssembly, seconds on a busy
  // machine) before the first page is asked for, so no figure or route timeout includes it.
  await prod.ready;
  const server = serve({ fetch: prod.app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ['--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  return {
    origin,
    browser,
    nodeApp,
    async close() {
      await browser.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await prod.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
