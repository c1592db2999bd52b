// Helpers shared by the emulator's unit tests (not a test file itself).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';
import { createEmulator, type Emulator, type EmulatorOptions } from '../emulator/app';

export const AUTH = { authorization: 'Bearer test-token' };
export const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' };

/** An emulator with a controllable clock; env variables are ignored so tests do not depend on them. */
export function testEmulator(options: Partial<EmulatorOptions> = {}): Emulator & { clock: { now: number } } {
  const clock = { now: Date.UTC(2026, 0, 1) };
  const emulator = createEmulator({
    timeScale: 1,
    token: undefined,
    disabled: [],
    now: () => clock.now,
    log: () => undefined,
    ...options,
  });
  return Object.assign(emulator, { clock });
}

type Cleanup = () => Promise<void> | void;

/**
 * Call once at the top of a test file: what the returned function registers during a test is
 * undone after it (emulators closed, servers stopped), all at once.
 */
export function cleanupAfterEach(): (cleanup: Cleanup) => void {
  const cleanups: Cleanup[] = [];
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()));
  });
  return (cleanup) => {
    cleanups.push(cleanup);
  };
}

/**
 * Call once at the top of a test file: the returned `make(options)` builds a testEmulator that is
 * closed after the test. Pass the file's own `cleanupAfterEach()` to share its registry.
 */
export function emulatorsClosedAfterEach(onCleanup: (cleanup: Cleanup) => void = cleanupAfterEach()) {
  return (options: Partial<EmulatorOptions> = {}) => {
    const emulator = testEmulator(options);
    onCleanup(() => emulator.close());
    return emulator;
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read fields of varied payloads
type Envelope = { code: number; msg: string; data?: any };

export async function postJson(
  emulator: Emulator,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const response = await emulator.service.request(path, {
    method: 'POST',
    headers: { ...JSON_HEADERS, ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Envelope };
}

export async function getJson(emulator: Emulator, path: string, headers: Record<string, string> = AUTH) {
  const response = await emulator.service.request(path, { headers });
  return { status: response.status, body: (await response.json()) as Envelope };
}

export interface LocalServer {
  url: string;
  requests: { method: string; path: string; body: string }[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1:0 for download and callback tests. */
export async function localServer(
  handler: (req: IncomingMessage, res: ServerResponse, body: string) => void | Promise<void>,
): Promise<LocalServer> {
  const requests: LocalServer['requests'] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: req.method ?? '', path: req.url ?? '', body });
      void handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function waitFor(check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('waitFor timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
