// Any spelling of the console's own inbox address in a creation request's callback_url is put back
// to the real address before the service sees it, and the record keeps the marker (a
// percent-encoded secret, `/callbacks/%61…`, was stored as-is in params.callback_url).
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONSOLE_INBOX } from '../../src/api/core/rules';
import { consoleInboxMarker, namesInbox } from './console-inbox-marker';
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

describe('namesInbox, at its bounds', () => {
  const encode = (text: string, times: number) => {
    for (let round = 0; round < times; round++) text = text.replace(/%/g, '%25');
    return text;
  };
  const first = `%${SECRET.charCodeAt(0).toString(16)}${SECRET.slice(1)}`;

  it('decodes escapes nested five times deep, and no deeper', () => {
    expect(namesInbox(encode(first, 4), SECRET)).toBe(true);
    expect(namesInbox(encode(first, 5), SECRET)).toBe(false);
  });

  it('decodes only ASCII escapes (%00 to %7f)', () => {
    expect(namesInbox('%7f', '\x7f')).toBe(true);
    expect(namesInbox('%80', '\x80')).toBe(false);
    expect(namesInbox('%ff', '\xff')).toBe(false);
    expect(namesInbox('%4g', 'Jg')).toBe(false);
  });
});

describe('consoleInboxMarker on its own', () => {
  const INBOX_URL = 'https://console.example.com/callbacks/real';
  /** An app with the marker in front of a handler that says what body and length it received. */
  const marked = (inboxUrl: string | null = INBOX_URL) => {
    const app = new Hono();
    app.use('*', ...consoleInboxMarker(() => inboxUrl, SECRET));
    app.all('*', async (c) =>
      c.json({ body: await c.req.text(), length: c.req.header('content-length') ?? null }),
    );
    return app;
  };
  const post = (app: Hono, body: string, type = 'application/json', method = 'POST') =>
    app.request('/v1/video_translate', {
      method,
      body,
      headers: { 'content-type': type, 'content-length': String(new TextEncoder().encode(body).length) },
    });

  it('puts the real address in place of the marker, keeping the other fields and no stale length', async () => {
    const response = await post(marked(), JSON.stringify({ a: 1, callback_url: CONSOLE_INBOX }));
    expect(await response.json()).toEqual({
      body: JSON.stringify({ a: 1, callback_url: INBOX_URL }),
      length: null,
    });
  });

  it.each([
    ['an array', JSON.stringify([CONSOLE_INBOX])],
    ['a string', JSON.stringify(CONSOLE_INBOX)],
    ['null', 'null'],
    ['not JSON', '{"callback_url":'],
    ['a callback_url that is no string', JSON.stringify({ callback_url: 7 })],
  ])('leaves %s as it came', async (_, body) => {
    expect(await (await post(marked(), body)).json()).toEqual({ body, length: String(body.length) });
  });

  it('looks only at JSON POSTs', async () => {
    const body = JSON.stringify({ callback_url: CONSOLE_INBOX });
    expect(await (await post(marked(), body, 'text/plain')).json()).toMatchObject({ body });
    expect(await (await post(marked(), body, 'application/json', 'PUT')).json()).toMatchObject({ body });
  });

  it('reads a body of exactly 1 MB and refuses one byte more with 413', async () => {
    const sized = (bytes: number) =>
      JSON.stringify({ callback_url: CONSOLE_INBOX, pad: 'x'.repeat(bytes - 41) });
    expect(sized(1024 * 1024)).toHaveLength(1024 * 1024);
    const atLimit = await post(marked(), sized(1024 * 1024));
    expect(atLimit.status).toBe(200);
    expect(((await atLimit.json()) as { body: string }).body).toContain(INBOX_URL);
    const over = await post(marked(), sized(1024 * 1024 + 1));
    expect(over.status).toBe(413);
    expect(await over.json()).toEqual({ code: 413, msg: 'The request body is too large' });
  });

  it('refuses the marker on its field when there is no address to put in', async () => {
    const response = await post(marked(null), JSON.stringify({ callback_url: CONSOLE_INBOX }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      code: 100001,
      msg: 'callback_url: this console has no address the service can reach; set PUBLIC_BASE_URL or enter another callback URL',
    });
  });
});
