import * as fs from 'node:fs';
import { fstatSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCallbackInbox, PAGE_MAX_BYTES, type CallbackInbox } from './inbox';
import {
  imageGenerateCallback,
  imageToVideoCallback,
  videoTranslateCallback,
} from '../testing/callback-fixtures';
import { SECRET_FILE } from './secret';
import { LOG_FILE } from './store';
import { oversizedChunkedBody } from '../testing/oversized-body';

// The store's sync calls go through spies (passing through to the real ones unless a test says
// otherwise), so a test can hold a sync back or make it fail.
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const spies = { fdatasync: vi.fn(actual.fdatasync), fsync: vi.fn(actual.fsync) };
  return { ...actual, ...spies, default: { ...actual, ...spies } };
});

type SyncCallback = (error: NodeJS.ErrnoException | null) => void;
type SyncImpl = (fd: number, callback: SyncCallback) => void;
const syncSpies = () =>
  [vi.mocked(fs.fdatasync), vi.mocked(fs.fsync)] as unknown as ReturnType<typeof vi.fn<SyncImpl>>[];

const SECRET = 'test-secret-0123456789abcdef';
let dataDir: string;
let inbox: CallbackInbox;

const open = () => createCallbackInbox({ dataDir, secret: SECRET });

function post(
  body: BodyInit,
  init: { secret?: string; type?: string; headers?: Record<string, string> } = {},
) {
  return inbox.app.request(`/callbacks/${init.secret ?? SECRET}`, {
    method: 'POST',
    headers: { 'content-type': init.type ?? 'application/json', ...init.headers },
    body,
  });
}
const postJson = (value: unknown) => post(JSON.stringify(value));
const logLines = () => readFileSync(join(dataDir, LOG_FILE), 'utf8').split('\n').filter(Boolean);

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'inbox-'));
  inbox = open();
});
afterEach(async () => {
  await inbox.close();
  for (const spy of syncSpies()) spy.mockReset(); // back to the real call
  vi.restoreAllMocks();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('POST /callbacks/<secret>', () => {
  it('cuts a chunked body off at 1 MB while it streams, never reading it whole', async () => {
    const attack = oversizedChunkedBody();
    const response = await inbox.app.request(`/callbacks/${SECRET}`, {
      ...attack.init,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(413);
    expect(attack.pulledBytes()).toBeLessThan(2 * 1024 * 1024);
  });

  it.each([
    ['video_translate', videoTranslateCallback],
    ['image_to_video', imageToVideoCallback],
    ['image_generate', imageGenerateCallback],
  ])('accepts the %s form and stores it before answering', async (_name, body) => {
    const response = await postJson(body);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ code: 0, msg: 'ok', data: { id: 1, duplicate: false } });
    expect(logLines()).toHaveLength(1);
    expect(JSON.parse(logLines()[0]!).body).toEqual(body);
  });

  it('keeps unknown extra fields', async () => {
    const body = {
      ...videoTranslateCallback,
      trace: 'x1',
      data: { ...videoTranslateCallback.data, duration: 8 },
    };
    expect((await postJson(body)).status).toBe(200);
    expect(inbox.store.since(0)[0]!.body).toEqual(body);
  });

  it('accepts a JSON content type with a charset', async () => {
    expect(
      (await post(JSON.stringify(imageToVideoCallback), { type: 'application/json; charset=utf-8' })).status,
    ).toBe(200);
  });

  it.each([
    ['bad JSON', () => post('{"code":0,'), 400, 'The body is not valid JSON'],
    [
      'a non-JSON content type',
      () => post(JSON.stringify(videoTranslateCallback), { type: 'text/plain' }),
      415,
      'Content-Type',
    ],
    ['a form body', () => post('code=0', { type: 'application/x-www-form-urlencoded' }), 415, 'Content-Type'],
    [
      'an oversized body',
      () => postJson({ ...videoTranslateCallback, pad: 'x'.repeat(1024 * 1024) }),
      413,
      '1 MB',
    ],
    [
      'a wrong secret',
      () => post(JSON.stringify(videoTranslateCallback), { secret: 'not-the-secret-000000' }),
      404,
      'Not found',
    ],
    [
      'a wrong status type',
      () => postJson({ ...videoTranslateCallback, data: { ...videoTranslateCallback.data, status: 1 } }),
      400,
      'data.status',
    ],
    [
      'a status that is not terminal',
      () =>
        postJson({ ...imageToVideoCallback, data: { ...imageToVideoCallback.data, status: 'PROCESSING' } }),
      400,
      'data.status',
    ],
    [
      'a missing task id',
      () => postJson({ ...imageGenerateCallback, data: { status: 'SUCCEEDED' } }),
      400,
      'data.task_id',
    ],
    ['a string code', () => postJson({ ...imageGenerateCallback, code: '0' }), 400, 'code'],
    [
      'an unknown task type',
      () => postJson({ ...imageGenerateCallback, task_type: 'text_to_speech' }),
      400,
      'task_type must be one of',
    ],
    ['a JSON array', () => postJson([videoTranslateCallback]), 400, 'task_type'],
  ])('refuses %s with an envelope and stores nothing', async (_name, send, status, message) => {
    const response = await send();
    expect(response.status).toBe(status);
    const body = (await response.json()) as { code: number; msg: string };
    expect(body.code).not.toBe(0);
    expect(body.msg).toContain(message);
    expect(logLines()).toHaveLength(0);
    expect(inbox.store.size).toBe(0);
  });

  it('answers 404 without the secret', async () => {
    for (const path of ['/callbacks', '/callbacks/', '/callbacks/x/events']) {
      const response = await inbox.app.request(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(response.status, path).toBe(404);
    }
    expect((await inbox.app.request('/callbacks/wrong-secret-123456789/log')).status).toBe(404);
  });

  it('stores a duplicate delivery once, whatever its key order', async () => {
    const first = await postJson(videoTranslateCallback);
    const { data, ...rest } = videoTranslateCallback;
    const reordered = { data: Object.fromEntries(Object.entries(data).reverse()), ...rest };
    const second = await postJson(reordered);
    expect(await first.json()).toMatchObject({ data: { id: 1, duplicate: false } });
    expect(await second.json()).toMatchObject({ data: { id: 1, duplicate: true } });
    // Same task and status but a different body is a different callback.
    await postJson({ ...videoTranslateCallback, msg: 'resent' });
    expect(logLines()).toHaveLength(2);
  });

  it('stores concurrent deliveries each once, in order', async () => {
    const bodies = Array.from({ length: 20 }, (_, i) => ({
      ...imageToVideoCallback,
      data: { ...imageToVideoCallback.data, task_id: `i2v-${i}` },
    }));
    await Promise.all([...bodies, ...bodies].map((body) => postJson(body)));
    expect(logLines()).toHaveLength(20);
    expect(inbox.store.since(0).map((entry) => entry.id)).toEqual(bodies.map((_, i) => i + 1));
  });
});

describe('durability', () => {
  it('keeps the log across a restart on the same DATA_DIR', async () => {
    await postJson(videoTranslateCallback);
    await postJson(imageGenerateCallback);
    await inbox.close();
    inbox = open();
    expect(inbox.store.since(0).map((entry) => [entry.id, entry.body.data.task_id])).toEqual([
      [1, 'vt-1001'],
      [2, 'i2is-3003'],
    ]);
    // Still idempotent after the restart, and new ids continue after the old ones.
    expect(await (await postJson(videoTranslateCallback)).json()).toMatchObject({
      data: { id: 1, duplicate: true },
    });
    expect(await (await postJson(imageToVideoCallback)).json()).toMatchObject({
      data: { id: 3, duplicate: false },
    });
  });

  it('makes a secret once and keeps it in DATA_DIR', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'inbox-secret-'));
    const first = createCallbackInbox({ dataDir: dir });
    await first.close();
    const second = createCallbackInbox({ dataDir: dir });
    await second.close();
    expect(first.path).toMatch(/^\/callbacks\/[\w-]{43}$/);
    expect(second.path).toBe(first.path);
    expect(readFileSync(join(dir, SECRET_FILE), 'utf8').trim()).toBe(first.path.split('/')[2]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a CALLBACK_SECRET that would not survive in a URL', () => {
    expect(() => createCallbackInbox({ dataDir, secret: 'short' })).toThrow(/CALLBACK_SECRET/);
    expect(() => createCallbackInbox({ dataDir, secret: 'has/a/slash/in/it/xx' })).toThrow(/CALLBACK_SECRET/);
  });
});

describe('GET /callbacks/<secret>/log', () => {
  it('lists newest first, in pages', async () => {
    for (const body of [videoTranslateCallback, imageToVideoCallback, imageGenerateCallback])
      await postJson(body);
    const first = (await (await inbox.app.request(`/callbacks/${SECRET}/log?limit=2`)).json()) as {
      data: { total: number; items: { id: number }[] };
    };
    expect(first.data.total).toBe(3);
    expect(first.data.items.map((item) => item.id)).toEqual([3, 2]);
    const older = (await (
      await inbox.app.request(`/callbacks/${SECRET}/log?limit=2&before=2`)
    ).json()) as typeof first;
    expect(older.data.items.map((item) => item.id)).toEqual([1]);
  });

  it('finds the callbacks of one task by part of its id', async () => {
    for (const body of [videoTranslateCallback, imageToVideoCallback, imageGenerateCallback])
      await postJson(body);
    const found = (await (await inbox.app.request(`/callbacks/${SECRET}/log?task=2002`)).json()) as {
      data: { total: number; items: { id: number }[] };
    };
    expect(found.data.total).toBe(1);
    expect(found.data.items.map((item) => item.id)).toEqual([2]);
  });
});

describe('when the log cannot be written', () => {
  it('answers 500 so the service delivers again, and stores nothing', async () => {
    await inbox.store.close();
    const response = await postJson(videoTranslateCallback);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ code: 500 });
    expect(logLines()).toHaveLength(0);
  });
});

