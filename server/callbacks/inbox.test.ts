import { sql, type KyselyPlugin } from 'kysely';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCallbackInbox, PAGE_MAX_BYTES, type CallbackInbox } from './inbox';
import {
  imageGenerateCallback,
  imageToVideoCallback,
  videoTranslateCallback,
} from '../testing/callback-fixtures';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { SECRET_FILE } from './secret';
import { CallbackStore } from './store';
import { oversizedChunkedBody } from '../testing/oversized-body';

const SECRET = 'test-secret-0123456789abcdef';
let dataDir: string;
let store: CallbackStore;
let inbox: CallbackInbox;

const open = (options: { dataDir?: string; secret?: string } = {}) => {
  store = new CallbackStore(testDatabase());
  return createCallbackInbox({ dataDir, secret: SECRET, store, ...options });
};

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
const stored = async () =>
  (await testDatabase()).db.selectFrom('callbacks').selectAll().orderBy('id').execute();

beforeEach(async () => {
  await resetTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'inbox-'));
  inbox = open();
});
afterEach(async () => {
  await inbox.close();
  await store.close();
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
    expect((await stored()).map((row) => row.body)).toEqual([body]);
  });

  it('keeps unknown extra fields', async () => {
    const body = {
      ...videoTranslateCallback,
      trace: 'x1',
      data: { ...videoTranslateCallback.data, duration: 8 },
    };
    expect((await postJson(body)).status).toBe(200);
    expect((await inbox.store.since(0))[0]!.body).toEqual(body);
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
    expect(await stored()).toHaveLength(0);
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
    expect(await stored()).toHaveLength(2);
  });

  it('stores concurrent deliveries each once, in order', async () => {
    const bodies = Array.from({ length: 20 }, (_, i) => ({
      ...imageToVideoCallback,
      data: { ...imageToVideoCallback.data, task_id: `i2v-${i}` },
    }));
    await Promise.all([...bodies, ...bodies].map((body) => postJson(body)));
    expect(await stored()).toHaveLength(20);
    expect((await inbox.store.since(0)).map((entry) => entry.id)).toEqual(bodies.map((_, i) => i + 1));
  });
});

