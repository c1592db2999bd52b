// What /__console/config tells the browser about the inbox, per backend.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { ServerConfig } from '../config';
import { createNodeApp, type NodeApp } from '../node-app';
import { copyOfTemplate } from '../testing/pglite-template';

const SECRET = 'config-test-secret-0123456789';
let dataDir: string;
let nodeApp: NodeApp | undefined;

async function consoleConfig(overrides: Partial<ServerConfig>) {
  dataDir = copyOfTemplate();
  const config: ServerConfig = {
    apiBaseUrl: undefined,
    apiToken: undefined,
    dataDir,
    databaseUrl: undefined,
    publicBaseUrl: undefined,
    callbackSecret: SECRET,
    callbackRateLimit: undefined,
    uploadMaxBytes: 500 * 1024 * 1024,
    ...overrides,
  };
  nodeApp = createNodeApp(config);
  const response = await nodeApp.app.request('http://127.0.0.1:5184/__console/config');
  return (await response.json()) as Record<string, unknown>;
}

afterEach(async () => {
  await nodeApp?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('/__console/config callback fields', () => {
  it('on the emulator: the address the browser used, which the emulator can reach', async () => {
    expect(await consoleConfig({})).toMatchObject({
      callbackUrl: `http://127.0.0.1:5184/callbacks/${SECRET}`,
      callbackUrlReachable: true,
      callbackInboxPath: `/callbacks/${SECRET}`,
    });
  });

  it('with PUBLIC_BASE_URL: the public address', async () => {
    const info = await consoleConfig({
      apiBaseUrl: 'https://api.example.com',
      apiToken: 't',
      publicBaseUrl: 'https://console.example.com',
    });
    expect(info).toMatchObject({
      callbackUrl: `https://console.example.com/callbacks/${SECRET}`,
      callbackUrlReachable: true,
    });
  });

  it('on a real service without PUBLIC_BASE_URL: no address, and says so', async () => {
    const info = await consoleConfig({ apiBaseUrl: 'https://api.example.com', apiToken: 't' });
    expect(info).toMatchObject({
      callbackUrl: null,
      callbackUrlReachable: false,
      callbackInboxPath: `/callbacks/${SECRET}`,
    });
  });

  it('mounts the inbox in the node app', async () => {
    await consoleConfig({});
    const response = await nodeApp!.app.request(`/callbacks/${SECRET}/log`);
    expect(response.status).toBe(200);
    expect((await nodeApp!.app.request('/callbacks/wrong-secret-0000000000/log')).status).toBe(404);
  });
});
