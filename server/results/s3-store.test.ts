// The S3 store against a real S3-compatible server (s3rver, started here): a result streams in as
// a multipart upload, is served by range from the console, and a missing key is a 404.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeApp } from '../app/node-app';
import { readServerConfig } from '../config/config';
import { createGuardedFetch } from '../proxy/outbound';
import { applyStatus } from '../tasks/recorder';
import { resetTestDatabase } from '../testing/database';
import { asPerson } from '../testing/identity';
import { createCopyJob } from './copy-job';
import { createS3Store } from './s3-store';
import { keyFor, type ResultStore } from './store';

const BUCKET = 'team-results';
let folder: string;
let server: S3rver;
let store: ResultStore;

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
  store = createS3Store({
    bucket: BUCKET,
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    prefix: 'results/',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
});
afterAll(async () => {
  await store?.close?.();
  await server?.close();
  rmSync(folder, { recursive: true, force: true });
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
    const database = await resetTestDatabase();
    const video = pattern(300_000);
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
          'i2v-s3',
          { status: 'SUCCEEDED', video_url: 'https://media.example.com/v.mp4' },
          'poll',
        ),
      );
    const job = createCopyJob({
      database: Promise.resolve(database),
      store: Promise.resolve(store),
      fetch: network,
      maxBytes: 10 * 1024 * 1024,
      log: () => {},
    });
    await job.drain();
    const row = await database.db.selectFrom('result_copies').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ state: 'kept', content_type: 'video/mp4' });
    const dataDir = mkdtempSync(join(folder, 'data-'));
    const nodeApp = createNodeApp(
      readServerConfig({ DATA_DIR: dataDir, CALLBACK_SECRET: 's3-test-secret-0123456789' }),
      {
        database,
        resultStore: store,
        emulator: { timeScale: 0, log: () => {} },
      },
    );
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
