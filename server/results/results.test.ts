// Results kept in the team's own storage: a succeeded task's files are copied once, through the
// outbound guard, into the store, and served from the console's origin (ranges, caching, inert
// types). The service is played by an in-memory network behind the real guard; the store is the
// disk one here, S3 (a real S3-compatible server) in s3-store.test.ts.
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { TaskType } from '../../src/api/schemas';
import { createGuardedFetch } from '../proxy/outbound';
import { applyStatus } from '../tasks/recorder';
import { asPerson } from '../testing/identity';
import { testNodeApp, TEST_ORIGIN as ORIGIN } from '../testing/test-node-app';
import { createCopyJob, defaultBackoffMs, type CopyJobOptions } from './copy-job';
import { createDiskStore, RESULTS_FOLDER } from './disk-store';
import { copiesOf } from './routes';
import { keyFor, type ResultStore } from './store';

const ASSETS = new URL('../emulator/assets/', import.meta.url);
const VIDEO = new Uint8Array(readFileSync(new URL('video-16x9.mp4', ASSETS)));
const THUMB = new Uint8Array(readFileSync(new URL('thumb-16x9.jpg', ASSETS)));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const server = testNodeApp('results-test');
const { dataDir } = server;
let store: ResultStore;

/** The service's file host: what each URL answers, and every URL the guard let through. */
let files: Map<string, () => Response>;
let fetched: string[];
const network = createGuardedFetch({
  transport: async (url) => {
    fetched.push(url.href);
    const answer = files.get(url.href);
    return answer ? answer() : new Response('not found', { status: 404 });
  },
});
const bytes =
  (body: Uint8Array, type = 'application/octet-stream') =>
  () =>
    new Response(body.slice(), { headers: { 'content-type': type, 'content-length': String(body.length) } });

function job(options: Partial<CopyJobOptions> = {}) {
  return createCopyJob({
    database: Promise.resolve(server.database),
    store: Promise.resolve(store),
    fetch: network,
    maxBytes: 10 * 1024 * 1024,
    log: () => {},
    ...options,
  });
}

beforeEach(async () => {
  store = await createDiskStore(dataDir);
  files = new Map();
  fetched = [];
  await server.open({ options: { resultStore: store } });
});
afterEach(() => server.close());
afterAll(server.remove);

async function succeed(id: string, result: Record<string, unknown>, kind: TaskType = 'image_to_video') {
  await server.database.db
    .transaction()
    .execute((trx) => applyStatus(trx, kind, id, { task_id: id, status: 'SUCCEEDED', ...result }, 'poll'));
}

const rows = () =>
  server.database.db.selectFrom('result_copies').selectAll().orderBy('task_id').orderBy('role').execute();

const get = (
  path: string,
  headers: Record<string, string> = {},
  role: 'viewer' | 'creator' | 'admin' = 'viewer',
) => server.nodeApp.app.request(`${ORIGIN}${path}`, { headers }, asPerson('Vera', role));

const body = async (response: Response) => new Uint8Array(await response.arrayBuffer());

