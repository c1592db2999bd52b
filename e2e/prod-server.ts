// Starts the production server (`npm start`'s built `server/entry/prod.ts`, on a build of the current tree,
// see global-setup.ts) for a spec or a worker, and stops it. Ports 4180-4199 (plus E2E_PORT_OFFSET)
// are reserved for these servers: 4180-4189 for the specs that start their own, 4190-4199 for each
// worker's app (./fixtures.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { copyOfTemplate } from '../server/testing/pglite-template';
import { holdStdin, STOP_WITH_PARENT } from '../server/testing/stop-with-parent';
import { E2E_PORT_OFFSET } from '../playwright.config';
import { E2E_DIST_DIR, E2E_SERVER_ENTRY } from './global-setup';

export interface ProdServer {
  url: string;
  output(): string;
  stop(): Promise<void>;
  /** `kill -9`: no chance to close anything, as a crash or an out-of-memory kill. */
  kill(): Promise<void>;
}

export async function startProdServer(
  basePort: number,
  env: Record<string, string> = {},
): Promise<ProdServer> {
  const port = prodPort(basePort);
  let output = '';
  // A copy of the run's migrated template: a new PGlite would spend seconds in initdb.
  const dataDir = env.DATA_DIR ?? copyOfTemplate();
  const child: ChildProcess = spawn(process.execPath, [...STOP_WITH_PARENT, E2E_SERVER_ENTRY], {
    env: {
      ...process.env,
      API_BASE_URL: '',
      API_TOKEN: '',
      APP_PASSWORD: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATA_DIR: dataDir,
      EMULATOR_TIME_SCALE: '0.05',
      DIST_DIR: E2E_DIST_DIR,
      ...env,
    },
    // Its standard input is how it knows this process is gone (STOP_WITH_PARENT).
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  holdStdin(child);
  child.stdout?.on('data', (chunk) => (output += String(chunk)));
  child.stderr?.on('data', (chunk) => (output += String(chunk)));
  const url = `http://127.0.0.1:${port}`;
  // PGlite and tsx start in a few seconds alone; on a loaded 2-core machine it took 35 s.
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`prod server exited early:\n${output}`);
    if (output.includes('Media Console on')) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!output.includes('Media Console on')) {
    child.kill('SIGKILL');
    throw new Error(`prod server did not start on ${port}:\n${output}`);
  }
  return {
    url,
    output: () => output,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 4000).unref();
      }),
    kill: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

/** A production-server test port (4180-4189) shifted by E2E_PORT_OFFSET. */
export function prodPort(basePort: number): number {
  return basePort + E2E_PORT_OFFSET;
}
