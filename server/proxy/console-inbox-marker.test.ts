// Any spelling of the console's own inbox address in a creation request's callback_url is put back
// to the real address before the service sees it, and the record keeps the marker (a
// percent-encoded secret, `/callbacks/%61…`, was stored as-is in params.callback_url).
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONSOLE_INBOX } from '../../src/api/core/rules';
import { namesInbox } from './console-inbox-marker';
import { testNodeApp } from '../testing/test-node-app';

const server = testNodeApp('inbox-marker-test');
const SECRET = server.secret;
const PUBLIC = 'https://console.example.com';
const INBOX = `${PUBLIC}/callbacks/${SECRET}`;

let forwarded: unknown[] = [];
let service: ServerType;
let serviceUrl: string;

// The service: a real server on loopback (the proxy sends with undici, not the global fetch).
beforeAll(async () => {
  const upstream = new Hono();
  upstream.post('/v1/video_translate', async (c) => {
    forwarded.push(await c.req.json());
    return c.json({
      code: 0,
      msg: 'ok',
      data: [{ task_id: `vt-${forwarded.length}`, language: 'Japanese' }],
    });
  });
  await new Promise<void>((resolve) => {
    service = serve({ fetch: upstream.fetch, hostname: '127.0.0.1', port: 0 }, (info) => {
      serviceUrl = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});
beforeEach(() => {
  forwarded = [];
});
afterEach(() => server.close());
afterAll(async () => {
  await new Promise((resolve) => service.close(resolve));
  server.remove();
});

const start = (env: Record<string, string> = {}) =>
  server.open({ env: { API_BASE_URL: serviceUrl, API_TOKEN: 't', PUBLIC_BASE_URL: PUBLIC, ...env } });

const translate = (callbackUrl: string) =>
  server.nodeApp.app.request(`${PUBLIC}/v1/video_translate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      target_languages: ['Japanese'],
      video_url: 'https://x.test/v.mp4',
      callback_url: callbackUrl,
    }),
  });

/** The secret's first character percent-encoded, as the issue's attack did. */
const encodedFirst = `%${SECRET.charCodeAt(0).toString(16)}${SECRET.slice(1)}`;

describe('a creation request naming the inbox in any spelling', () => {
  it.each([
    ['the real address', INBOX],
    ['the marker', CONSOLE_INBOX],
    ['a percent-encoded secret', `${PUBLIC}/callbacks/${encodedFirst}`],
    [
      'an upper-case %XX escape',
      `${PUBLIC}/callbacks/%${SECRET.charCodeAt(0).toString(16).toUpperCase()}${SECRET.slice(1)}`,
    ],
    [
      'every character encoded',
      `${PUBLIC}/callbacks/${[...SECRET].map((ch) => `%${ch.charCodeAt(0).toString(16)}`).join('')}`,
    ],
    [
      'a twice-encoded secret',
      `${PUBLIC}/callbacks/%25${SECRET.charCodeAt(0).toString(16)}${SECRET.slice(1)}`,
    ],
    ['the secret in another case', `${PUBLIC}/callbacks/${SECRET.toUpperCase()}`],
    ['the host in capitals', `https://CONSOLE.Example.COM/callbacks/${SECRET}`],
    ['the default port', `https://console.example.com:443/callbacks/${SECRET}`],
    ['a trailing slash', `${INBOX}/`],
    ['a query string', `${INBOX}?x=1`],
    ['a dot segment', `${PUBLIC}/x/../callbacks/${SECRET}`],
    ['another name for this console', `http://127.0.0.1:8080/callbacks/${SECRET}`],
  ])('%s: the service gets the real address, the record the marker', async (_, callbackUrl) => {
    await start();
    const response = await translate(callbackUrl);
    expect(response.status).toBe(200);
    expect(forwarded).toEqual([expect.objectContaining({ callback_url: INBOX })]);
    const row = await server.database.db.selectFrom('tasks').select('params').executeTakeFirstOrThrow();
    expect(row.params).toMatchObject({ callback_url: CONSOLE_INBOX });
    expect(JSON.stringify(row.params).toLowerCase()).not.toContain(SECRET.slice(1).toLowerCase());
  });

  it('is refused on its field (never stored as-is) when the console knows no reachable address', async () => {
    await start({ PUBLIC_BASE_URL: '' });
    const response = await translate(`https://console.example.com/callbacks/${encodedFirst}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      code: 100001,
      msg: expect.stringMatching(/^callback_url: /),
    });
    expect(forwarded).toEqual([]);
  });

  it('leaves any other callback URL alone', async () => {
    await start();
    await translate('https://hooks.example.org/callbacks/some-other-inbox-0000');
    expect(forwarded).toEqual([
      expect.objectContaining({ callback_url: 'https://hooks.example.org/callbacks/some-other-inbox-0000' }),
    ]);
  });
});

describe('namesInbox', () => {
  it('finds the secret through escapes and case, and nowhere else', () => {
    expect(namesInbox(`x/callbacks/${encodedFirst}`, SECRET)).toBe(true);
    expect(
      namesInbox(`x/callbacks/%2525${SECRET.charCodeAt(0).toString(16)}${SECRET.slice(1)}`, SECRET),
    ).toBe(true);
    expect(namesInbox('x/callbacks/%E0%A4%A', SECRET)).toBe(false);
    expect(namesInbox(`x/callbacks/${SECRET.slice(0, -1)}`, SECRET)).toBe(false);
  });
});
