// A server for bench-upload.ts in its own process, so the console's memory is measured alone:
// `emulator` serves the built-in emulator; `console` serves the Node side proxying to API_BASE_URL.
// Prints `PORT <n>` once listening and (console) once its database is ready; stops on SIGTERM.
import { serve } from '@hono/node-server';
import { readServerConfig } from '../server/config/config';
import { createEmulator } from '../server/emulator/app';
import { createNodeApp } from '../server/app/node-app';

const mode = process.argv[2];
const nodeApp = mode === 'emulator' ? undefined : createNodeApp(readServerConfig(process.env));
// PGlite's first start (initdb) takes hundreds of MB; idle means after it, not during it.
await nodeApp?.database;
const fetchApp = nodeApp ? nodeApp.app.fetch : createEmulator({ log: () => undefined }).service.fetch;
const server = serve(
  { fetch: fetchApp, hostname: '127.0.0.1', port: Number(process.env.PORT ?? 0) },
  (info) => console.log(`PORT ${info.port}`),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