describe('keeping a succeeded task’s files', () => {
  it('copies each file once and serves it byte-identical from the console', async () => {
    files.set('https://media.example.com/v.mp4', bytes(VIDEO, 'video/mp4'));
    files.set('https://media.example.com/t.jpg', bytes(THUMB, 'image/jpeg'));
    await succeed('i2v-one', {
      video_url: 'https://media.example.com/v.mp4',
      thumbnail_url: 'https://media.example.com/t.jpg',
    });
    // The same answer again (a second poll, a callback): still one row per file.
    await succeed('i2v-one', {
      video_url: 'https://media.example.com/v.mp4',
      thumbnail_url: 'https://media.example.com/t.jpg',
    });
    expect((await rows()).map((row) => [row.role, row.state])).toEqual([
      ['thumbnail', 'queued'],
      ['video', 'queued'],
    ]);
    await job().drain();
    await job().drain();
    expect(fetched.sort()).toEqual(['https://media.example.com/t.jpg', 'https://media.example.com/v.mp4']);
    const [thumbnail, video] = await rows();
    expect(video).toMatchObject({
      state: 'kept',
      attempts: 1,
      sha256: sha256(VIDEO),
      content_type: 'video/mp4',
    });
    expect(Number(video!.size)).toBe(VIDEO.length);
    expect(thumbnail).toMatchObject({ state: 'kept', sha256: sha256(THUMB), content_type: 'image/jpeg' });

    const served = await get('/__console/results/i2v-one/video/0');
    expect(served.status).toBe(200);
    expect(await body(served)).toEqual(VIDEO);
    expect(served.headers.get('content-type')).toBe('video/mp4');
    expect(served.headers.get('etag')).toBe(`"${sha256(VIDEO)}"`);
    expect(served.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(served.headers.get('accept-ranges')).toBe('bytes');
    expect(served.headers.get('content-disposition')).toBeNull();
    const again = await get('/__console/results/i2v-one/video/0', { 'if-none-match': `"${sha256(VIDEO)}"` });
    expect(again.status).toBe(304);

    // The task's view says where its files are; the download route serves the kept copy.
    const view = (await (await get('/__console/tasks/i2v-one')).json()) as {
      data: { task: { copies?: { kept: Record<string, string> } } };
    };
    expect(view.data.task.copies?.kept).toEqual({
      video: '/__console/results/i2v-one/video/0',
      thumbnail: '/__console/results/i2v-one/thumbnail/0',
    });
    const download = await get('/__console/tasks/i2v-one/download/result');
    expect(download.status).toBe(200);
    expect(await body(download)).toEqual(VIDEO);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment; filename=/);
    expect(fetched).toHaveLength(2);
  });

  it('answers a range request with 206 and exactly those bytes (a video seeks)', async () => {
    files.set('https://media.example.com/v.mp4', bytes(VIDEO));
    await succeed('i2v-seek', { video_url: 'https://media.example.com/v.mp4' });
    await job().drain();
    const path = '/__console/results/i2v-seek/video/0';
    const middle = await get(path, { range: 'bytes=1000-1999' });
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe(`bytes 1000-1999/${VIDEO.length}`);
    expect(middle.headers.get('content-length')).toBe('1000');
    expect(await body(middle)).toEqual(VIDEO.slice(1000, 2000));
    const tail = await get(path, { range: 'bytes=-100' });
    expect(tail.status).toBe(206);
    expect(await body(tail)).toEqual(VIDEO.slice(-100));
    const open = await get(path, { range: `bytes=${VIDEO.length - 10}-` });
    expect(await body(open)).toEqual(VIDEO.slice(-10));
    // The last byte alone (a range of one byte, at the end) is served; one past the end is a 416.
    const last = await get(path, { range: `bytes=${VIDEO.length - 1}-` });
    expect(last.status).toBe(206);
    expect(last.headers.get('content-range')).toBe(
      `bytes ${VIDEO.length - 1}-${VIDEO.length - 1}/${VIDEO.length}`,
    );
    expect(await body(last)).toEqual(VIDEO.slice(-1));
    const first = await get(path, { range: 'bytes=0-0' });
    expect(first.status).toBe(206);
    expect(await body(first)).toEqual(VIDEO.slice(0, 1));
    const beyond = await get(path, { range: `bytes=${VIDEO.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${VIDEO.length}`);
    const bounded = await get(path, { range: `bytes=${VIDEO.length}-${VIDEO.length + 10}` });
    expect(bounded.status).toBe(416);
    // If-Range with another validator: the whole file.
    const changed = await get(path, { range: 'bytes=0-9', 'if-range': '"other"' });
    expect(changed.status).toBe(200);
    expect((await body(changed)).length).toBe(VIDEO.length);
  });

  it('serves a disguised HTML result inert: octet-stream, attachment, sandboxing CSP, nosniff', async () => {
    const page = new TextEncoder().encode(
      '<!doctype html><html><script>alert(document.cookie)</script></html>',
    );
    files.set('https://media.example.com/x.png', bytes(page, 'image/png'));
    const svg = new TextEncoder().encode(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    files.set('https://media.example.com/t.png', bytes(svg, 'image/png'));
    const captions = new TextEncoder().encode('<html><body onload="alert(1)">1</body></html>');
    files.set('https://media.example.com/c.ass', bytes(captions, 'text/plain'));
    await succeed(
      'i2is-html',
      { image_url: 'https://media.example.com/x.png', thumbnail_url: 'https://media.example.com/t.png' },
      'image_generate',
    );
    await succeed(
      'vt-html',
      { video_url: '', caption_url: 'https://media.example.com/c.ass' },
      'video_translate',
    );
    await job().drain();
    for (const path of ['/__console/results/i2is-html/image/0', '/__console/results/vt-html/caption/0']) {
      const served = await get(path);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('application/octet-stream');
      expect(served.headers.get('content-disposition')).toMatch(/^attachment/);
      expect(served.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    }
    // An SVG image shows in <img> but, opened on its own, downloads, sandboxed.
    const image = await get('/__console/results/i2is-html/thumbnail/0');
    expect(image.headers.get('content-type')).toBe('image/svg+xml');
    expect(image.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(image.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
  });

  it('types a real caption file as text and lets captions only be text', async () => {
    files.set(
      'https://media.example.com/c.ass',
      bytes(new TextEncoder().encode('[Script Info]\nTitle: x\n')),
    );
    files.set('https://media.example.com/v.mp4', bytes(new TextEncoder().encode('just text')));
    await succeed(
      'vt-text',
      { video_url: 'https://media.example.com/v.mp4', caption_url: 'https://media.example.com/c.ass' },
      'video_translate',
    );
    await job().drain();
    expect((await get('/__console/results/vt-text/caption/0')).headers.get('content-type')).toBe(
      'text/x-ssa; charset=utf-8',
    );
    expect((await get('/__console/results/vt-text/video/0')).headers.get('content-type')).toBe(
      'application/octet-stream',
    );
  });

  it('never fetches a result link pointing at loopback or the metadata address', async () => {
    await succeed('i2v-local', {
      video_url: 'http://127.0.0.1:8080/admin.mp4',
      thumbnail_url: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    });
    await succeed('i2v-v6', { video_url: 'http://[::1]/x.mp4' });
    await job().drain();
    expect(fetched).toEqual([]);
    const found = await rows();
    expect(found).toHaveLength(3);
    for (const row of found) {
      expect(row).toMatchObject({ state: 'failed', attempts: 1, store_key: null });
      expect(row.error).toMatch(/outbound guard/);
    }
    expect((await get('/__console/results/i2v-local/video/0')).status).toBe(404);
  });

  it('retries with exponential backoff when the service answers 500', async () => {
    let failures = 2;
    files.set('https://media.example.com/v.mp4', () =>
      failures-- > 0 ? new Response('busy', { status: 500 }) : bytes(VIDEO)(),
    );
    await succeed('i2v-500', { video_url: 'https://media.example.com/v.mp4' });
    const worker = job({ backoffMs: (attempts) => 30_000 * 2 ** (attempts - 1) });
    const delay = async () => {
      const row = (await rows())[0]!;
      return { row, seconds: Math.round((row.next_attempt_at.getTime() - row.updated_at.getTime()) / 1000) };
    };
    const due = () => sql`update result_copies set next_attempt_at = now()`.execute(server.database.db);
    await worker.drain();
    let state = await delay();
    expect(state.row).toMatchObject({ state: 'queued', attempts: 1, error: 'the service answered HTTP 500' });
    expect(state.seconds).toBe(30);
    // Not due yet: nothing is fetched.
    await worker.drain();
    expect(fetched).toHaveLength(1);
    await due();
    await worker.drain();
    state = await delay();
    expect(state.row).toMatchObject({ state: 'queued', attempts: 2 });
    expect(state.seconds).toBe(60);
    await due();
    await worker.drain();
    expect((await rows())[0]).toMatchObject({
      state: 'kept',
      attempts: 3,
      error: null,
      sha256: sha256(VIDEO),
    });
    expect(fetched).toHaveLength(3);
  });

  it('retries a 429 and a 408 from a result link (busy, not gone), with the default backoff of 30 s', async () => {
    const answers = [429, 408];
    files.set('https://media.example.com/v.mp4', () => {
      const status = answers.shift();
      return status ? new Response('slow down', { status }) : bytes(VIDEO)();
    });
    await succeed('i2v-429', { video_url: 'https://media.example.com/v.mp4' });
    const worker = job();
    const due = () => sql`update result_copies set next_attempt_at = now()`.execute(server.database.db);
    await worker.drain();
    const row = (await rows())[0]!;
    expect(row).toMatchObject({ state: 'queued', attempts: 1, error: 'the service answered HTTP 429' });
    expect(Math.round((row.next_attempt_at.getTime() - row.updated_at.getTime()) / 1000)).toBe(30);
    await due();
    await worker.drain();
    expect((await rows())[0]).toMatchObject({
      state: 'queued',
      attempts: 2,
      error: 'the service answered HTTP 408',
    });
    await due();
    await worker.drain();
    expect((await rows())[0]).toMatchObject({ state: 'kept', attempts: 3 });
  });

  it('backs off by default 30 s after the first failure, doubling, and at most 6 hours', () => {
    expect([1, 2, 3, 4].map(defaultBackoffMs)).toEqual([30_000, 60_000, 120_000, 240_000]);
    // 30 s × 2^9 = 4 h 16 min is under the cap; the next would be 8 h 32 min: 6 h, and from then on.
    expect(defaultBackoffMs(10)).toBe(30_000 * 512);
    expect(defaultBackoffMs(11)).toBe(6 * 3600 * 1000);
    expect(defaultBackoffMs(40)).toBe(6 * 3600 * 1000);
  });

  it('gives up after the last attempt, and on a 404 at once', async () => {
    files.set('https://media.example.com/busy.mp4', () => new Response('busy', { status: 503 }));
    await succeed('i2v-busy', {
      video_url: 'https://media.example.com/busy.mp4',
      thumbnail_url: 'https://media.example.com/gone.jpg',
    });
    await job({ backoffMs: () => 0, maxAttempts: 3 }).drain();
    const [gone, busy] = await rows();
    expect(busy).toMatchObject({ state: 'failed', attempts: 3, error: 'the service answered HTTP 503' });
    expect(gone).toMatchObject({ state: 'failed', attempts: 1, error: 'the service answered HTTP 404' });
  });

  it('refuses a file over the size cap', async () => {
    files.set('https://media.example.com/v.mp4', bytes(VIDEO));
    await succeed('i2v-big', { video_url: 'https://media.example.com/v.mp4' });
    await job({ maxBytes: 1000 }).drain();
    expect((await rows())[0]).toMatchObject({ state: 'failed', store_key: null });
    expect((await rows())[0]!.error).toMatch(/larger than the 1000-byte limit/);
  });
});

describe('a copy cut short', () => {
  it('is finished by the next worker start when a crash left it copying past its lease', async () => {
    files.set('https://media.example.com/v.mp4', bytes(VIDEO));
    await succeed('i2v-crash', { video_url: 'https://media.example.com/v.mp4' });
    // What a process that died mid-copy leaves: the row taken, its lease run out, half a file.
    await sql`update result_copies set state = 'copying', attempts = 1,
      lease_until = now() - interval '1 second'`.execute(server.database.db);
    writeFileSync(join(dataDir, RESULTS_FOLDER, '.partial', 'half'), VIDEO.slice(0, 1000));
    store = await createDiskStore(dataDir);
    await job().drain();
    expect((await rows())[0]).toMatchObject({ state: 'kept', attempts: 2, sha256: sha256(VIDEO) });
    expect(await body(await get('/__console/results/i2v-crash/video/0'))).toEqual(VIDEO);
    expect(
      readFileSync(join(dataDir, RESULTS_FOLDER, ...keyFor('i2v-crash', 'video', 0).split('/'))),
    ).toEqual(Buffer.from(VIDEO));
  });

  it('leaves a row whose lease is still held to its worker', async () => {
    files.set('https://media.example.com/v.mp4', bytes(VIDEO));
    await succeed('i2v-held', { video_url: 'https://media.example.com/v.mp4' });
    await sql`update result_copies set state = 'copying', attempts = 1,
      lease_until = now() + interval '1 minute'`.execute(server.database.db);
    await job().drain();
    expect(fetched).toEqual([]);
    expect((await rows())[0]).toMatchObject({ state: 'copying', attempts: 1 });
  });

  it('is copied again whole when the stream breaks mid-way, byte-identical', async () => {
    let calls = 0;
    files.set('https://media.example.com/v.mp4', () => {
      calls++;
      if (calls > 1) return bytes(VIDEO)();
      let sent = false;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent) return controller.error(new Error('connection reset'));
          sent = true;
          controller.enqueue(VIDEO.slice(0, VIDEO.length / 2));
        },
      });
      return new Response(stream, { headers: { 'content-length': String(VIDEO.length) } });
    });
    await succeed('i2v-cut', { video_url: 'https://media.example.com/v.mp4' });
    const worker = job({ backoffMs: () => 0 });
    await worker.drain();
    expect(calls).toBe(2);
    expect((await rows())[0]).toMatchObject({ state: 'kept', attempts: 2, sha256: sha256(VIDEO) });
    expect(await body(await get('/__console/results/i2v-cut/video/0'))).toEqual(VIDEO);
  });

  it('goes back to the queue, its attempt not counted, when the console stops mid-copy', async () => {
    const started = new Promise<void>((resolve) => {
      files.set('https://media.example.com/v.mp4', () => {
        resolve();
        return new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              // …and then nothing more: the copy is under way when the console stops.
              controller.enqueue(VIDEO.slice(0, 100));
            },
          }),
        );
      });
    });
    await succeed('i2v-stop', { video_url: 'https://media.example.com/v.mp4' });
    const worker = job();
    const draining = worker.drain();
    await started;
    await worker.close();
    await draining;
    expect((await rows())[0]).toMatchObject({ state: 'queued', attempts: 0, store_key: null });
    files.set('https://media.example.com/v.mp4', bytes(VIDEO));
    await job().drain();
    expect((await rows())[0]).toMatchObject({ state: 'kept', attempts: 1, sha256: sha256(VIDEO) });
  });
});

