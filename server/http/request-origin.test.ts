import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../emulator/app';
import { requestOrigin } from './request-origin';

describe('requestOrigin behind a reverse proxy', () => {
  let server: ServerType;
  let url = '';
  const emulator = createEmulator({ timeScale: 0.01, log: () => {} });
  beforeAll(async () => {
    const app = new Hono();
    app.get('/origin', (c) => c.text(requestOrigin(c)));
    app.route('/', emulator.app);
    url = await new Promise<string>((resolve) => {
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info: AddressInfo) =>
        resolve(`http://127.0.0.1:${info.port}`),
      );
    });
  });
  afterAll(async () => {
    await emulator.close();
    await new Promise((resolve) => server.close(resolve));
  });

  const origin = async (headers: Record<string, string>) =>
    (await fetch(`${url}/origin`, { headers })).text();

  it('uses what a loopback proxy says the browser used', async () => {
    expect(await origin({})).toBe(url);
    expect(await origin({ 'x-forwarded-proto': 'https', 'x-forwarded-host': 'console.example.com' })).toBe(
      'https://console.example.com',
    );
    expect(await origin({ 'x-forwarded-proto': 'https, http' })).toBe(url.replace('http:', 'https:'));
    expect(await origin({ 'x-forwarded-host': 'console.example.com:8443' })).toBe(
      'http://console.example.com:8443',
    );
  });

  it('ignores forwarded values that are not a scheme or a host', async () => {
    expect(await origin({ 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'evil.example/path' })).toBe(
      url,
    );
  });

  it('ignores the headers from a peer that is not loopback', async () => {
    const app = new Hono();
    app.get('/origin', (c) => c.text(requestOrigin(c)));
    const response = await app.request(
      'http://127.0.0.1:5173/origin',
      { headers: { 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' } },
      { incoming: { socket: { remoteAddress: '203.0.113.5', remotePort: 5000, remoteFamily: 'IPv4' } } },
    );
    expect(await response.text()).toBe('http://127.0.0.1:5173');
  });

  it('reads the headers case-blind, an IPv6 host in brackets, and only a loopback peer', async () => {
    const app = new Hono();
    app.get('/origin', (c) => c.text(requestOrigin(c)));
    const originFrom = async (peer: string, headers: Record<string, string>, at = 'http://127.0.0.1:5173') =>
      (
        await app.request(`${at}/origin`, { headers }, { incoming: { socket: { remoteAddress: peer } } })
      ).text();
    expect(
      await originFrom('127.0.0.1', {
        'x-forwarded-proto': 'HTTPS',
        'x-forwarded-host': 'Console.Example.com',
      }),
    ).toBe('https://console.example.com');
    expect(await originFrom('::1', { 'x-forwarded-host': '[::1]:8443' })).toBe('http://[::1]:8443');
    expect(await originFrom('127.0.0.1', { 'x-forwarded-proto': 'https , http' })).toBe(
      'https://127.0.0.1:5173',
    );
    expect(await originFrom('::ffff:127.0.0.9', { 'x-forwarded-proto': 'https' })).toBe(
      'https://127.0.0.1:5173',
    );
    // Behind a TLS-ending listener the proxy may say plain http.
    expect(await originFrom('127.0.0.1', { 'x-forwarded-proto': 'http' }, 'https://console.test')).toBe(
      'http://console.test',
    );
    expect(await originFrom('127.0.0.1', { 'x-forwarded-proto': 'ftp' }, 'https://console.test')).toBe(
      'https://console.test',
    );
    for (const stranger of ['10.127.0.1', '::10', '::1:2'])
      expect(await originFrom(stranger, { 'x-forwarded-proto': 'https' }), stranger).toBe(
        'http://127.0.0.1:5173',
      );
  });

  it('builds the emulator’s result links on the public address', async () => {
    const created = await fetch(`${url}/v1/image_generate`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: 'Bearer t',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'console.example.com',
      },
      body: JSON.stringify({ prompt: 'a fox' }),
    });
    const { data } = (await created.json()) as { data: { task_ids: string[] } };
    let status: { status: string; urls?: string[] } = { status: '' };
    for (let i = 0; i < 100 && status.status !== 'SUCCEEDED'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const answer = await fetch(`${url}/v1/image_generate/${data.task_ids[0]}`, {
        headers: {
          authorization: 'Bearer t',
          'x-forwarded-proto': 'https',
          'x-forwarded-host': 'console.example.com',
        },
      });
      status = ((await answer.json()) as { data: typeof status }).data;
    }
    expect(status.status).toBe('SUCCEEDED');
    expect(JSON.stringify(status)).toContain('https://console.example.com/emulator/media/');
    expect(JSON.stringify(status)).not.toContain('127.0.0.1');
  });
});
