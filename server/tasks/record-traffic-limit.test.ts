// The recorder reads at most RECORD_MAX_BYTES of an upstream answer: read whole, a 300 MB answer
// would cost the server more than its size and reach the browser only at the end. A larger answer
// passes through streamed and unrecorded; the bound is tested at exactly RECORD_MAX_BYTES and one
// byte past it.
import { Hono } from 'hono';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RECORD_MAX_BYTES, recordTraffic } from './record-traffic';
import type { TaskRecorder } from './recorder';

const STATUS = { code: 0, msg: 'ok', data: { task_id: 'i2v-1', status: 'SUCCEEDED' } };

/** The status answer padded with spaces (still valid JSON) to exactly `bytes` bytes. */
function answerOf(bytes: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(bytes).fill(0x20);
  out.set(new TextEncoder().encode(JSON.stringify(STATUS)));
  return out;
}

function fakeRecorder() {
  return {
    created: vi.fn(async () => {}),
    status: vi.fn(async () => true),
    unchanged: vi.fn(() => false),
    error: vi.fn(async () => {}),
    uploaded: vi.fn(async () => {}),
    flush: vi.fn(async () => {}),
  } satisfies TaskRecorder;
}

/** `/v1/image_to_video/:id` answering `body()`, behind the recorder. */
function appAnswering(body: () => BodyInit, headers: Record<string, string> = {}) {
  const recorder = fakeRecorder();
  const app = new Hono();
  app.use('/v1/*', recordTraffic(recorder, '/callbacks/secret'));
  app.get(
    '/v1/image_to_video/:id',
    () => new Response(body(), { headers: { 'content-type': 'application/json', ...headers } }),
  );
  return { app, recorder };
}

/** A lazily made stream of `total` bytes in 64 KB chunks, counting what was pulled from it. */
function lazyStream(total: number, fill = 0x20) {
  const chunk = new Uint8Array(64 * 1024).fill(fill);
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (pulled >= total) return controller.close();
      const next = chunk.subarray(0, Math.min(chunk.byteLength, total - pulled));
      pulled += next.byteLength;
      controller.enqueue(next);
    },
  });
  return { stream, pulled: () => pulled };
}

async function byteLength(response: Response): Promise<number> {
  let bytes = 0;
  const reader = response.body!.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

afterEach(() => vi.restoreAllMocks());

describe('the recorder reads a bounded part of an upstream answer', () => {
  it.each([
    ['streamed (no Content-Length)', false],
    ['with Content-Length', true],
  ])('records an answer of exactly RECORD_MAX_BYTES, %s', async (_, withLength) => {
    const bytes = answerOf(RECORD_MAX_BYTES);
    const { app, recorder } = appAnswering(
      () => (withLength ? bytes : new Blob([bytes]).stream()),
      withLength ? { 'content-length': String(bytes.byteLength) } : {},
    );
    const response = await app.request('/v1/image_to_video/i2v-1');
    expect(await byteLength(response)).toBe(RECORD_MAX_BYTES);
    // With the answer's exact text, which the recorder compares instead of serialising it again.
    expect(recorder.status).toHaveBeenCalledWith(
      'image_to_video',
      'i2v-1',
      STATUS.data,
      new TextDecoder().decode(bytes),
    );
  });

  it.each([
    ['streamed (no Content-Length)', false],
    ['with Content-Length', true],
  ])('passes an answer of RECORD_MAX_BYTES + 1 through whole and unrecorded, %s', async (_, withLength) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const bytes = answerOf(RECORD_MAX_BYTES + 1);
    const { app, recorder } = appAnswering(
      () => (withLength ? bytes : new Blob([bytes]).stream()),
      withLength ? { 'content-length': String(bytes.byteLength) } : {},
    );
    const response = await app.request('/v1/image_to_video/i2v-1');
    expect(response.status).toBe(200);
    expect(await byteLength(response)).toBe(RECORD_MAX_BYTES + 1);
    expect(recorder.status).not.toHaveBeenCalled();
    expect(recorder.error).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/not recorded: GET \/v1\/image_to_video\/i2v-1/));
  });

  it('hands a 64 MB answer to the browser after reading about 1 MB of it, then streams the rest', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const total = 64 * 1024 * 1024;
    const source = lazyStream(total);
    const { app, recorder } = appAnswering(() => source.stream);
    const response = await app.request('/v1/image_to_video/i2v-1');
    // The browser gets the answer while it streams: the recorder never reads (or holds) it whole.
    expect(source.pulled()).toBeLessThan(2 * RECORD_MAX_BYTES);
    expect(await byteLength(response)).toBe(total);
    expect(recorder.status).not.toHaveBeenCalled();
  });

  it('never reads an answer that declares more than RECORD_MAX_BYTES', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const source = lazyStream(RECORD_MAX_BYTES + 1);
    const { app } = appAnswering(() => source.stream, { 'content-length': String(RECORD_MAX_BYTES + 1) });
    const response = await app.request('/v1/image_to_video/i2v-1');
    expect(source.pulled()).toBeLessThanOrEqual(64 * 1024);
    expect(await byteLength(response)).toBe(RECORD_MAX_BYTES + 1);
  });
});

describe('the recorder ignores paths that name no task', () => {
  it.each(['%00', 'a%2Fb', '%2e%2e', 'a%5Cb', '%E0%A4%A'])(
    'records nothing for /v1/image_to_video/%s (never a database error for bad input)',
    async (segment) => {
      const { app, recorder } = appAnswering(() => JSON.stringify({ code: 404, msg: 'Not found' }));
      await app.request(`/v1/image_to_video/${segment}`);
      expect(recorder.status).not.toHaveBeenCalled();
      expect(recorder.error).not.toHaveBeenCalled();
    },
  );
});

describe('an answer the recorder already has', () => {
  it('is handed over by its text and goes no further: not parsed into a status() call', async () => {
    const text = JSON.stringify(STATUS);
    const { app, recorder } = appAnswering(() => text);
    recorder.unchanged.mockReturnValue(true);
    const response = await app.request('/v1/image_to_video/i2v-1');
    expect(await response.text()).toBe(text);
    expect(recorder.unchanged).toHaveBeenCalledWith('image_to_video', 'i2v-1', text);
    expect(recorder.status).not.toHaveBeenCalled();
    expect(recorder.error).not.toHaveBeenCalled();
  });

  it('is asked about only for an HTTP 200: another status is recorded as the task’s error', async () => {
    const recorder = fakeRecorder();
    recorder.unchanged.mockReturnValue(true);
    const app = new Hono();
    app.use('/v1/*', recordTraffic(recorder, '/callbacks/secret'));
    app.get('/v1/image_to_video/:id', (c) => c.json({ code: 503, msg: 'busy' }, 503));
    await app.request('/v1/image_to_video/i2v-1');
    expect(recorder.unchanged).not.toHaveBeenCalled();
    expect(recorder.error).toHaveBeenCalledWith('i2v-1', {
      kind: 'server',
      httpStatus: 503,
      code: 503,
      msg: 'busy',
    });
  });
});
