// The S3 store against a real S3-compatible server (s3rver, started here): a result streams in as
// a multipart upload, is served by range from the console, and a missing key is a 404. A large file
// redirects to a presigned URL (S3_PRESIGN_ABOVE_MB) that serves the same bytes, by range too.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presignOrigins } from '../config/config';
import { createGuardedFetch } from '../proxy/outbound';
import { applyStatus } from '../tasks/recorder';
import { resetTestDatabase } from '../testing/database';
import { asPerson } from '../testing/identity';
import { testNodeApp } from '../testing/test-node-app';
import { createCopyJob } from './copy-job';
import { createS3Store } from './s3-store';
import { keyFor, type ResultStore } from './store';

const BUCKET = 'team-results';
let folder: string;
let server: S3rver;
let store: ResultStore;
let endpoint: string;
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const nodeSide = testNodeApp('s3-store-test');

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 's3-store-test-'));
  server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: join(folder, 's3'),
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  store = createS3Store({
    bucket: BUCKET,
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    prefix: 'results/',
    credentials: CREDENTIALS,
  });
});
afterAll(async () => {
  await store?.close?.();
  await server?.close();
  rmSync(folder, { recursive: true, force: true });
  nodeSide.remove();
});

/** Bytes that are not one repeated value, so a part out of order would show. */
function pattern(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let index = 0; index < size; index++) bytes[index] = (index * 7 + (index >> 13)) & 0xff;
  return bytes;
}

describe('the S3 store', () => {
  it('streams a file of several parts in and reads any range of it back', async () => {
    const file = pattern(20 * 1024 * 1024 + 123);
    const key = keyFor('i2v-s3-big', 'video', 0);
    // Chunks of 64 KB, as a download arrives: the upload cuts its own 8 MB parts.
    const chunks = function* () {
      for (let at = 0; at < file.length; at += 65_536) yield file.subarray(at, at + 65_536);
    };
    await store.put(key, Readable.from(chunks()), 'application/octet-stream');
    const whole = await store.get(key);
    expect(whole?.length).toBe(file.length);
    const received: Buffer[] = [];
    for await (const chunk of whole!.body) received.push(chunk as Buffer);
    expect(createHash('sha256').update(Buffer.concat(received)).digest('hex')).toBe(
      createHash('sha256').update(file).digest('hex'),
    );
    const part = await store.get(key, { start: 9_000_000, end: 9_000_099 });
    const bytes: Buffer[] = [];
    for await (const chunk of part!.body) bytes.push(chunk as Buffer);
    expect(new Uint8Array(Buffer.concat(bytes))).toEqual(file.slice(9_000_000, 9_000_100));
    expect(await store.get(keyFor('i2v-s3-none', 'video', 0))).toBeUndefined();
    await store.delete(key);
    expect(await store.get(key)).toBeUndefined();
  }, 60_000);

  it('is where the copy job keeps a task’s file, served from the console by range', async () => {
    const { database, video } = await keepVideo('i2v-s3', store);
    const row = await database.db.selectFrom('result_copies').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'kept', content_type: 'video/mp4' });
    const nodeApp = await appOn(store);
    try {
      const answer = await nodeApp.app.request(
        'http://127.0.0.1:5173/__console/results/i2v-s3/video/0',
        { headers: { range: 'bytes=100000-100999' } },
        asPerson('Vera', 'viewer'),
      );
      expect(answer.status).toBe(206);
      expect(answer.headers.get('content-range')).toBe(`bytes 100000-100999/${video.length}`);
      expect(new Uint8Array(await answer.arrayBuffer())).toEqual(video.slice(100_000, 101_000));
      const whole = await nodeApp.app.request(
        'http://127.0.0.1:5173/__console/results/i2v-s3/video/0',
        {},
        asPerson('Vera', 'viewer'),
      );
      expect(new Uint8Array(await whole.arrayBuffer())).toEqual(video);
    } finally {
      await nodeApp.close();
    }
  }, 60_000);
});

/** A video task copied into `target` by the copy job (300,000 bytes unless said). */
async function keepVideo(taskId: string, target: ResultStore, size = 300_000) {
  const database = await resetTestDatabase();
  const video = pattern(size);
  video.set([0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d], 0); // ....ftypisom
  const network = createGuardedFetch({
    transport: async () => new Response(video.slice(), { headers: { 'content-type': 'video/mp4' } }),
  });
  await database.db
    .transaction()
    .execute((trx) =>
      applyStatus(
        trx,
        'image_to_video',
        taskId,
        { status: 'SUCCEEDED', video_url: 'https://media.example.com/v.mp4' },
        'poll',
      ),
    );
  const job = createCopyJob({
    database: Promise.resolve(database),
    store: Promise.resolve(target),
    fetch: network,
    maxBytes: 10 * 1024 * 1024,
    log: () => {},
  });
  await job.drain();
  return { database, video };
}

