import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from './errors';
import {
  readUploadAnswer,
  UPLOAD_PATH,
  UPLOADS_UNAVAILABLE,
  uploadFile,
  type UploadProgress,
} from './upload';
import { FakeXhr } from '@/testing/fake-xhr';

const ok = (url = 'https://cdn.example.com/u/moodboard.png') => ({
  code: 0,
  success: true,
  message: { global: 'success' },
  result: { url, fileId: 'c5a4676a', fileName: 'moodboard.png' },
});

const file = (size = 1000, name = 'moodboard.png') =>
  new File([new Uint8Array(size)], name, { type: 'image/png' });

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('uploadFile', () => {
  beforeEach(() => vi.stubGlobal('XMLHttpRequest', FakeXhr));
  afterEach(() => vi.unstubAllGlobals());

  it('posts the file as multipart part "file" to the same-origin upload path and reports progress', async () => {
    const seen: UploadProgress[] = [];
    const promise = uploadFile(file(1000), { onProgress: (p) => seen.push(p) });
    const xhr = FakeXhr.last!;
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe(UPLOAD_PATH);
    expect((xhr.body as FormData).get('file')).toBeInstanceOf(File);
    expect(((xhr.body as FormData).get('file') as File).name).toBe('moodboard.png');
    xhr.progress(250, 1000);
    xhr.progress(999, 1000);
    xhr.answer(200, ok());
    await expect(promise).resolves.toEqual({
      url: 'https://cdn.example.com/u/moodboard.png',
      fileId: 'c5a4676a',
      fileName: 'moodboard.png',
    });
    expect(seen.map((p) => p.percent)).toEqual([0, 25, 99, 100]);
    expect(seen[1]).toEqual({ loaded: 250, total: 1000, percent: 25 });
  });

  it('cancels: abort rejects with an AbortError and the request is aborted', async () => {
    const controller = new AbortController();
    const promise = uploadFile(file(), { signal: controller.signal });
    controller.abort();
    const error = await promise.catch((caught: unknown) => caught);
    expect((error as DOMException).name).toBe('AbortError');
    expect(FakeXhr.last!.aborted).toBe(true);
  });

  it('a connection failure is a network ApiError (transient, so retry is offered)', async () => {
    const promise = uploadFile(file());
    FakeXhr.last!.onerror?.();
    const error = await failure(promise);
    expect(error.kind).toBe('network');
    expect(error.isTransient).toBe(true);
  });

  it('maps 401, 413, 429 with Retry-After, and 5xx', async () => {
    const cases = [
      [401, { code: 401, msg: 'Authentication failed' }, {}, 'auth'],
      [413, { code: 413, msg: 'The file is larger than 500 MB' }, {}, 'too_large'],
      [429, { code: 429, msg: 'Rate limit exceeded' }, { 'retry-after': '42' }, 'rate_limit'],
      [502, 'Bad gateway', {}, 'server'],
    ] as const;
    for (const [status, body, headers, kind] of cases) {
      const promise = uploadFile(file());
      FakeXhr.last!.answer(status, body, headers);
      const error = await failure(promise);
      expect(error.kind).toBe(kind);
      expect(error.httpStatus).toBe(status);
      if (status === 429) expect(error.retryAfterMs).toBe(42_000);
      if (status === 413) expect(error.msg).toBe('The file is larger than 500 MB');
    }
  });
});

describe('readUploadAnswer', () => {
  it('404 without a business code means uploads are not available here', () => {
    for (const body of ['', '<html>Not Found</html>', '{"code":404,"msg":"Not Found"}']) {
      try {
        readUploadAnswer(404, body, null, 'a.png');
        expect.unreachable();
      } catch (error) {
        expect((error as ApiError).kind).toBe('unavailable');
        expect((error as ApiError).msg).toBe(UPLOADS_UNAVAILABLE);
      }
    }
  });

  it('a 404 with a business code is the service refusing, not a missing endpoint', () => {
    expect(() =>
      readUploadAnswer(404, '{"code":100009,"success":false,"message":"bucket gone"}', null, 'a'),
    ).toThrow(expect.objectContaining({ kind: 'not_found', msg: 'bucket gone' }));
  });

  it('success false or a non-zero code on HTTP 200 is a refusal with the service’s message', () => {
    expect(() =>
      readUploadAnswer(
        200,
        JSON.stringify({ code: 0, success: false, message: { global: 'file type not allowed' } }),
        null,
        'a',
      ),
    ).toThrow(expect.objectContaining({ kind: 'business', msg: 'file type not allowed' }));
    expect(() =>
      readUploadAnswer(200, JSON.stringify({ code: 7, success: true, message: 'quota exceeded' }), null, 'a'),
    ).toThrow(expect.objectContaining({ kind: 'business', code: 7, msg: 'quota exceeded' }));
  });

  it('an answer without an http(s) result.url, or not JSON, is malformed', () => {
    expect(() =>
      readUploadAnswer(200, JSON.stringify({ code: 0, success: true, result: {} }), null, 'a'),
    ).toThrow(expect.objectContaining({ kind: 'malformed' }));
    expect(() =>
      readUploadAnswer(200, JSON.stringify({ ...ok(), result: { url: 'javascript:alert(1)' } }), null, 'a'),
    ).toThrow(expect.objectContaining({ kind: 'malformed' }));
    expect(() => readUploadAnswer(200, 'OK', null, 'a')).toThrow(
      expect.objectContaining({ kind: 'malformed' }),
    );
  });

  it('keeps the local name when the service does not say one', () => {
    const answer = { code: 0, success: true, result: { url: 'https://x.example/f' } };
    expect(readUploadAnswer(200, JSON.stringify(answer), null, 'clip.mov')).toEqual({
      url: 'https://x.example/f',
      fileId: undefined,
      fileName: 'clip.mov',
    });
  });
});