describe('storage used', () => {
  it('tells an admin what is kept (in total, per kind, person and role) and what waits', async () => {
    files.set('https://media.example.com/v.mp4', bytes(VIDEO));
    files.set('https://media.example.com/t.jpg', bytes(THUMB));
    await succeed('i2v-usage', {
      video_url: 'https://media.example.com/v.mp4',
      thumbnail_url: 'https://media.example.com/t.jpg',
    });
    await server.database.db
      .updateTable('tasks')
      .set({ creator: 'Ana' })
      .where('id', '=', 'i2v-usage')
      .execute();
    await succeed('i2v-waits', { video_url: 'http://127.0.0.1/x.mp4' });
    await job().drain();
    await succeed('i2v-later', { video_url: 'https://media.example.com/later.mp4' });
    const answer = await get('/__console/storage', {}, 'admin');
    expect(answer.status).toBe(200);
    const { data } = (await answer.json()) as { data: Record<string, unknown> };
    const total = VIDEO.length + THUMB.length;
    expect(data).toEqual({
      store: 'disk',
      kept: { files: 2, bytes: total },
      byKind: [{ kind: 'image_to_video', files: 2, bytes: total }],
      byPerson: [{ creator: 'Ana', files: 2, bytes: total }],
      byRole: [
        { role: 'video', files: 1, bytes: VIDEO.length },
        { role: 'thumbnail', files: 1, bytes: THUMB.length },
      ],
      states: { queued: 1, copying: 0, kept: 2, failed: 1, expired: 0 },
    });
    expect((await get('/__console/storage', {}, 'creator')).status).toBe(403);
  });
});

