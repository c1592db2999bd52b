// The same calls through the console's HTTP API (a part of scripts/bench-scale.ts), as `npm start`
// serves them: the production app (sign-in required, the session's check, compression) in front of
// a real createNodeApp on the seeded database, listening on loopback. Each request is a signed-in
// admin's, made as the browser's screen makes it (session cookie, br/gzip accepted, query string,
// JSON or CSV answer read to its end and decompressed).
import { serve } from '@hono/node-server';
import { sql } from 'kysely';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNodeApp } from '../server/app/node-app';
import { createProdApp } from '../server/app/prod-app';
import { readProdConfig } from '../server/app/prod-config';
import { SESSION_COOKIE } from '../server/auth/auth';
import type { Database } from '../server/db/database';

export interface HttpConsole {
  /** GETs a path of the console, reads its answer to the end; rejects unless 200. */
  get(path: string): Promise<void>;
  close(): Promise<void>;
}

/** The smallest build the production app starts on: the calls timed are the API's, not the page. */
function emptyBuild(dir: string): string {
  const dist = join(dir, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  return dist;
}

/**
 * A signed-in admin: their person, a session, and the tasks `hiddenFrom` hid hidden by them too (so
 * the counts leave out as many as the server-time calls do).
 */
async function signedInAdmin(
  nodeApp: ReturnType<typeof createNodeApp>,
  db: Database['db'],
  hiddenFrom: string,
) {
  const person = await nodeApp.identity.upsertPerson({
    source: 'local',
    subject: 'bench-admin',
    name: 'Bench admin',
    role: 'admin',
  });
  await sql`insert into hidden_tasks (user_id, task_id)
    select ${person.id}, task_id from hidden_tasks where user_id = ${hiddenFrom}
    on conflict do nothing`.execute(db);
  // As autovacuum would soon: without statistics for this person the planner guesses their hidden
  // tasks, and a search's count can take a plan three times slower.
  await sql`analyze hidden_tasks`.execute(db);
  const session = await nodeApp.identity.createSession(person.id);
  return `${SESSION_COOKIE}=${session.token}`;
}

/**
 * A production console on the bench's database (handed over: no migration, no background jobs of
 * its own), signed in as an admin who hid what `hiddenFrom` hid.
 */
export async function startHttpConsole(database: Database, hiddenFrom: string): Promise<HttpConsole> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-scale-http-'));
  const config = readProdConfig({
    DIST_DIR: emptyBuild(dir),
    DATA_DIR: join(dir, 'data'),
    APP_PASSWORD: 'bench-scale: no one signs in with it',
  });
  const nodeApp = createNodeApp(config.server, { database, anonymous: null });
  // Before the production app: with an admin, it prints no first admin's set-up link.
  const cookie = await signedInAdmin(nodeApp, database.db, hiddenFrom);
  const prod = createProdApp(config, { nodeApp });
  const server = serve({ fetch: prod.app.fetch, hostname: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    async get(path) {
      const response = await fetch(`${origin}${path}`, {
        headers: { accept: 'application/json', 'accept-encoding': 'br, gzip', cookie },
      });
      const body = await response.text();
      if (response.status !== 200) throw new Error(`GET ${path}: ${response.status} ${body.slice(0, 200)}`);
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await prod.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