/** The console on the task `keepVideo` left in the database, its results in `resultStore`. */
const appOn = (resultStore: ResultStore) =>
  // As in production: a request without a signed-in person is refused.
  nodeSide.make({ options: { resultStore, anonymous: null } });

describe('presigned redirects (S3_PRESIGN_ABOVE_MB)', () => {
  const presigning = () =>
    createS3Store({
      bucket: BUCKET,
      endpoint,
      forcePathStyle: true,
      prefix: 'results/',
      credentials: CREDENTIALS,
      presignAboveBytes: 256 * 1024,
    });

  it('sends a large file from the bucket by a short-lived URL, same bytes, same headers, by range', async () => {
    const redirecting = presigning();
    const { video } = await keepVideo('i2v-presign', redirecting, 600_000);
    const nodeApp = await appOn(redirecting);
    try {
      const address = 'http://127.0.0.1:5173/__console/results/i2v-presign/video/0';
      const answer = await nodeApp.app.request(address, {}, asPerson('Vera', 'viewer'));
      expect(answer.status).toBe(302);
      expect(answer.headers.get('cache-control')).toBe('no-store');
      const location = new URL(answer.headers.get('location')!);
      expect(location.origin).toBe(endpoint);
      expect(Number(location.searchParams.get('X-Amz-Expires'))).toBeLessThanOrEqual(300);
      // The browser follows it: the whole file, typed as the console would type it.
      const whole = await fetch(location);
      expect(whole.status).toBe(200);
      expect(whole.headers.get('content-type')).toBe('video/mp4');
      expect(new Uint8Array(await whole.arrayBuffer())).toEqual(video);
      // A video seeking: the same Range header, sent again to the redirect's target.
      const part = await fetch(location, { headers: { range: 'bytes=500000-500999' } });
      expect(part.status).toBe(206);
      expect(part.headers.get('content-range')).toBe(`bytes 500000-500999/${video.length}`);
      expect(new Uint8Array(await part.arrayBuffer())).toEqual(video.slice(500_000, 501_000));
      // A download keeps its name on the redirect's answer.
      const download = await nodeApp.app.request(
        'http://127.0.0.1:5173/__console/tasks/i2v-presign/download/result',
        {},
        asPerson('Vera', 'viewer'),
      );
      expect(download.status).toBe(302);
      const named = await fetch(download.headers.get('location')!);
      expect(named.headers.get('content-disposition')).toMatch(/^attachment; filename/);
      expect((await named.arrayBuffer()).byteLength).toBe(video.length);
      // Nobody signed in: no redirect, no URL.
      const stranger = await nodeApp.app.request(address);
      expect(stranger.status).toBe(401);
      expect(stranger.headers.get('location')).toBeNull();
    } finally {
      await nodeApp.close();
      await redirecting.close?.();
    }
  }, 60_000);

  it('serves a file under the threshold itself', async () => {
    const redirecting = presigning();
    const { video } = await keepVideo('i2v-small', redirecting, 100_000);
    const nodeApp = await appOn(redirecting);
    try {
      const answer = await nodeApp.app.request(
        'http://127.0.0.1:5173/__console/results/i2v-small/video/0',
        {},
        asPerson('Vera', 'viewer'),
      );
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(new Uint8Array(await answer.arrayBuffer())).toEqual(video);
    } finally {
      await nodeApp.close();
      await redirecting.close?.();
    }
  }, 60_000);

  it("lets the page load media from the bucket's origin only when redirects are on", () => {
    const s3 = { bucket: 'console-results', forcePathStyle: false, region: 'eu-west-1' };
    expect(presignOrigins({ store: 's3', maxBytes: 1, s3: { ...s3, presignAboveBytes: 8 } })).toContain(
      'https://console-results.s3.eu-west-1.amazonaws.com',
    );
    expect(
      presignOrigins({
        store: 's3',
        maxBytes: 1,
        s3: { ...s3, endpoint: 'https://minio.example.com:9000', forcePathStyle: true, presignAboveBytes: 8 },
      }),
    ).toEqual(['https://minio.example.com:9000']);
    expect(presignOrigins({ store: 's3', maxBytes: 1, s3: { ...s3, presignAboveBytes: 0 } })).toEqual([]);
    expect(presignOrigins({ store: 'disk', maxBytes: 1 })).toEqual([]);
  });
});