describe('removing kept files', () => {
  it('removes files kept longer than RESULTS_KEEP_DAYS from the store, never copying them again', async () => {
    files.set('https://media.example.com/v.mp4', bytes(VIDEO));
    await succeed('i2v-keep', { video_url: 'https://media.example.com/v.mp4' });
    const worker = job({ keepDays: 30 });
    await worker.drain();
    expect(await worker.prune()).toBe(0);
    await sql`update result_copies set kept_at = now() - interval '31 days'`.execute(server.database.db);
    expect(await worker.prune()).toBe(1);
    expect((await rows())[0]).toMatchObject({ state: 'expired', store_key: null });
    expect((await rows())[0]!.error).toMatch(/RESULTS_KEEP_DAYS/);
    expect(await store.get(keyFor('i2v-keep', 'video', 0))).toBeUndefined();
    expect((await get('/__console/results/i2v-keep/video/0')).status).toBe(404);
    // The task's record says the team's retention removed it (not that it could not be copied).
    const copies = (await copiesOf(server.database.db, ['i2v-keep'])).get('i2v-keep');
    expect(copies).toMatchObject({ kept: {}, lost: [], removed: { video: { days: 30 } } });
    expect(await worker.backfill()).toBe(0);
    await worker.drain();
    expect(fetched).toHaveLength(1);
  });

  it("lets an admin remove a task's kept files, and writes it in the audit log", async () => {
    files.set('https://media.example.com/v.mp4', bytes(VIDEO));
    files.set('https://media.example.com/t.jpg', bytes(THUMB));
    await succeed('i2v-remove', {
      video_url: 'https://media.example.com/v.mp4',
      thumbnail_url: 'https://media.example.com/t.jpg',
    });
    await job().drain();
    const remove = (role: 'creator' | 'admin') =>
      server.nodeApp.app.request(
        `${ORIGIN}/__console/results/i2v-remove`,
        { method: 'DELETE' },
        asPerson('Ada', role),
      );
    expect((await remove('creator')).status).toBe(403);
    expect((await rows()).map((row) => row.state)).toEqual(['kept', 'kept']);
    const answer = await remove('admin');
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { data: { removed: number } }).data.removed).toBe(2);
    expect((await rows()).map((row) => row.state)).toEqual(['expired', 'expired']);
    const copies = (await copiesOf(server.database.db, ['i2v-remove'])).get('i2v-remove');
    expect(copies?.lost).toEqual([]);
    expect(copies?.removed?.video).toEqual({ at: expect.any(Number) });
    expect(await store.get(keyFor('i2v-remove', 'video', 0))).toBeUndefined();
    const [entry] = await server.nodeApp.identity.listAudit({ action: 'results.remove' });
    expect(entry).toMatchObject({ actorName: 'Ada', target: 'i2v-remove' });
  });
});

