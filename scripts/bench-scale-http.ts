// The same calls through the console's HTTP API (a part of scripts/bench-scale.ts): a real
// createNodeApp on the seeded database, listening on loopback, each request made as the browser's
// screen makes it (query string, JSON or CSV answer read to its end). No sign-in layer is in front,
// so a request is the local admin's, as on a console run on one's own machine.
import { serve } from '@hono/node-server';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeApp } from '../server/app/node-app';
import { readServerConfig } from '../server/config/config';
import type { Database } from '../server/db/database';

export interface HttpConsole {
  /** GETs a path of the console, reads its answer to the end; rejects unless 200. */
  get(path: string): Promise<void>;
  close(): Promise<void>;
}

/** A console on the bench's database (handed over: no migration, no background jobs of its own). */
export async function startHttpConsole(database: Database): Promise<HttpConsole> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-scale-http-'));
  const nodeApp = createNodeApp(readServerConfig({ DATA_DIR: dataDir }), { database });
  const server = serve({ fetch: nodeApp.app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    async get(path) {
      const response = await fetch(`${origin}${path}`, { headers: { accept: 'application/json' } });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${body.slice(0, 200)}`);
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await nodeApp.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
