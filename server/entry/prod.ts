// `npm start`: the production server. Checks the environment, then serves the built app and the
// Node side on HOST:PORT until SIGINT/SIGTERM.
import { serve } from '@hono/node-server';
import { existsSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { ConfigError, readProdConfig, signInSummary, type ProdConfig } from '../app/prod-config';
import { createProdApp, type ProdApp } from '../app/prod-app';

function describe(config: ProdConfig): string {
  const backend = config.server.apiBaseUrl ? `proxy to ${config.server.apiBaseUrl}` : 'built-in emulator';
  return `${backend}; ${signInSummary(config)}${config.demo ? '; demo data' : ''}`;
}

async function main() {
  // Variables already in the environment win over the file.
  if (existsSync('.env')) process.loadEnvFile('.env');
  let config: ProdConfig;
  try {
    config = readProdConfig();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : error);
    console.error('See .env.example for every variable.');
    process.exit(1);
  }
  for (const warning of config.warnings) console.warn(`warning: ${warning}`);
  // PGlite (the embedded database) is 20 MB of WebAssembly. V8 compiles it quickly (Liftoff), then
  // again, optimised (TurboFan), the functions it finds hot: that second compilation cost ~60 MB of
  // resident memory and a second of CPU at start for queries the console hardly notices (its
  // queries are small; docs/performance.md, "Memory"). Set here, before PGlite is loaded, so it holds
  // wherever dist-server/prod.js runs (`npm start`, `npm run demo`, the end-to-end servers).
  if (!/^postgres(ql)?:/i.test(config.server.databaseUrl ?? '')) setFlagsFromString('--liftoff-only');

  const refuse = (error: unknown) => {
    console.error((error as Error).message);
    process.exit(1);
  };
  let prod: ProdApp;
  try {
    prod = config.demo ? await (await import('./demo')).createDemoApp(config) : createProdApp(config);
  } catch (error) {
    return refuse(error);
  }
  // The page and its files, /healthz and the sign-in pages answer while the database opens (PGlite:
  // most of a second of CPU); a request that needs the database waits for it. A database that
  // cannot be used (one a newer console has upgraded, a broken DATABASE_URL) stops the server.
  prod.ready.catch(refuse);

  const server = serve({ fetch: prod.app.fetch, hostname: config.host, port: config.port }, (info) => {
    const host = info.family === 'IPv6' ? `[${info.address}]` : info.address;
    console.log(`Media Console on http://${host}:${info.port} (${describe(config)})`);
  });
  // An idle keep-alive connection is closed after 65 s, not Node's 5 s: a client (a browser, a load
  // balancer idling up to 60 s, a test's request context) sending on a connection the server is
  // closing at that very moment gets "socket hang up" instead of an answer. An idle connection costs
  // no more than one that has not sent its headers yet, which Node already waits 60 s for.
  if ('keepAliveTimeout' in server) server.keepAliveTimeout = 65_000;
  server.on('error', (error) => {
    console.error(`Cannot listen on ${config.host}:${config.port}: ${error.message}`);
    process.exit(1);
  });

  const stop = () => {
    server.close();
    void prod.close().finally(() => process.exit(0));
    // Open SSE streams keep close() waiting; do not hang a deploy on them.
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
