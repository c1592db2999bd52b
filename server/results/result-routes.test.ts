// The result routes on their own (no Node app): the file's PGlite, emptied before each test, and a
// disk store in a folder of this file's; plus the store's keys, the disk store's writes and reads
// and which store the configuration opens.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { resetTestDatabase } from '../testing/database';
import { createDiskStore, RESULTS_FOLDER } from './disk-store';
import { openResultStore } from './open-store';
import { createResultRoutes } from './routes';
import { assertKey, keyFor, type ResultStore } from './store';

const folder = mkdtempSync(join(tmpdir(), 'result-routes-test-'));
const ORIGIN = 'http://console.test';
const TASK_KEY = keyFor('t1', 'video', 0);
let database: Database;
let store: ResultStore;

beforeAll(async () => {
  store = await createDiskStore(folder);
});
beforeEach(async () => {
  database = await resetTestDatabase();
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const text = (body: string) => Readable.from([Buffer.from(body)]);
const readAll = async (stream: Readable) => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
};

async function keptFile(taskId: string, role: string, idx: number, body: string) {
  const key = keyFor(taskId, role as 'video', idx);
  await store.put(key, text(body), 'video/mp4');
  await database.db
    .insertInto('result_copies')
    .values({
      task_id: taskId,
      role,
      idx,
      source_url: 'https://files.example/v.mp4',
      state: 'kept',
      store_key: key,
      size: body.length,
      sha256: 'abc',
      content_type: 'video/mp4',
      kept_at: new Date(),
    })
    .execute();
  return key;
}

describe('keys', () => {
  it('makes a key from a hash of the task id, spread over 256 folders, and accepts only keys it could make', () => {
    const hashOfT1 = createHash('sha256').update('t1').digest('hex');
    expect(keyFor('t1', 'video', 0)).toBe(`${hashOfT1.slice(0, 2)}/${hashOfT1}/video-0`);
    expect(TASK_KEY).toMatch(/^[0-9a-f]{2}\/[0-9a-f]{64}\/video-0$/);
    expect(TASK_KEY.slice(0, 2)).toBe(TASK_KEY.slice(3, 5));
    expect(keyFor('t1', 'video', 0)).toBe(TASK_KEY);
    expect(keyFor('t2', 'video', 0)).not.toBe(TASK_KEY);
    for (const role of ['image', 'video', 'thumbnail', 'caption'] as const)
      expect(() => assertKey(keyFor('t1', role, 9999))).not.toThrow();
    const hash = TASK_KEY.slice(3, 67);
    for (const bad of [
      `${TASK_KEY}/x`,
      `x${TASK_KEY}`,
      TASK_KEY.replace('video-0', 'video-10000'),
      TASK_KEY.replace('video-0', 'audio-0'),
      TASK_KEY.replace('video-0', 'video-'),
      `${hash.slice(0, 2)}/${hash.slice(0, 63)}/video-0`,
      `${hash.slice(0, 1)}/${hash}/video-0`,
      `../${hash}/video-0`,
      TASK_KEY.toUpperCase(),
    ])
      expect(() => assertKey(bad), bad).toThrow('Not a result key');
  });
});

describe('the disk store', () => {
  it('writes under the key, reads a range or the whole, and refuses a key it could not have made', async () => {
    await store.put(TASK_KEY, text('0123456789'), 'video/mp4');
    const whole = (await store.get(TASK_KEY))!;
    expect([await readAll(whole.body), whole.length]).toEqual(['0123456789', 10]);
    const part = (await store.get(TASK_KEY, { start: 2, end: 4 }))!;
    expect([await readAll(part.body), part.length]).toEqual(['234', 3]);
    const empty = (await store.get(TASK_KEY, { start: 5, end: 4 }))!;
    expect([await readAll(empty.body), empty.length]).toEqual(['', 0]);
    expect(await store.get(keyFor('missing', 'video', 0))).toBeUndefined();
    await expect(store.get('../../etc/passwd')).rejects.toThrow('Not a result key');
    await store.delete(TASK_KEY);
    expect(await store.get(TASK_KEY)).toBeUndefined();
    await store.delete(TASK_KEY);
    expect(store.kind).toBe('disk');
  });

  it('leaves nothing under the key, and no partial file, when the stream breaks', async () => {
    const breaking = new Readable({
      read() {
        this.push(Buffer.from('half'));
        this.destroy(new Error('socket hang up'));
      },
    });
    const key = keyFor('broken', 'video', 0);
    await expect(store.put(key, breaking, 'video/mp4')).rejects.toThrow('socket hang up');
    expect(await store.get(key)).toBeUndefined();
    expect(readdirSync(join(folder, RESULTS_FOLDER, '.partial'))).toEqual([]);
  });

  it('removes what a crash left half written when it opens', async () => {
    const crashed = mkdtempSync(join(tmpdir(), 'result-routes-crash-'));
    try {
      mkdirSync(join(crashed, RESULTS_FOLDER, '.partial'), { recursive: true });
      writeFileSync(join(crashed, RESULTS_FOLDER, '.partial', 'left-over'), 'half');
      const opened = await createDiskStore(crashed);
      expect(readdirSync(join(crashed, RESULTS_FOLDER, '.partial'))).toEqual([]);
      expect(opened.kind).toBe('disk');
    } finally {
      rmSync(crashed, { recursive: true, force: true });
    }
  });
});

describe('openResultStore', () => {
  it('opens the disk store unless S3 is named, and refuses S3 without a bucket', async () => {
    expect((await openResultStore(undefined, folder)).kind).toBe('disk');
    expect((await openResultStore({ store: 'disk', maxBytes: 1 }, folder)).kind).toBe('disk');
    await expect(openResultStore({ store: 's3', maxBytes: 1 }, folder)).rejects.toThrow(
      'RESULTS_STORE=s3 needs S3_BUCKET',
    );
    const s3 = await openResultStore(
      {
        store: 's3',
        s3: { bucket: 'b', endpoint: 'http://127.0.0.1:9', region: 'us-east-1', forcePathStyle: true },
      } as never,
      folder,
    );
    expect(s3.kind).toBe('s3');
    await s3.close?.();
  });
});

describe('the result routes', () => {
  const routes = (
    onRemoved?: (taskId: string) => void,
    opened: Promise<ResultStore> = Promise.resolve(store),
  ) => createResultRoutes(Promise.resolve(database), opened, onRemoved);

  it('serves a kept file, and a reasoned uncached 404 for anything else', async () => {
    await keptFile('t/1', 'video', 0, 'kept bytes');
    const app = routes();
    const ok = await app.request(`${ORIGIN}/__console/results/t%2F1/video/0`);
    expect([ok.status, await ok.text()]).toEqual([200, 'kept bytes']);
    const notFound = async (path: string, msg: string) => {
      const answer = await app.request(`${ORIGIN}/__console/results/${path}`);
      expect(answer.status, path).toBe(404);
      expect(answer.headers.get('cache-control'), path).toBe('no-store');
      expect(await answer.json(), path).toEqual({ code: 404, msg });
    };
    await notFound('t%2F1/audio/0', 'No such result file');
    await notFound('t%2F1/video/x1', 'No such result file');
    await notFound('t%2F1/video/1x', 'No such result file');
    await notFound('t%2F1/video/10000', 'No such result file');
    await notFound('t%2F1/video/9999', 'This file is not kept here');
    await notFound('t%2F1/image/0', 'This file is not kept here');
    await notFound('t2/video/0', 'This file is not kept here');
  });

  it('does not serve a kept row without a key', async () => {
    await database.db
      .insertInto('result_copies')
      .values({ task_id: 't1', role: 'video', source_url: 'https://files.example/v.mp4', state: 'kept' })
      .execute();
    const answer = await routes().request(`${ORIGIN}/__console/results/t1/video/0`);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ code: 404, msg: 'This file is not kept here' });
  });

  it("removes one task's kept files, says how many, and tells who watches the task", async () => {
    const key = await keptFile('t1', 'video', 0, 'one');
    await keptFile('t1', 'thumbnail', 0, 'two');
    const otherKey = await keptFile('t2', 'video', 0, 'other');
    const removed: string[] = [];
    const answer = await routes((taskId) => removed.push(taskId)).request(`${ORIGIN}/__console/results/t1`, {
      method: 'DELETE',
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await answer.json()).toEqual({ code: 0, msg: 'ok', data: { removed: 2 } });
    expect(removed).toEqual(['t1']);
    expect(await store.get(key)).toBeUndefined();
    expect(await store.get(otherKey)).toBeDefined();
    const states = await database.db
      .selectFrom('result_copies')
      .select(['task_id', 'state', 'error'])
      .execute();
    expect(states.filter((row) => row.task_id === 't1').map((row) => [row.state, row.error])).toEqual([
      ['expired', 'removed by an admin'],
      ['expired', 'removed by an admin'],
    ]);
    expect(states.find((row) => row.task_id === 't2')?.state).toBe('kept');
  });

  it('removes kept files when nobody watches for removals', async () => {
    const key = await keptFile('t1', 'video', 0, 'one');
    const answer = await routes().request(`${ORIGIN}/__console/results/t1`, { method: 'DELETE' });
    expect(answer.status).toBe(200);
    expect(await store.get(key)).toBeUndefined();
  });

  it("reports the store's usage, and the store as unavailable when it failed to open", async () => {
    await keptFile('t1', 'video', 0, 'four');
    // Usage is counted per task (its kind and creator).
    await database.db
      .insertInto('tasks')
      .values({
        id: 't1',
        kind: 'image_to_video',
        source: 'created',
        result: '{}',
      })
      .execute();
    const answer = await routes().request(`${ORIGIN}/__console/storage`);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const { code, msg, data } = await answer.json();
    expect([code, msg, data.store, data.kept]).toEqual([0, 'ok', 'disk', { files: 1, bytes: 4 }]);
    const failed = Promise.reject(new Error('no bucket'));
    failed.catch(() => undefined);
    const unavailable = await routes(undefined, failed).request(`${ORIGIN}/__console/storage`);
    expect((await unavailable.json()).data.store).toBe('unavailable');
  });
});
