// What /__console/config tells the browser about the inbox, per backend: where callbacks go, in
// words, never the secret (every signed-in browser got it).
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { testNodeApp } from '../testing/test-node-app';

const server = testNodeApp('console-config');
const SECRET = server.secret;
afterEach(() => server.close());
afterAll(server.remove);

async function consoleConfig(env: Record<string, string>) {
  const nodeApp = await server.open({ env });
  const response = await nodeApp.app.request('http://127.0.0.1:5184/__console/config');
  const text = await response.text();
  expect(text).not.toContain(SECRET);
  expect(text).not.toContain(SECRET.slice(1));
  return JSON.parse(text) as Record<string, unknown>;
}

describe('/__console/config callback fields', () => {
  it('on the emulator: the address the browser used, which the emulator can reach', async () => {
    const info = await consoleConfig({});
    expect(info).toMatchObject({
      callbackAddress: 'http://127.0.0.1:5184/callbacks/…',
      callbackUrlReachable: true,
    });
    expect(info).not.toHaveProperty('callbackUrl');
    expect(info).not.toHaveProperty('callbackInboxPath');
  });

  it('with PUBLIC_BASE_URL: the public address', async () => {
    const info = await consoleConfig({
      API_BASE_URL: 'https://api.example.com',
      API_TOKEN: 't',
      PUBLIC_BASE_URL: 'https://console.example.com',
    });
    expect(info).toMatchObject({
      callbackAddress: 'https://console.example.com/callbacks/…',
      callbackUrlReachable: true,
    });
  });

  it('on a real service without PUBLIC_BASE_URL: no address, and says so', async () => {
    const info = await consoleConfig({ API_BASE_URL: 'https://api.example.com', API_TOKEN: 't' });
    expect(info).toMatchObject({ callbackAddress: null, callbackUrlReachable: false });
  });

  it('mounts the inbox in the node app, its log also at the secret-free path', async () => {
    await consoleConfig({});
    const response = await server.nodeApp.app.request(`/callbacks/${SECRET}/log`);
    expect(response.status).toBe(200);
    expect((await server.nodeApp.app.request('/__console/callbacks/log')).status).toBe(200);
    expect((await server.nodeApp.app.request('/callbacks/wrong-secret-0000000000/log')).status).toBe(404);
  });
});
