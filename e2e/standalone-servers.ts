// The servers only some specs need, started by those specs (beforeAll) rather than for every run: a
// standalone emulator that demands a token (`npm run emulator` with EMULATOR_TOKEN), and `vite` dev
// proxying to it with API_BASE_URL/API_TOKEN (the token path, and the dev server itself).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { E2E_TOKEN } from '../playwright.config';
import { copyOfTemplate } from '../server/testing/pglite-template';
import { holdStdin, STOP_WITH_PARENT } from '../server/testing/stop-with-parent';

export interface StartedServer {
  url: string;
  output(): string;
  stop(): Promise<void>;
}

/** Fails when something already listens on `port`: its answers would pass for the new server's. */
function assertPortFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) =>
      reject(new Error(`port ${port} is taken (${error.message}): set E2E_PORT_OFFSET`)),
    );
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/** Runs `node <args>` in a process group of its own, and waits until `url` + `readyPath` answers 2xx. */
async function startNode(
  args: string[],
  env: Record<string, string>,
  url: string,
  readyPath: string,
  timeoutMs: number,
): Promise<StartedServer> {
  await assertPortFree(Number(new URL(url).port));
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [...STOP_WITH_PARENT, ...args], {
    env: { ...process.env, ...env },
    // Its standard input is how it knows this process is gone (STOP_WITH_PARENT).
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  holdStdin(child);
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const kill = (signal: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, signal);
    } catch {
      // already gone
    }
  };
  const server: StartedServer = {
    url,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        kill('SIGTERM');
        setTimeout(() => kill('SIGKILL'), 4000).unref();
      }),
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited early:\n${output}`);
    const ready = await fetch(`${url}${readyPath}`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return server;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await server.stop();
  throw new Error(`${args.join(' ')} did not answer ${url}${readyPath} in time:\n${output}`);
}

/** The standalone emulator on `port`, demanding E2E_TOKEN. */
export function startStandaloneEmulator(port: number): Promise<StartedServer> {
  return startNode(
    ['--import', 'tsx', 'server/entry/standalone.ts'],
    { EMULATOR_PORT: String(port), EMULATOR_TOKEN: E2E_TOKEN, EMULATOR_TIME_SCALE: '0.05' },
    `http://127.0.0.1:${port}`,
    '/emulator/health',
    60_000,
  );
}

/** `vite` dev on `port`, proxying to the emulator at `emulatorUrl` with the token. */
export function startProxiedDevServer(port: number, emulatorUrl: string): Promise<StartedServer> {
  return startNode(
    [
      'node_modules/vite/bin/vite.js',
      '--configLoader',
      'runner',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--strictPort',
    ],
    {
      API_BASE_URL: emulatorUrl,
      API_TOKEN: E2E_TOKEN,
      // A copy of the run's migrated template: a new PGlite would spend seconds in initdb.
      DATA_DIR: copyOfTemplate(),
      STREAMS_PER_SESSION: '64',
    },
    `http://127.0.0.1:${port}`,
    '/__console/config',
    90_000,
  );
}
