// Runs the built-in emulator on its own (`npm run emulator`), without the console: handy for
// trying the API with curl and for end-to-end tests that need a backend on a fixed port.
import { serve } from '@hono/node-server';
import { createEmulator } from '../emulator/app';

const port = Number(process.env.EMULATOR_PORT || 8787);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`EMULATOR_PORT must be a port number, got ${process.env.EMULATOR_PORT}`);
  process.exit(1);
}
const hostname = '127.0.0.1';
const emulator = createEmulator();

const server = serve({ fetch: emulator.service.fetch, port, hostname }, (info) => {
  const base = `http://${hostname}:${info.port}`;
  const { timeScale, disabled } = emulator.settings();
  console.log(`Emulator listening on ${base}`);
  console.log(
    `  token: ${process.env.EMULATOR_TOKEN?.trim() ? 'EMULATOR_TOKEN only' : 'any non-empty bearer token'}` +
      ` · time scale: ${timeScale}` +
      (disabled.length ? ` · disabled: ${disabled.join(', ')}` : ''),
  );
  console.log(`  samples: ${base}/emulator/samples · settings: ${base}/emulator/settings`);
});

let stopping = false;
function stop(signal: string) {
  if (stopping) return;
  stopping = true;
  console.log(`Emulator stopping (${signal})`);
  void emulator.close().finally(() => {
    server.close(() => process.exit(0));
    // Keep-alive connections could hold close() open; do not hang the caller.
    setTimeout(() => process.exit(0), 2000).unref();
  });
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));
