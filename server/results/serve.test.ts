// serveKept on its own, with an in-memory store: which answer each request gets (304, 302, 416,
// 206, 200, HEAD, 404, an empty file) and exactly which bytes it asks the store for. No database,
// no sockets: every case here takes a millisecond.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { contentDisposition } from '../../src/api/download-name';
import { resultCopyRow } from '../testing/result-copy-row';
import type { ResultCopyRow } from './copy-rows';
import { serveKept } from './serve';
import type { PresignedAnswer, ResultStore, StoredObject } from './store';

const SHA = 'abcdef';
const ETAG = `"${SHA}"`;
const BYTES = Buffer.from('0123456789');
const KEY = 'ab/key/image-0';

/** A kept file's row. */
const rowOf = (overrides: Partial<ResultCopyRow> = {}): ResultCopyRow =>
  resultCopyRow({
    source_url: 'https://service.example/out.png',
    state: 'kept',
    store_key: KEY,
    size: String(BYTES.length),
    content_type: 'image/png',
    sha256: SHA,
    ...overrides,
  });

/** A store holding `bytes` under KEY, recording each get's range and handing back what it returned. */
function memoryStore(bytes: Buffer | null = BYTES, redirect?: string) {
  const gets: ({ start: number; end: number } | undefined)[] = [];
  const redirects: { key: string; size: number; answer: PresignedAnswer }[] = [];
  const returned: StoredObject[] = [];
  const store: ResultStore = {
    kind: 'memory',
    put: () => Promise.reject(new Error('not used')),
    delete: () => Promise.reject(new Error('not used')),
    async get(key, range) {
      gets.push(range);
      if (!bytes || key !== KEY) return undefined;
      const part = range ? bytes.subarray(range.start, range.end + 1) : bytes;
      const object = { body: Readable.from([part]), length: part.length };
      returned.push(object);
      return object;
    },
    ...(redirect !== undefined && {
      async redirectFor(key: string, size: number, answer: PresignedAnswer) {
        redirects.push({ key, size, answer });
        return redirect || undefined;
      },
    }),
  };
  return { store, gets, redirects, returned };
}

const request = (headers: Record<string, string> = {}, method = 'GET') =>
  new Request('http://console.test/results/x', { method, headers });

