// Shared by the production server's unit tests: a fake dist/ folder and a stand-in Node side, so
// the tests exercise the server's own behaviour without the emulator.
import { Hono } from 'hono';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { creatorOf } from '../identity/creator';
import { testDatabase } from './database';
import { copyOfTemplate, emptyDataDir } from './pglite-template';
import { createIdentityStore } from '../identity/store';
import type { NodeApp } from '../app/node-app';
import { readProdConfig, type ProdConfig } from '../app/prod-config';

export const INDEX_HTML =
  '<!doctype html><html lang="en"><head><script type="module" src="/assets/index-abc.js"></script></head><body><div id="root"></div></body></html>';
export const APP_JS = `console.log(${JSON.stringify('x'.repeat(4000))});`;

export function makeDist(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'prod-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX_HTML);
  writeFileSync(join(dir, 'assets', 'index-abc.js'), APP_JS);
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export function fakeNodeApp(): NodeApp {
  const app = new Hono();
  app.get('/__console/config', (c) => c.json({ backend: 'emulator', apiHost: null, tokenConfigured: true }));
  app.get('/v1/ping', (c) => c.json({ code: 200, msg: 'ok' }));
  app.get('/v1/whoami', (c) => c.json({ creator: creatorOf(c) }));
  app.post('/callbacks/:secret', (c) => c.json({ received: c.req.param('secret') }));
  app.get('/callbacks/:secret/events', (c) =>
    c.body('data: {}\n\n', 200, { 'content-type': 'text/event-stream' }),
  );
  app.get('/emulator/media/sample.png', (c) => c.body('png', 200, { 'content-type': 'image/png' }));
  const database = testDatabase();
  return { app, database, identity: createIdentityStore(database), close: async () => {} };
}

/**
 * The production server's configuration for a test. Its DATA_DIR is a new folder in the run's folder:
 * empty, for an app given its Node side (`fakeNodeApp()` brings the file's database), or with
 * `{ database: true }` a copy of the run's migrated PGlite, for an app that opens its own (no
 * `nodeApp` given; without the copy it would make a new database, seconds each).
 */
export function prodConfig(
  distDir: string,
  env: Record<string, string> = {},
  { database = false }: { database?: boolean } = {},
): ProdConfig {
  return readProdConfig({
    DIST_DIR: distDir,
    DATA_DIR: database ? copyOfTemplate() : emptyDataDir(),
    ...env,
  });
}
