// DNS rebinding against `npm run dev` / `npm run preview`: the real vite.config.ts, started for real,
// answers only loopback names, IP addresses, HOST, PUBLIC_BASE_URL's host and ALLOWED_HOSTS, the same
// list as `npm start` (server/http/host-guard.ts). Any other Host header gets Vite's 403.
import { request } from 'node:http';
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { copyOfTemplate } from '../testing/pglite-template';

let server: ViteDevServer;
let port: number;
const dataDir = copyOfTemplate();

beforeAll(async () => {
  vi.stubEnv('DATA_DIR', dataDir);
  vi.stubEnv('API_BASE_URL', '');
  vi.stubEnv('ALLOWED_HOSTS', 'console.corp.test, .media.test');
  vi.stubEnv('PUBLIC_BASE_URL', 'https://console.example.test');
  server = await createServer({
    configFile: 'vite.config.ts',
    configLoader: 'runner',
    logLevel: 'silent',
    // Its own dependency cache, so this server never touches the one `npm run dev` and e2e use.
    cacheDir: join(dataDir, 'vite-cache'),
    server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null },
  });
  await server.listen();
  port = (server.httpServer!.address() as AddressInfo).port;
}, 30_000);

afterAll(async () => {
  await server?.close();
  vi.unstubAllEnvs();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Node's fetch will not send a chosen Host header; http.request does. */
const statusFor = (host: string, path = '/__console/config') =>
  new Promise<number>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });

describe('the dev server’s Host allow-list', () => {
  it.each([
    'evil.example',
    `evil.example:${5173}`,
    'console.corp.test.evil.example',
    'media.test.evil.example',
    'example.test',
  ])('refuses Host %s with 403, before the Node side answers', async (host) => {
    expect(await statusFor(host)).toBe(403);
    expect(await statusFor(host, '/')).toBe(403);
  });

  it.each([
    'localhost',
    'app.localhost',
    '127.0.0.1',
    '[::1]',
    'console.corp.test',
    'cdn.media.test',
    'console.example.test',
  ])('answers Host %s', async (host) => {
    expect(await statusFor(host)).toBe(200);
  });
});