describe('serveKept: revalidation by ETag', () => {
  it('answers 304 to a matching tag anywhere in a list, weak or strong, or to *, and 200 otherwise', async () => {
    const { store } = memoryStore();
    const status = async (ifNoneMatch: string) =>
      (await serveKept(request({ 'if-none-match': ifNoneMatch }), rowOf(), store)).status;
    expect(await status(`"other", ${ETAG}`)).toBe(304);
    expect(await status(`${ETAG}, "other"`)).toBe(304);
    expect(await status(`W/${ETAG}`)).toBe(304);
    expect(await status('*')).toBe(304);
    expect(await status('"other"')).toBe(200);
    expect(await status('')).toBe(200);
    // W/ is a prefix only: the same letters inside a tag are part of the tag.
    expect(await status('"abcW/def"')).toBe(200);
  });

  it('answers a 304 with the same caching headers as the file, and no body', async () => {
    const { store, gets } = memoryStore();
    const answer = await serveKept(request({ 'if-none-match': ETAG }), rowOf(), store);
    expect(answer.status).toBe(304);
    expect(answer.headers.get('etag')).toBe(ETAG);
    expect(answer.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(gets).toEqual([]);
  });
});

describe('serveKept: headers', () => {
  it('sets Last-Modified from the kept time, and none when the row has no kept time', async () => {
    const { store } = memoryStore();
    const keptAt = new Date('2026-11-28T10:20:30Z');
    const kept = await serveKept(request(), rowOf({ kept_at: keptAt }), store);
    expect(kept.headers.get('last-modified')).toBe(keptAt.toUTCString());
    const undated = await serveKept(request(), rowOf({ kept_at: null }), store);
    expect(undated.status).toBe(200);
    expect(undated.headers.has('last-modified')).toBe(false);
  });

  it('serves an image inline and anything unrecognised as an attachment named by role and index', async () => {
    const { store } = memoryStore();
    const image = await serveKept(request(), rowOf(), store);
    expect(image.headers.has('content-disposition')).toBe(false);
    const unknown = await serveKept(
      request(),
      rowOf({ content_type: 'application/octet-stream', role: 'video', idx: 3 }),
      store,
    );
    expect(unknown.headers.get('content-disposition')).toBe('attachment; filename="video-3"');
  });
});

describe('serveKept: redirects to the store', () => {
  it('redirects a recognised image to the presigned URL, uncached and nosniff, with the headers to answer with', async () => {
    const { store, redirects } = memoryStore(BYTES, 'https://s3.example/signed');
    const answer = await serveKept(request(), rowOf(), store, 'red-bicycle.png');
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('https://s3.example/signed');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(redirects).toEqual([
      {
        key: KEY,
        size: BYTES.length,
        answer: { contentType: 'image/png', contentDisposition: contentDisposition('red-bicycle.png') },
      },
    ]);
  });

  it('never redirects SVG, an unknown file or a type that only contains image/ or video/', async () => {
    const { store, redirects } = memoryStore(BYTES, 'https://s3.example/signed');
    for (const contentType of ['image/svg+xml', 'application/octet-stream', 'application/x-image/png']) {
      const answer = await serveKept(request(), rowOf({ content_type: contentType }), store);
      expect(answer.status, contentType).toBe(200);
    }
    expect(redirects).toEqual([]);
  });

  it('serves directly when the store declines to redirect (a small file)', async () => {
    const { store, redirects } = memoryStore(BYTES, '');
    const answer = await serveKept(request(), rowOf({ content_type: 'video/mp4' }), store);
    expect(answer.status).toBe(200);
    expect(await answer.text()).toBe('0123456789');
    expect(redirects).toHaveLength(1);
  });
});

describe('serveKept: byte ranges', () => {
  it('sends a range as 206, and the whole file when If-Range names another version', async () => {
    const { store, gets } = memoryStore();
    const ranged = await serveKept(request({ range: 'bytes=2-4' }), rowOf(), store);
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe('bytes 2-4/10');
    expect(ranged.headers.get('content-length')).toBe('3');
    expect(await ranged.text()).toBe('234');
    const sameVersion = await serveKept(request({ range: 'bytes=2-4', 'if-range': ETAG }), rowOf(), store);
    expect(sameVersion.status).toBe(206);
    expect(await sameVersion.text()).toBe('234');
    const otherVersion = await serveKept(
      request({ range: 'bytes=2-4', 'if-range': '"older"' }),
      rowOf(),
      store,
    );
    expect(otherVersion.status).toBe(200);
    expect(otherVersion.headers.has('content-range')).toBe(false);
    expect(await otherVersion.text()).toBe('0123456789');
    expect(gets).toEqual([
      { start: 2, end: 4 },
      { start: 2, end: 4 },
      { start: 0, end: 9 },
    ]);
  });

  it('answers 416 to a range that starts at the end of the file, and 206 to its last byte', async () => {
    const { store, gets } = memoryStore();
    const past = await serveKept(request({ range: 'bytes=10-' }), rowOf(), store);
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */10');
    const last = await serveKept(request({ range: 'bytes=9-' }), rowOf(), store);
    expect(last.status).toBe(206);
    expect(await last.text()).toBe('9');
    expect(gets).toEqual([{ start: 9, end: 9 }]);
  });
});

describe('serveKept: the body', () => {
  it('asks the store for the whole file by its last byte and streams it', async () => {
    const { store, gets } = memoryStore();
    const answer = await serveKept(request(), rowOf(), store);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-length')).toBe('10');
    expect(await answer.text()).toBe('0123456789');
    expect(gets).toEqual([{ start: 0, end: 9 }]);
    // Cached for good, seekable, and inert whatever the bytes are.
    expect(answer.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
    expect(answer.headers.get('accept-ranges')).toBe('bytes');
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'");
    expect(answer.headers.get('content-type')).toBe('image/png');
  });

  it('answers HEAD with the headers a GET would have and no body, without reading the store', async () => {
    const { store, gets } = memoryStore();
    const whole = await serveKept(request({}, 'HEAD'), rowOf(), store);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe('10');
    expect(whole.body).toBeNull();
    const ranged = await serveKept(request({ range: 'bytes=0-0' }, 'HEAD'), rowOf(), store);
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe('bytes 0-0/10');
    expect(gets).toEqual([]);
  });

  it('answers 404 with a reason when the store no longer has the file', async () => {
    const { store } = memoryStore(null);
    const answer = await serveKept(request(), rowOf(), store);
    expect(answer.status).toBe(404);
    expect(await answer.json()).toEqual({ code: 404, msg: 'The kept file is missing from the store' });
  });

  it('answers an empty file with no body, asks the store for no range, and closes what it opened', async () => {
    const { store, gets, returned } = memoryStore(Buffer.alloc(0));
    const answer = await serveKept(request(), rowOf({ size: '0' }), store);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-length')).toBe('0');
    expect(answer.body).toBeNull();
    expect(gets).toEqual([undefined]);
    expect(returned[0]!.body.destroyed).toBe(true);
    // One byte: a body, read from its only byte.
    const { store: oneByteStore, gets: oneByteGets } = memoryStore(Buffer.from('x'));
    const oneByte = await serveKept(request(), rowOf({ size: '1' }), oneByteStore);
    expect(await oneByte.text()).toBe('x');
    expect(oneByteGets).toEqual([{ start: 0, end: 0 }]);
  });
});
