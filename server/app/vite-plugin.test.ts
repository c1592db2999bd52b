// The Vite plugin mounts the same Node side in `vite` (configureServer) and `vite preview`
// (configurePreviewServer): `/__console/config`, `/v1/*` and the callback inbox answer in both, every
// other path falls through to Vite, and closing Vite's HTTP server closes the Node side.
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Connect, Plugin } from 'vite';
import { videoTranslateCallback } from '../testing/callback-fixtures';
import { consoleServerPlugin, type ConsoleServerPluginApi } from './vite-plugin';
import { copyOfTemplate } from '../testing/pglite-template';

const SECRET = 'vite-plugin-test-secret-0123456789';
let dataDir: string;
let httpServer: EventEmitter;
let frontend: Server | undefined;
let mounted: Plugin<ConsoleServerPluginApi> | undefined;

beforeEach(() => {
  dataDir = copyOfTemplate();
  vi.stubEnv('DATA_DIR', dataDir);
  vi.stubEnv('DATABASE_URL', '');
  vi.stubEnv('API_BASE_URL', ''); // the built-in emulator
  vi.stubEnv('API_TOKEN', '');
  vi.stubEnv('PUBLIC_BASE_URL', '');
  vi.stubEnv('CALLBACK_SECRET', SECRET);
  httpServer = new EventEmitter();
});

afterEach(async () => {
  // What Vite does on shutdown; the plugin closes the Node side on it (idempotent if done already).
  httpServer.emit('close');
  if (frontend) await new Promise((resolve) => frontend!.close(resolve));
  frontend = undefined;
  // The data folder goes only once the database has closed: removing it under a last write fails.
  await mounted?.api?.closed();
  mounted = undefined;
  vi.unstubAllEnvs();
  rmSync(dataDir, { recursive: true, force: true });
});

type HookName = 'configureServer' | 'configurePreviewServer';

/** Calls one of the plugin's server hooks with a stub server; returns the one middleware it mounted. */
function mount(hookName: HookName): Connect.NextHandleFunction {
  const handlers: Connect.NextHandleFunction[] = [];
  const stub = {
    middlewares: { use: (handler: Connect.NextHandleFunction) => handlers.push(handler) },
    httpServer,
  };
  const plugin = consoleServerPlugin();
  mounted = plugin;
  const hook = plugin[hookName] as unknown;
  const fn = (typeof hook === 'function' ? hook : (hook as { handler: unknown }).handler) as (
    this: unknown,
    server: unknown,
  ) => unknown;
  expect(typeof fn).toBe('function');
  fn.call({}, stub);
  expect(handlers, `${hookName} mounts one middleware`).toHaveLength(1);
  return handlers[0]!;
}

/** A real HTTP server in front of the mounted middleware; what it passes on answers 418 "vite". */
async function serve(handler: Connect.NextHandleFunction) {
  const passedOn: string[] = [];
  frontend = createServer((req: IncomingMessage, res: ServerResponse) => {
    handler(req, res, () => {
      passedOn.push(req.url ?? '');
      res.statusCode = 418;
      res.end('vite');
    });
  });
  await new Promise<void>((resolve) => frontend!.listen(0, '127.0.0.1', resolve));
  const { port } = frontend.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, passedOn };
}

describe.each<HookName>(['configureServer', 'configurePreviewServer'])('%s', (hookName) => {
  // One mount for what an open Node side does (each mount opens a database copy, ~2 s of a busy
  // machine): it answers its own paths, passes every other one on to Vite, and leaves the response of
  // a passed-on path untouched.
  it('mounts exactly one middleware that answers the Node side and passes every other path on with next()', async () => {
    const handler = mount(hookName);
    const { base, passedOn } = await serve(handler);

    const config = await fetch(`${base}/__console/config`);
    expect(config.status).toBe(200);
    expect(await config.json()).toMatchObject({
      backend: 'emulator',
      apiHost: null,
      callbackAddress: `${base}/callbacks/…`,
      callbackUrlReachable: true,
    });

    const languages = await fetch(`${base}/v1/video_translate/target_languages`);
    expect(languages.status).toBe(200);
    const envelope = (await languages.json()) as { code: number; data: unknown };
    expect(envelope.code).toBe(0);
    expect(Array.isArray(envelope.data)).toBe(true);
    expect((envelope.data as unknown[]).length).toBeGreaterThan(0);

    const callback = await fetch(`${base}/callbacks/${SECRET}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(videoTranslateCallback),
    });
    expect(callback.status).toBe(200);

    expect(passedOn).toEqual([]);

    for (const path of ['/', '/tasks', '/tasks/i2v-1', '/src/main.tsx', '/v1', '/__consolex']) {
      const response = await fetch(`${base}${path}`);
      expect(response.status, path).toBe(418);
      expect(await response.text()).toBe('vite');
    }
    expect(passedOn).toEqual(['/', '/tasks', '/tasks/i2v-1', '/src/main.tsx', '/v1', '/__consolex']);

    // Called directly, with a response that records every write: next() and nothing else.
    const next = vi.fn();
    const res = { end: vi.fn(), writeHead: vi.fn(), setHeader: vi.fn() };
    handler(
      { url: '/translate', method: 'GET', headers: {} } as IncomingMessage,
      res as unknown as ServerResponse,
      next,
    );
    expect(next).toHaveBeenCalledTimes(1);
    expect(res.end).not.toHaveBeenCalled();
    expect(res.writeHead).not.toHaveBeenCalled();
  });

  it("closes the Node side when Vite's HTTP server emits 'close'", async () => {
    const handler = mount(hookName);
    const { base } = await serve(handler);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    httpServer.emit('close');
    // The callback store is closed (which takes a moment), so a callback is refused (500) instead
    // of acknowledged.
    await vi.waitFor(
      async () => {
        const callback = await fetch(`${base}/callbacks/${SECRET}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(videoTranslateCallback),
        });
        expect(callback.status).toBe(500);
        // Closing the database took over a second on a busy machine.
      },
      { timeout: 15_000, interval: 50 },
    );
    logged.mockRestore();
  });
});