describe('durability', () => {
  it('keeps the log across a restart on the same database', async () => {
    await postJson(videoTranslateCallback);
    await postJson(imageGenerateCallback);
    await inbox.close();
    await store.close();
    inbox = open();
    expect((await inbox.store.since(0)).map((entry) => [entry.id, entry.body.data.task_id])).toEqual([
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
    const first = createCallbackInbox({ dataDir: dir, store });
    await first.close();
    const second = createCallbackInbox({ dataDir: dir, store });
    await second.close();
    expect(first.path).toMatch(/^\/callbacks\/[\w-]{43}$/);
    expect(second.path).toBe(first.path);
    expect(readFileSync(join(dir, SECRET_FILE), 'utf8').trim()).toBe(first.path.split('/')[2]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses a CALLBACK_SECRET that would not survive in a URL', () => {
    expect(() => createCallbackInbox({ dataDir, secret: 'short', store })).toThrow(/CALLBACK_SECRET/);
    expect(() => createCallbackInbox({ dataDir, secret: 'has/a/slash/in/it/xx', store })).toThrow(
      /CALLBACK_SECRET/,
    );
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

describe('acknowledged only after the commit', () => {
  it('answers 500 when the store is unusable, so the service delivers again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await inbox.store.close();
    const response = await postJson(videoTranslateCallback);
    expect(response.status).toBe(500);
    expect(await response.json()).toMatchObject({ code: 500 });
    expect(await stored()).toHaveLength(0);
  });

  it('answers 500 and keeps nothing when the commit itself fails', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { db } = await testDatabase();
    // A deferred constraint is checked at COMMIT: the insert succeeds, the commit does not.
    await sql`create function refuse_at_commit() returns trigger language plpgsql as $$
      begin raise exception 'refused at commit'; end $$`.execute(db);
    await sql`create constraint trigger refuse_at_commit after insert on callbacks
      deferrable initially deferred for each row execute function refuse_at_commit()`.execute(db);
    try {
      const response = await postJson(videoTranslateCallback);
      expect(response.status).toBe(500);
      expect(await stored()).toHaveLength(0);
    } finally {
      await sql`drop trigger refuse_at_commit on callbacks`.execute(db);
      await sql`drop function refuse_at_commit()`.execute(db);
    }
    // Delivered again, it is stored and acknowledged.
    expect(await (await postJson(videoTranslateCallback)).json()).toMatchObject({
      data: { duplicate: false },
    });
  });

  it('commits concurrent callbacks together, yet one that cannot be stored fails alone', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { db } = await testDatabase();
    await sql`create function refuse_poison() returns trigger language plpgsql as $$
      begin if new.task_id = 'i2v-poison' then raise exception 'refused'; end if; return null; end $$`.execute(
      db,
    );
    await sql`create constraint trigger refuse_poison after insert on callbacks
      deferrable initially deferred for each row execute function refuse_poison()`.execute(db);
    try {
      const ids = Array.from({ length: 12 }, (_, i) => (i === 5 ? 'i2v-poison' : `i2v-group-${i}`));
      const replies = await Promise.all(
        ids.map((task_id) =>
          postJson({ ...imageToVideoCallback, data: { ...imageToVideoCallback.data, task_id } }),
        ),
      );
      expect(replies.map((reply) => reply.status)).toEqual(
        ids.map((id) => (id === 'i2v-poison' ? 500 : 200)),
      );
      expect((await stored()).map((row) => row.task_id).sort()).toEqual(
        ids.filter((id) => id !== 'i2v-poison').sort(),
      );
    } finally {
      await sql`drop trigger refuse_poison on callbacks`.execute(db);
      await sql`drop function refuse_poison()`.execute(db);
    }
  });

  it('is visible to any reader by the time it is acknowledged', async () => {
    const response = await postJson(imageGenerateCallback);
    const { data } = (await response.json()) as { data: { id: number } };
    // A second store on the same database (another instance) reads it at once.
    const other = new CallbackStore(testDatabase());
    expect((await other.since(0)).map((entry) => entry.id)).toEqual([data.id]);
    await other.close();
  });
});

describe('a large log and a flooding sender (issue: the log must not stop the server)', () => {
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
    inbox = createCallbackInbox({ dataDir, secret: SECRET, ratePerSecond: 2, now: () => now, store });
    // Through a reverse proxy on the same machine (a loopback peer), which names each sender.
    const send = (i: number, ip: string) =>
      inbox.app.request(
        `/callbacks/${SECRET}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
          body: JSON.stringify({
            ...videoTranslateCallback,
            data: { ...videoTranslateCallback.data, task_id: `vt-f${i}` },
          }),
        },
        { incoming: { socket: { remoteAddress: '127.0.0.1' } } },
      );
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

describe('pages of the log are sized as they are read', () => {
  const big = (i: number) => ({
    ...videoTranslateCallback,
    data: { ...videoTranslateCallback.data, task_id: `vt-big-${i}` },
    pad: 'x'.repeat(1_000_000),
  });
  /** Bytes of callback bodies each query brought into this process. */
  function countingStore(loads: number[]) {
    const plugin: KyselyPlugin = {
      transformQuery: ({ node }) => node,
      transformResult: async ({ result }) => {
        const bodies = result.rows.filter((row) => row && typeof row === 'object' && 'body' in row);
        if (bodies.length) loads.push(bodies.reduce((sum, row) => sum + JSON.stringify(row.body).length, 0));
        return result;
      },
    };
    return new CallbackStore(
      testDatabase().then((database) => ({ ...database, db: database.db.withPlugin(plugin) })),
    );
  }

  it('answers /log?limit=500 over 1 MB callbacks within the budget, loading no more than budget + one row', async () => {
    for (let i = 0; i < 6; i++) expect((await postJson(big(i))).status).toBe(200);
    const loads: number[] = [];
    await inbox.close();
    await store.close();
    store = countingStore(loads);
    inbox = createCallbackInbox({ dataDir, secret: SECRET, store });
    const response = await inbox.app.request(`/callbacks/${SECRET}/log?limit=500`);
    const text = await response.text();
    const body = JSON.parse(text) as { data: { total: number; items: { id: number }[] } };
    expect(body.data.total).toBe(6);
    expect(body.data.items.map((item) => item.id)).toEqual([6, 5]);
    expect(text.length).toBeLessThanOrEqual(PAGE_MAX_BYTES);
    // Loaded whole and then trimmed, the page would hold all 6 (500 when there are: ~500 MB).
    expect(loads.length).toBeGreaterThan(0);
    for (const bytes of loads) expect(bytes).toBeLessThanOrEqual(PAGE_MAX_BYTES + 1_000_100);
    // The next page starts where this one stopped.
    const next = await inbox.app.request(`/callbacks/${SECRET}/log?limit=500&before=5`);
    expect(((await next.json()) as typeof body).data.items.map((item) => item.id)).toEqual([4, 3]);
  });

  it('fills a page exactly to its byte budget; one byte less leaves the last callback out', async () => {
    for (let i = 0; i < 3; i++) await postJson(big(i));
    const { db } = await testDatabase();
    const sizes = await db
      .selectFrom('callbacks')
      .select(sql<number>`octet_length(body::text)`.as('bytes'))
      .orderBy('id')
      .execute();
    // What the store counts per row: its body's text and 80 bytes for the id and time around it.
    const row = Number(sizes[0]!.bytes) + 80;
    expect(sizes.every((size) => Number(size.bytes) + 80 === row)).toBe(true);
    const page = (maxBytes: number) =>
      store.page({ limit: 500, maxBytes }).then((result) => result.items.map((item) => item.id));
    expect(await page(2 * row)).toEqual([3, 2]);
    expect(await page(2 * row - 1)).toEqual([3]);
    // A budget below one callback still answers with one: a page is never empty while some remain.
    expect(await page(1)).toEqual([3]);
    expect(await store.since(0, 500, 2 * row).then((items) => items.map((item) => item.id))).toEqual([1, 2]);
    expect(await store.since(0, 500, 2 * row - 1).then((items) => items.map((item) => item.id))).toEqual([1]);
  });
});
