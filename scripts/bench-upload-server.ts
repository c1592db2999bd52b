// A server for bench-upload.ts in its own process, so the console's memory is measured alone:
// `emulator` serves the built-in emulator; `console` serves the Node side proxying to API_BASE_URL.
// Prints `PORT <n>` once listening; stops on SIGTERM.
import { serve } from '@hono/node-server';
import { readServerConfig } from '../server/config';
import { createEmulator } from '../server/emulator/app';
import { createNodeApp } from '../server/node-app';

const mode = process.argv[2];
const fetchApp =
  mode === 'emulator'
    ? createEmulator({ log: () => undefined }).service.fetch
    : createNodeApp(readServerConfig(process.env)).app.fetch;
const server = serve(
  { fetch: fetchApp, hostname: '127.0.0.1', port: Number(process.env.PORT ?? 0) },
  (info) => console.log(`PORT ${info.port}`),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