describe('fsync before the 200 reply', () => {
  /** Makes the store's sync call (fdatasync or fsync, whichever it uses) run `impl` instead, once. */
  function interceptSync(impl: SyncImpl) {
    const calls: number[] = [];
    for (const spy of syncSpies()) {
      const original = spy.getMockImplementation()!;
      spy.mockImplementation((fd, callback) => {
        calls.push(fd);
        spy.mockImplementation(original);
        impl(fd, callback);
      });
    }
    return calls;
  }
  const actualSync = async () => (await vi.importActual<typeof import('node:fs')>('node:fs')).fdatasync;

  it('writes the line, syncs it, and only then answers 200', async () => {
    const realSync = await actualSync();
    const events: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const calls = interceptSync((fd, callback) => {
      events.push(`sync started with ${logLines().length} line(s) in the file`);
      void released.then(() =>
        realSync(fd, (error) => {
          events.push('sync done');
          callback(error);
        }),
      );
    });

    const answer = Promise.resolve(postJson(videoTranslateCallback)).then((response) => {
      events.push('answered');
      return response;
    });
    await vi.waitFor(() => expect(events).toHaveLength(1));
    // Held at the sync: the line is written but no reply has gone out.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual(['sync started with 1 line(s) in the file']);

    release();
    const response = await answer;
    expect(response.status).toBe(200);
    expect(events).toEqual(['sync started with 1 line(s) in the file', 'sync done', 'answered']);
    // It synced the log file itself.
    expect(calls).toHaveLength(1);
    expect(fstatSync(calls[0]!).ino).toBe(statSync(join(dataDir, LOG_FILE)).ino);
  });

  it('syncs every stored callback, but not a duplicate', async () => {
    const spies = syncSpies();
    const syncs = () => spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
    expect((await postJson(videoTranslateCallback)).status).toBe(200);
    expect(syncs()).toBe(1);
    expect((await postJson(imageGenerateCallback)).status).toBe(200);
    expect(syncs()).toBe(2);
    expect(await (await postJson(imageGenerateCallback)).json()).toMatchObject({ data: { duplicate: true } });
    expect(syncs()).toBe(2);
  });

  it('does not answer 200 when the sync fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    interceptSync((_fd, callback) =>
      callback(Object.assign(new Error('EIO: i/o error, fdatasync'), { code: 'EIO', errno: -5 })),
    );
    const response = await postJson(videoTranslateCallback);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ code: 500 });
  });
});

