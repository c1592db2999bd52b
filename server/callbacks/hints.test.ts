// A callback is a hint, never the truth. Each attack, against the
// console's own inbox on a "real" service (a stubbed upstream behind the proxy): a forged
// SUCCEEDED with a phishing link, a callback for a task nobody created, text PostgreSQL refuses.
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { CONSOLE_CALLBACKS_PATH } from '../../src/api/core/rules';
import { MAX_JSON_DEPTH } from '../db/storable';
import { testNodeApp } from '../testing/test-node-app';
import { createTaskRecorder } from '../tasks/recorder';
import { createCallbackHints, throttledLog, withoutUntrustedLinks } from './hints';

const server = testNodeApp('hints-test');
const SECRET = server.secret;
const TOKEN = 'hints-test-token';
/** The service: a real server on loopback (the console sends to it with undici, not the global fetch). */
let API: string;
let service: ServerType;
const CDN = 'https://cdn.example.com';
const PHISH = 'https://evil.example/phish.png';

let upstream: (request: Request) => Response | Promise<Response>;
let sent: Request[];
let logged: string[];

beforeAll(async () => {
  await new Promise<void>((resolve) => {
    const answer = (request: Request) => {
      sent.push(request.clone());
      return upstream(request);
    };
    service = serve({ fetch: answer, hostname: '127.0.0.1', port: 0 }, (info) => {
      API = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
});
beforeEach(async () => {
  sent = [];
  logged = [];
  upstream = () => Response.json({ code: 100003, msg: 'task not found' }, { status: 404 });
  vi.spyOn(console, 'log').mockImplementation((line: string) => void logged.push(line));
  await server.open({
    env: {
      API_BASE_URL: API,
      API_TOKEN: TOKEN,
      PUBLIC_BASE_URL: 'https://console.example.com',
      MEDIA_ORIGINS: CDN,
    },
  });
});
afterEach(async () => {
  await server.close();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});
afterAll(async () => {
  await new Promise((resolve) => service.close(resolve));
  server.remove();
});

const created = (kind: 'image_generate' | 'video_translate' | 'image_to_video', id: string) =>
  createTaskRecorder(Promise.resolve(server.database)).created(kind, { prompt: 'a fox' }, [{ id }], 'Ana');

function post(body: unknown, path = `/callbacks/${SECRET}`, headers: Record<string, string> = {}) {
  return server.nodeApp.app.request(`https://console.example.com${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const imageCallback = (taskId: string, data: Record<string, unknown> = {}) => ({
  code: 0,
  msg: 'ok',
  task_type: 'image_generate',
  data: { task_id: taskId, status: 'SUCCEEDED', image_url: PHISH, error_message: '', ...data },
});

async function task(id: string) {
  return server.database.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
}

async function timeline(id: string) {
  const rows = await server.database.db
    .selectFrom('task_events')
    .select(['source', 'status'])
    .where('task_id', '=', id)
    .orderBy('id')
    .execute();
  return rows.map((row) => [row.source, row.status]);
}

/** The server's follower asks about every task that is due, as it does in the background. */
async function settle() {
  await server.nodeApp.follower!.drain();
}

describe('a forged callback for an existing task', () => {
  it('triggers a status query with the token, and the record takes only its answer', async () => {
    await created('image_generate', 'i2is-1');
    upstream = () =>
      Response.json({
        code: 0,
        msg: 'ok',
        data: { task_id: 'i2is-1', status: 'SUCCEEDED', image_url: `${CDN}/i2is-1.png` },
      });
    const reply = await post(imageCallback('i2is-1'));
    expect(reply.status).toBe(200);
    expect(await reply.json()).toMatchObject({
      code: 0,
      data: { id: 1, duplicate: false, task: 'checking' },
    });
    await settle();
    expect(sent.map((request) => `${request.method} ${request.url}`)).toEqual([
      `GET ${API}/v1/image_generate/i2is-1`,
    ]);
    expect(sent[0]!.headers.get('authorization')).toBe(`Bearer ${TOKEN}`);
    const row = await task('i2is-1');
    expect(row).toMatchObject({ status: 'SUCCEEDED', last_source: 'poll' });
    expect(row!.result).toEqual({ task_id: 'i2is-1', status: 'SUCCEEDED', image_url: `${CDN}/i2is-1.png` });
    expect(JSON.stringify(row)).not.toContain('evil.example');
    expect(await timeline('i2is-1')).toEqual([
      ['created', null],
      ['poll', 'SUCCEEDED'],
    ]);
  });

  it('is overruled when the service says otherwise (FAILED), and its link never lands', async () => {
    await created('image_to_video', 'i2v-1');
    upstream = () =>
      Response.json({
        code: 0,
        msg: 'ok',
        data: { task_id: 'i2v-1', status: 'FAILED', error_message: 'content policy' },
      });
    await post({
      code: 0,
      task_type: 'image_to_video',
      data: { task_id: 'i2v-1', status: 'SUCCEEDED', video_url: PHISH, thumbnail_url: PHISH },
    });
    await settle();
    const row = await task('i2v-1');
    expect(row).toMatchObject({ status: 'FAILED', result: { error_message: 'content policy' } });
    expect(JSON.stringify(row)).not.toContain('evil.example');
  });

  it('changes nothing when the service cannot read the task (a business code)', async () => {
    await created('image_generate', 'i2is-2');
    const reply = await post(imageCallback('i2is-2'));
    expect(reply.status).toBe(200);
    await settle();
    const row = await task('i2is-2');
    expect(row).toMatchObject({ status: '', result: {} });
    expect(row!.last_error).toMatchObject({ kind: 'not_found', code: 100003, msg: 'task not found' });
    expect(await timeline('i2is-2')).toEqual([['created', null]]);
  });

  it('is not checked at all when the record already has the service’s final answer', async () => {
    await created('image_generate', 'i2is-3');
    upstream = () => Response.json({ code: 0, msg: 'ok', data: { task_id: 'i2is-3', status: 'FAILED' } });
    await server.nodeApp.app.request('https://console.example.com/v1/image_generate/i2is-3');
    expect((await task('i2is-3'))!.status).toBe('FAILED');
    sent.length = 0;
    const reply = await post(imageCallback('i2is-3'));
    expect(await reply.json()).toMatchObject({ data: { task: 'settled' } });
    await settle();
    expect(sent).toEqual([]);
    expect((await task('i2is-3'))!.status).toBe('FAILED');
  });
});

describe('a callback for a task the record does not know', () => {
  it('is stored in the log, logged as unknown, and never creates a task', async () => {
    const reply = await post(imageCallback('i2is-nobody-made-this'));
    expect(reply.status).toBe(200);
    expect(await reply.json()).toMatchObject({ data: { id: 1, task: 'unknown' } });
    await settle();
    expect(await task('i2is-nobody-made-this')).toBeUndefined();
    expect(await server.database.db.selectFrom('tasks').select('id').execute()).toEqual([]);
    expect(sent).toEqual([]);
    expect(
      logged.some((line) => /"i2is-nobody-made-this", which the team record does not know/.test(line)),
    ).toBe(true);
    const log = (await (await server.nodeApp.app.request(`${CONSOLE_CALLBACKS_PATH}/log`)).json()) as {
      data: { items: { body: unknown }[] };
    };
    expect(log.data.items[0]!.body).toEqual(imageCallback('i2is-nobody-made-this'));
  });
});

describe('a callback that beats the creation answer', () => {
  it('is looked at once the creation is recorded (it was unknown when it came)', async () => {
    upstream = (request) =>
      request.method === 'POST'
        ? Response.json({ code: 0, msg: 'ok', data: { task_ids: ['i2is-early'] } })
        : Response.json({
            code: 0,
            msg: 'ok',
            data: { task_id: 'i2is-early', status: 'SUCCEEDED', image_url: `${CDN}/early.png` },
          });
    expect(await (await post(imageCallback('i2is-early'))).json()).toMatchObject({
      data: { task: 'unknown' },
    });
    const createdNow = await server.nodeApp.app.request('https://console.example.com/v1/image_generate', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'early bird' }),
    });
    expect(createdNow.status).toBe(200);
    await settle();
    expect(await task('i2is-early')).toMatchObject({ status: 'SUCCEEDED', last_source: 'poll' });
    expect((await task('i2is-early'))!.result).toMatchObject({ image_url: `${CDN}/early.png` });
  });
});

describe('text PostgreSQL refuses, and any other well-formed JSON', () => {
  it('stores "error_message":"a\\u0000b" (a 500 on every delivery before), written out, once', async () => {
    await created('image_generate', 'i2is-nul');
    const raw =
      '{"code":0,"task_type":"image_generate","data":{"task_id":"i2is-nul","status":"FAILED","error_message":"a\\u0000b"}}';
    const first = await post(raw);
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ code: 0, data: { duplicate: false } });
    const again = await post(raw);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ code: 0, data: { duplicate: true } });
    const stored = await server.database.db.selectFrom('callbacks').select('body').executeTakeFirstOrThrow();
    expect((stored.body.data as { error_message: string }).error_message).toBe('a\\u0000b');
    await settle();
  });

  it.each([
    ['a lone surrogate in a value', '"error_message":"x\\ud800y"'],
    ['a lone low surrogate', '"error_message":"\\udc00"'],
    ['NUL in a key', '"a\\u0000b":1'],
    ['a lone surrogate in a key', '"\\ud83d":"x"'],
    ['NUL in the task id', '"task_id2":"x","note":"\\u0000"'],
  ])('accepts %s with 200, never 500', async (_, fields) => {
    const raw = `{"code":0,"task_type":"image_generate","data":{"task_id":"i2is-x","status":"FAILED",${fields}}}`;
    const reply = await post(raw);
    expect(reply.status).toBe(200);
  });

  it('accepts a task id holding NUL as an unknown task (no database error)', async () => {
    const reply = await post(
      '{"code":0,"task_type":"image_generate","data":{"task_id":"i2is-\\u0000","status":"FAILED"}}',
    );
    expect(reply.status).toBe(200);
    expect(await reply.json()).toMatchObject({ data: { task: 'unknown' } });
  });

  /** The callback with an extra field nested so the whole body has `levels` levels. */
  const nested = (levels: number) => {
    let value: unknown = [];
    for (let i = 1; i < levels - 1; i++) value = [value];
    return JSON.stringify({ ...imageCallback('i2is-deep'), extra: value });
  };

  it(`accepts a body ${MAX_JSON_DEPTH} levels deep and refuses one of ${MAX_JSON_DEPTH + 1} with 400`, async () => {
    expect((await post(nested(MAX_JSON_DEPTH))).status).toBe(200);
    const deeper = await post(nested(MAX_JSON_DEPTH + 1));
    expect(deeper.status).toBe(400);
    expect(await deeper.json()).toMatchObject({ code: 100001 });
  });

  it('refuses a body nested 100,000 deep with 400, never 500', async () => {
    const deep = `{"code":0,"task_type":"image_generate","data":{"task_id":"i2is-y","status":"FAILED"},"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const reply = await post(deep);
    expect(reply.status).toBe(400);
  });
});

describe('a kind this backend has no status query for', () => {
  it('keeps the callback as reported by a callback, with links from trusted origins only', async () => {
    await created('video_translate', 'vt-1');
    // A backend without the provider's extras: GET /v1/video_translate/{id} is an unknown path.
    upstream = () =>
      new Response('<html>404</html>', { status: 404, headers: { 'content-type': 'text/html' } });
    await post({
      code: 0,
      task_type: 'video_translate',
      data: {
        task_id: 'vt-1',
        status: 'SUCCEEDED',
        name: 'Japanese-launch',
        language: 'Japanese',
        video_url: `${CDN}/vt-1.mp4`,
        caption_url: 'https://evil.example/vt-1.ass',
        thumbnail_url: 'javascript:alert(1)',
        error_message: '',
      },
    });
    await settle();
    const row = await task('vt-1');
    expect(row).toMatchObject({ status: 'SUCCEEDED', last_source: 'callback', name: 'Japanese-launch' });
    expect(row!.result).toMatchObject({ video_url: `${CDN}/vt-1.mp4` });
    expect(row!.result).not.toHaveProperty('caption_url');
    expect(row!.result).not.toHaveProperty('thumbnail_url');
    expect(await timeline('vt-1')).toEqual([
      ['created', null],
      ['callback', 'SUCCEEDED'],
    ]);
    expect(logged.some((line) => /unconfirmed.*caption_url, thumbnail_url/.test(line))).toBe(true);
  });
});

describe('the secret-free door for signed-in browsers (/__console/callbacks)', () => {
  it('takes a pasted callback like the inbox does, and serves the log', async () => {
    const reply = await post(imageCallback('i2is-pasted'), CONSOLE_CALLBACKS_PATH, {
      'sec-fetch-site': 'same-origin',
    });
    expect(reply.status).toBe(200);
    expect(await reply.json()).toMatchObject({ data: { id: 1, task: 'unknown' } });
    const log = await server.nodeApp.app.request(`${CONSOLE_CALLBACKS_PATH}/log?limit=1`);
    expect(await log.json()).toMatchObject({ data: { total: 1, lastId: 1 } });
  });

  it('refuses a cross-site POST (a page elsewhere driving a signed-in browser)', async () => {
    const reply = await post(imageCallback('i2is-x'), CONSOLE_CALLBACKS_PATH, {
      'sec-fetch-site': 'cross-site',
    });
    expect(reply.status).toBe(403);
    expect(await server.database.db.selectFrom('callbacks').select('id').execute()).toEqual([]);
  });

  it('streams events there, within the same per-session cap, freed when the reader goes', async () => {
    await server.open({ env: { STREAMS_PER_SESSION: '1' } });
    await post(imageCallback('i2is-streamed'));
    const stream = await server.nodeApp.app.request(`${CONSOLE_CALLBACKS_PATH}/events?since=0`);
    expect(stream.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect((await server.nodeApp.app.request(`${CONSOLE_CALLBACKS_PATH}/events`)).status).toBe(429);
    const reader = stream.body!.getReader();
    let text = '';
    while (!text.includes('i2is-streamed')) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    // The slot is freed once the cancel has gone through the stream: a new stream is then let in.
    let next: Response | undefined;
    await vi.waitFor(
      async () => {
        next = await server.nodeApp.app.request(`${CONSOLE_CALLBACKS_PATH}/events`);
        expect(next.status).toBe(200);
      },
      { timeout: 10_000 },
    );
    await next!.body!.cancel();
  });
});

describe('createCallbackHints on its own', () => {
  const body = (id: string) => imageCallback(id) as never;
  const origin = 'https://console.example.com';
  const followRow = (id: string) =>
    server.database.db.selectFrom('task_follows').selectAll().where('task_id', '=', id).executeTakeFirst();

  it('makes a followed task due now and wakes the follower, for each callback', async () => {
    await created('image_generate', 'i2is-r');
    const later = new Date(Date.now() + 3_600_000);
    await server.database.db.updateTable('task_follows').set({ due_at: later }).execute();
    const askSoon = vi.fn();
    const hints = createCallbackHints({
      database: Promise.resolve(server.database),
      askSoon,
      trustedResultUrl: () => false,
      log: () => {},
    });
    const before = Date.now();
    expect(await hints.received(body('i2is-r'), origin)).toBe('checking');
    expect(askSoon).toHaveBeenCalledWith('i2is-r');
    expect((await followRow('i2is-r'))!.due_at!.getTime()).toBeLessThanOrEqual(Date.now());
    expect((await followRow('i2is-r'))!.due_at!.getTime()).toBeGreaterThanOrEqual(before - 1000);
  });

  it('takes the callback at once, unconfirmed, for a task whose kind has no status query here', async () => {
    await created('image_generate', 'i2is-u');
    await server.database.db
      .updateTable('task_follows')
      .set({ due_at: null, ended: 'unavailable' })
      .execute();
    const askSoon = vi.fn();
    const hints = createCallbackHints({
      database: Promise.resolve(server.database),
      askSoon,
      trustedResultUrl: () => false,
      log: () => {},
    });
    expect(await hints.received(body('i2is-u'), origin)).toBe('unconfirmed');
    expect(askSoon).not.toHaveBeenCalled();
    expect(await task('i2is-u')).toMatchObject({ status: 'SUCCEEDED', last_source: 'callback' });
    expect((await task('i2is-u'))!.result).not.toHaveProperty('image_url');
    expect(await followRow('i2is-u')).toBeUndefined();
  });

  it('sends one status query per task however many callbacks arrive', async () => {
    await created('image_generate', 'i2is-a');
    upstream = () => Response.json({ code: 0, msg: 'ok', data: { task_id: 'i2is-a', status: 'SUCCEEDED' } });
    const replies = await Promise.all(Array.from({ length: 50 }, () => post(imageCallback('i2is-a'))));
    expect(new Set(await Promise.all(replies.map(async (reply) => (await reply.json()).data.task)))).toEqual(
      new Set(['checking']),
    );
    await settle();
    expect(sent.filter((request) => request.method === 'GET')).toHaveLength(1);
    expect((await task('i2is-a'))!.status).toBe('SUCCEEDED');
  });

  it('leaves out links of other origins, other schemes and non-links in link fields', () => {
    const trusted = (url: URL) => url.origin === CDN;
    const { data, dropped } = withoutUntrustedLinks(
      {
        task_id: 'x',
        status: 'SUCCEEDED',
        video_url: `${CDN}/a.mp4`,
        image_url: PHISH,
        thumbnail_url: 'javascript:alert(1)',
        caption_url: { href: PHISH },
        extra: 'https://evil.example/x',
        error_message: 'Error: timeout',
        empty_url: '',
      },
      trusted,
    );
    expect(data).toEqual({
      task_id: 'x',
      status: 'SUCCEEDED',
      video_url: `${CDN}/a.mp4`,
      error_message: 'Error: timeout',
      empty_url: '',
    });
    expect(dropped).toEqual(['image_url', 'thumbnail_url', 'caption_url', 'extra']);
  });
});

describe('throttledLog', () => {
  it('writes 20 lines a minute, then counts the rest in one line', () => {
    const lines: string[] = [];
    let time = 0;
    const log = throttledLog(
      (line) => lines.push(line),
      20,
      60_000,
      () => time,
    );
    for (let i = 0; i < 21; i++) log(`line ${i}`);
    expect(lines).toHaveLength(20);
    time = 60_000;
    log('next minute');
    expect(lines.slice(20)).toEqual([
      '[callbacks] … and 1 more such lines in the last 60 s, not written one by one',
      'next minute',
    ]);
  });
});
