// The Node side as the browser sees it: `/__console/config` describes the backend without ever
// including the token, and `/v1/*` goes to the proxy or the emulator.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readServerConfig } from './config';
import { createNodeApp, type NodeApp } from './node-app';

const TOKEN = 'node-app-test-token-93ab';
// The callback inbox keeps state in DATA_DIR; keep it out of the working tree.
const DATA_DIR = mkdtempSync(join(tmpdir(), 'node-app-test-'));
let nodeApp: NodeApp | undefined;
afterEach(async () => {
  await nodeApp?.close();
  nodeApp = undefined;
});
afterAll(() => rmSync(DATA_DIR, { recursive: true, force: true }));

const start = (env: NodeJS.ProcessEnv) => (nodeApp = createNodeApp(readServerConfig({ DATA_DIR, ...env })));

async function consoleConfig(env: NodeJS.ProcessEnv) {
  const response = await start(env).app.request('/__console/config');
  return { response, text: await response.text() };
}

describe('/__console/config', () => {
  it('describes a remote backend by host, never by token', async () => {
    const { response, text } = await consoleConfig({
      API_BASE_URL: 'https://api.keevx.com/v1',
      API_TOKEN: TOKEN,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(JSON.parse(text)).toMatchObject({
      backend: 'remote',
      apiHost: 'api.keevx.com',
      tokenConfigured: true,
    });
    expect(text).not.toContain(TOKEN);
    expect(text.toLowerCase()).not.toContain('bearer');
  });

  it('includes the port in the host of a local backend', async () => {
    const { text } = await consoleConfig({ API_BASE_URL: 'http://127.0.0.1:8798', API_TOKEN: TOKEN });
    expect(JSON.parse(text)).toMatchObject({ backend: 'remote', apiHost: '127.0.0.1:8798' });
    expect(text).not.toContain(TOKEN);
  });

  it('says when the token is missing, so the app can show its banner', async () => {
    const { text } = await consoleConfig({ API_BASE_URL: 'https://api.example.com' });
    expect(JSON.parse(text)).toMatchObject({
      backend: 'remote',
      apiHost: 'api.example.com',
      tokenConfigured: false,
    });
  });

  it('reports the built-in emulator when API_BASE_URL is unset, even if a token is set', async () => {
    const { text } = await consoleConfig({ API_TOKEN: TOKEN });
    expect(JSON.parse(text)).toMatchObject({ backend: 'emulator', apiHost: null, tokenConfigured: true });
    expect(text).not.toContain(TOKEN);
  });
});

describe('/v1/* with a remote backend', () => {
  it('answers the 401 envelope from the proxy when the token is missing', async () => {
    const response = await start({ API_BASE_URL: 'http://127.0.0.1:9' }).app.request('/v1/image_generate', {
      method: 'POST',
      body: '{}',
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ code: 401 });
  });

  it('answers 502 without leaking the token when the service is down', async () => {
    const response = await start({ API_BASE_URL: 'http://127.0.0.1:9', API_TOKEN: TOKEN }).app.request(
      '/v1/video_translate/target_languages',
    );
    expect(response.status).toBe(502);
    expect(await response.text()).not.toContain(TOKEN);
  });
});