describe('a large log and a flooding sender (issue: the log must not stop the server)', () => {
  it('starts on a log too large to hold as one string, reading it a chunk at a time', async () => {
    await inbox.close();
    // 2,000 callbacks of ~5 KB each: ~10 MB on disk.
    const lines = Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({
        receivedAt: new Date(0).toISOString(),
        key: `k${i}`,
        body: {
          ...videoTranslateCallback,
          data: { ...videoTranslateCallback.data, task_id: `vt-${i}` },
          pad: 'x'.repeat(5000),
        },
      }),
    );
    fs.writeFileSync(join(dataDir, LOG_FILE), `${lines.join('\n')}\n`);
    // V8 refuses strings beyond ~512 MB; the same failure, scaled down: no 4 MB string.
    const toString = Buffer.prototype.toString;
    const spy = vi.spyOn(Buffer.prototype, 'toString').mockImplementation(function (this: Buffer, ...args) {
      if (this.length > 4 * 1024 * 1024)
        throw new Error('Cannot create a string longer than 4 MB (simulated)');
      return toString.apply(this, args as Parameters<Buffer['toString']>);
    });
    try {
      inbox = open();
    } finally {
      spy.mockRestore();
    }
    expect(inbox.store.size).toBe(2000);
    expect(inbox.store.lastId).toBe(2000);
  });

  it('caps a page of the log by size, whatever limit asks for', async () => {
    for (let i = 0; i < 6; i++)
      await postJson({
        ...videoTranslateCallback,
        data: { ...videoTranslateCallback.data, task_id: `vt-big-${i}` },
        pad: 'x'.repeat(900 * 1024),
      });
    const response = await inbox.app.request(`/callbacks/${SECRET}/log?limit=500`);
    const text = await response.text();
    const body = JSON.parse(text) as { data: { total: number; items: unknown[] } };
    expect(body.data.total).toBe(6);
    expect(body.data.items.length).toBeGreaterThanOrEqual(1);
    expect(body.data.items.length).toBeLessThan(6);
    expect(text.length).toBeLessThan(PAGE_MAX_BYTES + 1024 * 1024);
  });

  it('brakes one sender that floods the inbox, with Retry-After, while others get through', async () => {
    await inbox.close();
    let now = 1_000_000;
    inbox = createCallbackInbox({ dataDir, secret: SECRET, ratePerSecond: 2, now: () => now });
    const send = (i: number, ip: string) =>
      inbox.app.request(`/callbacks/${SECRET}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({
          ...videoTranslateCallback,
          data: { ...videoTranslateCallback.data, task_id: `vt-f${i}` },
        }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++) statuses.push((await send(i, '198.51.100.7')).status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(20); // the burst: 10 × 2/s
    const braked = await send(99, '198.51.100.7');
    expect(braked.status).toBe(429);
    expect(Number(braked.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await send(100, '203.0.113.8')).status).toBe(200);
    now += 1000;
    expect((await send(101, '198.51.100.7')).status).toBe(200);
  });
});