describe('the backfill', () => {
  it('queues succeeded tasks whose links still work, and marks older ones expired', async () => {
    const day = 24 * 3600 * 1000;
    const insert = (id: string, finishedDaysAgo: number) =>
      server.database.db
        .insertInto('tasks')
        .values({
          id,
          kind: 'image_to_video',
          source: 'lookup',
          status: 'SUCCEEDED',
          result: JSON.stringify({ video_url: `https://media.example.com/${id}.mp4` }),
          finished_at: new Date(Date.now() - finishedDaysAgo * day),
          created_at: new Date(Date.now() - finishedDaysAgo * day),
        })
        .execute();
    await insert('i2v-recent', 2);
    await insert('i2v-old', 9);
    files.set('https://media.example.com/i2v-recent.mp4', bytes(VIDEO));
    const worker = job();
    expect(await worker.backfill()).toBe(1);
    expect(await worker.backfill()).toBe(0);
    await worker.drain();
    expect((await rows()).map((row) => [row.task_id, row.state])).toEqual([['i2v-recent', 'kept']]);
    // A row queued in time whose link ran out before it could be copied says so.
    await sql`insert into result_copies (task_id, role, source_url) values ('i2v-old', 'video', 'https://media.example.com/i2v-old.mp4')`.execute(
      server.database.db,
    );
    await worker.drain();
    const old = (await rows()).find((row) => row.task_id === 'i2v-old');
    expect(old).toMatchObject({ state: 'expired' });
    expect(fetched).toEqual(['https://media.example.com/i2v-recent.mp4']);
    const view = (await (await get('/__console/tasks/i2v-old')).json()) as {
      data: { task: { copies?: { lost: string[] } } };
    };
    expect(view.data.task.copies?.lost).toEqual(['video']);
  });
});

describe('with the built-in emulator', () => {
  it('keeps an emulated task’s files, fetched from the console’s own media in-process', async () => {
    const created = await server.nodeApp.app.request(
      `${ORIGIN}/v1/image_generate`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ prompt: 'a lighthouse', generate_count: 1 }),
      },
      asPerson('Ana'),
    );
    const id = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
    const status = await server.nodeApp.app.request(`${ORIGIN}/v1/image_generate/${id}`, {}, asPerson('Ana'));
    const data = ((await status.json()) as { data: { status: string; image_url: string } }).data;
    expect(data.status).toBe('SUCCEEDED');
    await server.nodeApp.results!.drain();
    const found = await rows();
    expect(found.map((row) => [row.role, row.state])).toEqual([
      ['image', 'kept'],
      ['thumbnail', 'kept'],
    ]);
    const original = await body(await server.nodeApp.app.request(data.image_url));
    const kept = await get(`/__console/results/${id}/image/0`);
    expect(await body(kept)).toEqual(original);
    expect(kept.headers.get('content-type')).toBe('image/png');
    expect(fetched).toEqual([]);
  });
});
