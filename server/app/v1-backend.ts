// What answers `/v1/*` in the end: the proxy to API_BASE_URL (with the token the browser never
// sees), or, when it is unset, the in-process emulator. Both count each person's uploaded bytes per
// day in the database every instance shares.
import type { Hono, MiddlewareHandler } from 'hono';
import type { ServerConfig } from '../config/config';
import type { Database } from '../db/database';
import { createEmulator, type Emulator, type EmulatorOptions } from '../emulator/app';
import { chain, type Chain } from '../http/chain';
import { UploadQuota } from '../http/upload-quota';
import { databaseUploadTallies } from '../limits/upload-tallies';
import { createProxyApp, createProxyHandlers } from '../proxy/proxy';
import { emulatorFetchOf, type OwnAddresses } from './own-addresses';

export interface V1Backend {
  /** The in-process emulator, when API_BASE_URL is unset. */
  emulator?: Emulator;
  /** With the proxy: a GET under /v1 through `before` and the proxy's handlers (NodeApp.v1Get). */
  v1Get?: Chain;
}

/** Mounts the backend last on `app`; `before` are the handlers `app` runs ahead of it on a /v1 GET. */
export function mountV1Backend(
  app: Hono,
  config: ServerConfig,
  database: Promise<Database>,
  own: OwnAddresses,
  before: MiddlewareHandler[],
  emulatorOptions: Partial<EmulatorOptions> | undefined,
): V1Backend {
  const uploadTallies = databaseUploadTallies(database);
  if (config.apiBaseUrl) {
    const proxyOptions = {
      apiBaseUrl: config.apiBaseUrl,
      apiToken: config.apiToken,
      uploadMaxBytes: config.uploadMaxBytes,
      uploadQuota: new UploadQuota(config.uploadQuotaBytesPerDay, Date.now, uploadTallies),
    };
    const proxy = createProxyHandlers(proxyOptions);
    app.route('/', createProxyApp(proxyOptions, proxy));
    // Every handler this app runs for a GET under /v1 (node-app.test.ts checks the router agrees).
    return { v1Get: chain([...before, ...proxy]) };
  }
  const emulator = createEmulator({
    dataDir: config.dataDir,
    uploadMaxBytes: config.uploadMaxBytes,
    ...(config.uploadQuotaBytesPerDay && { uploadQuotaBytesPerDay: config.uploadQuotaBytesPerDay }),
    ...(config.uploadDiskMaxBytes && { uploadDiskMaxBytes: config.uploadDiskMaxBytes }),
    uploadTallies,
    fetch: emulatorFetchOf(own, app),
    ...emulatorOptions,
  });
  app.route('/', emulator.app);
  return { emulator };
}
