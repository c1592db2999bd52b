// The Node side as one Hono app, mounted three ways: in `vite` dev, in `vite preview`, and in the
// production server. It answers the console's own config, `/v1/*` (proxy or emulator) and the
// emulator's media files.
import { Hono } from 'hono';
import type { ServerConfig } from './config';
import { createEmulator, type EmulatorOptions } from './emulator/app';
import { createProxyHandler } from './proxy';

/** Paths the Node side answers; everything else belongs to the single-page app. */
export const NODE_PATH_PREFIXES = ['/v1/', '/__console/', '/emulator/', '/callbacks/'] as const;

export interface ConsoleInfo {
  backend: 'emulator' | 'remote';
  /** Host name of the real service, for the header's backend indicator. */
  apiHost: string | null;
  tokenConfigured: boolean;
}

export interface NodeApp {
  app: Hono;
  close(): Promise<void>;
}

export function createNodeApp(config: ServerConfig, emulatorOptions: Partial<EmulatorOptions> = {}): NodeApp {
  const app = new Hono();
  const closers: (() => Promise<void> | void)[] = [];

  const info: ConsoleInfo = config.apiBaseUrl
    ? { backend: 'remote', apiHost: new URL(config.apiBaseUrl).host, tokenConfigured: Boolean(config.apiToken) }
    : { backend: 'emulator', apiHost: null, tokenConfigured: true };
  app.get('/__console/config', (c) => c.json(info, 200, { 'cache-control': 'no-store' }));

  if (config.apiBaseUrl) {
    app.all('/v1/*', createProxyHandler({ apiBaseUrl: config.apiBaseUrl, apiToken: config.apiToken }));
  } else {
    const emulator = createEmulator(emulatorOptions);
    closers.push(() => emulator.close());
    app.route('/', emulator.app);
  }

  return {
    app,
    async close() {
      await Promise.all(closers.map((close) => close()));
    },
  };
}
