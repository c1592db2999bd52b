// The fetch client against a stubbed global fetch: every outcome is either validated data or an
// ApiError of the right kind, never an unhandled crash.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from './client';
import { API_PATHS, createImageGeneration, getTargetLanguages } from './endpoints';
import { ApiError } from './errors';
import { imageGenerateResultSchema } from './schemas';
import { z } from './zod';
import { setCreationBoard } from './board-choice';
import { BOARD_HEADER } from './boards';

const targetLanguagesSchema = z.array(z.string());

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function reply(body: unknown, status = 200, statusText = '', headers: Record<string, string> = {}) {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  fetchMock.mockResolvedValueOnce(
    new Response(text, { status, statusText, headers: { 'content-type': 'application/json', ...headers } }),
  );
}

/** The rejection of `promise`, asserted to be an ApiError. */
async function apiErrorOf(promise: Promise<unknown>): Promise<ApiError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

const languages = () => apiRequest('/v1/video_translate/target_languages', { schema: targetLanguagesSchema });

describe('apiRequest: success', () => {
  it('unwraps the envelope and returns validated data', async () => {
    reply({ code: 0, msg: 'ok', data: ['English', 'Japanese'] });
    await expect(languages()).resolves.toEqual(['English', 'Japanese']);
  });

  it('keeps unknown fields of lenient response schemas', async () => {
    reply({ code: 0, msg: 'ok', data: { task_ids: ['i2is-1'], credits_left: 10 }, request_id: 'r1' });
    await expect(
      apiRequest('/v1/image_generate', { body: { prompt: 'x' }, schema: imageGenerateResultSchema }),
    ).resolves.toEqual({
      task_ids: ['i2is-1'],
      credits_left: 10,
    });
  });

  it('sends GET with an Accept header and no body when there is no body', async () => {
    reply({ code: 0, msg: 'ok', data: [] });
    await languages();
    const [path, init] = fetchMock.mock.calls[0]!;
    expect(path).toBe('/v1/video_translate/target_languages');
    expect(init?.method).toBe('GET');
    expect(init?.body).toBeUndefined();
    expect(init?.headers).toEqual({ accept: 'application/json' });
  });

  it('sends POST with a JSON body and JSON headers, and no credentials of its own', async () => {
    reply({ code: 0, msg: 'ok', data: { task_ids: ['i2is-1', 'i2is-2'] } });
    await createImageGeneration({ prompt: 'a fox', generate_count: 2 });
    const [path, init] = fetchMock.mock.calls[0]!;
    expect(path).toBe('/v1/image_generate');
    expect(init?.method).toBe('POST');
    expect(init?.headers).toEqual({ accept: 'application/json', 'content-type': 'application/json' });
    expect(JSON.parse(init?.body as string)).toEqual({ prompt: 'a fox', generate_count: 2 });
    expect(JSON.stringify(init?.headers).toLowerCase()).not.toContain('authorization');
  });

  it('never names a user in a header: the server knows who signed in', async () => {
    reply({ code: 0, msg: 'ok', data: { task_ids: ['i2is-1'] } });
    await createImageGeneration({ prompt: 'a fox' });
    expect(Object.keys(fetchMock.mock.calls[0]![1]?.headers ?? {})).not.toContain('x-console-user');
    reply({ code: 0, msg: 'ok', data: [] });
    await languages();
    expect(fetchMock.mock.calls[1]![1]?.headers).toEqual({ accept: 'application/json' });
  });

  it('malformed data: kind malformed with a message naming the path, never a crash', async () => {
    reply({ code: 0, msg: 'ok', data: { task_ids: 'i2is-1' } });
    const error = await apiErrorOf(
      apiRequest('/v1/image_generate', { body: { prompt: 'x' }, schema: imageGenerateResultSchema }),
    );
    expect(error.kind).toBe('malformed');
    expect(error.httpStatus).toBe(200);
    expect(error.msg).toMatch(/^Unexpected response: data\.task_ids: /);
  });

  it('missing data on success is malformed', async () => {
    reply({ code: 0, msg: 'ok' });
    const error = await apiErrorOf(languages());
    expect(error.kind).toBe('malformed');
    expect(error.msg).toMatch(/^Unexpected response: data: /);
  });

  it('a non-JSON body with HTTP 200 is malformed', async () => {
    reply('<html>gateway login</html>');
    const error = await apiErrorOf(languages());
    expect(error).toMatchObject({ kind: 'malformed', httpStatus: 200 });
    expect(error.msg).toMatch(/not a JSON envelope/);
  });

  it('JSON that is not an envelope is malformed', async () => {
    reply(['English']);
    expect((await apiErrorOf(languages())).kind).toBe('malformed');
    reply({ code: 'zero', data: [] });
    expect((await apiErrorOf(languages())).kind).toBe('malformed');
    reply('');
    expect((await apiErrorOf(languages())).kind).toBe('malformed');
  });

  it('a non-JSON error page keeps the kind of its HTTP status', async () => {
    reply('Bad Gateway', 502, 'Bad Gateway');
    expect(await apiErrorOf(languages())).toMatchObject({
      kind: 'server',
      httpStatus: 502,
      msg: '502 Bad Gateway',
    });
    reply('Not Found', 404);
    expect(await apiErrorOf(languages())).toMatchObject({ kind: 'unavailable', httpStatus: 404 });
    reply('Too Many Requests', 429);
    expect((await apiErrorOf(languages())).kind).toBe('rate_limit');
  });

  it('keeps Retry-After of 429 and 503 answers (seconds or HTTP date), within 1 s … 5 min', async () => {
    reply({ code: 429, msg: 'slow down' }, 429, '', { 'retry-after': '3' });
    expect(await apiErrorOf(languages())).toMatchObject({ kind: 'rate_limit', retryAfterMs: 3000 });
    reply('Service Unavailable', 503, '', { 'retry-after': '7' });
    expect(await apiErrorOf(languages())).toMatchObject({ kind: 'server', retryAfterMs: 7000 });
    reply('busy', 429, '', { 'retry-after': new Date(Date.now() + 20_000).toUTCString() });
    const dated = (await apiErrorOf(languages())).retryAfterMs!;
    expect(dated).toBeGreaterThan(18_000);
    expect(dated).toBeLessThanOrEqual(20_000);
    reply('busy', 429, '', { 'retry-after': '0' });
    expect((await apiErrorOf(languages())).retryAfterMs).toBe(1000);
    reply('busy', 429, '', { 'retry-after': '86400' });
    expect((await apiErrorOf(languages())).retryAfterMs).toBe(300_000);
    reply('busy', 429);
    expect((await apiErrorOf(languages())).retryAfterMs).toBeUndefined();
    reply('busy', 429, '', { 'retry-after': 'soon' });
    expect((await apiErrorOf(languages())).retryAfterMs).toBeUndefined();
    // Elsewhere the header is no promise to come back.
    reply('Bad Gateway', 502, '', { 'retry-after': '3' });
    expect((await apiErrorOf(languages())).retryAfterMs).toBeUndefined();
  });

  it('a network failure is kind network with status 0, keeping the cause', async () => {
    const cause = new TypeError('Failed to fetch');
    fetchMock.mockRejectedValueOnce(cause);
    const error = await apiErrorOf(languages());
    expect(error).toMatchObject({ kind: 'network', httpStatus: 0 });
    expect(error.cause).toBe(cause);
  });

  it('an abort is rethrown as is, not reported as a network failure', async () => {
    const controller = new AbortController();
    controller.abort();
    const abort = new DOMException('The operation was aborted.', 'AbortError');
    fetchMock.mockRejectedValueOnce(abort);
    await expect(
      apiRequest('/v1/video_translate/target_languages', {
        schema: targetLanguagesSchema,
        signal: controller.signal,
      }),
    ).rejects.toBe(abort);
  });

  it('HTTP 400 / 100002 is bounds, with the field and its range', async () => {
    reply({ code: 100002, msg: 'generate_count should be [1,8], current: 9' }, 400);
    const error = await apiErrorOf(createImageGeneration({ prompt: 'x', generate_count: 9 }));
    expect(error).toMatchObject({
      kind: 'bounds',
      httpStatus: 400,
      code: 100002,
      field: 'generate_count',
      bounds: { min: '1', max: '8', current: '9' },
    });
    expect(error.msg).toBe('generate_count should be [1,8], current: 9');
  });

  it('HTTP 400 / 100001 is validation, with the field', async () => {
    reply({ code: 100001, msg: 'prompt: is required' }, 400);
    expect(await apiErrorOf(createImageGeneration({ prompt: '' }))).toMatchObject({
      kind: 'validation',
      code: 100001,
      field: 'prompt',
    });
  });

  it('HTTP 200 / 530002 and 530003 are business failures of their own kinds', async () => {
    reply({ code: 530002, msg: 'download reference image failed' });
    expect(await apiErrorOf(createImageGeneration({ prompt: 'x' }))).toMatchObject({
      kind: 'reference_image',
      httpStatus: 200,
      code: 530002,
      msg: 'download reference image failed',
    });
    reply({ code: 530003, msg: 'create task failed', data: null });
    expect(await apiErrorOf(createImageGeneration({ prompt: 'x' }))).toMatchObject({
      kind: 'task_creation',
      code: 530003,
    });
  });

  it('HTTP 401, 429, 413 and 500 envelopes map to their kinds', async () => {
    reply({ code: 401, msg: 'Authentication failed' }, 401);
    expect(await apiErrorOf(languages())).toMatchObject({ kind: 'auth', msg: 'Authentication failed' });
    reply({ code: 429, msg: 'Rate limit exceeded' }, 429);
    expect((await apiErrorOf(languages())).kind).toBe('rate_limit');
    reply({ code: 413, msg: 'Request Entity Too Large' }, 413);
    expect((await apiErrorOf(languages())).kind).toBe('too_large');
    reply({ code: 500, msg: 'internal error' }, 500);
    expect((await apiErrorOf(languages())).kind).toBe('server');
  });

  it('code 0 with an error status is still an error', async () => {
    reply({ code: 0, msg: 'ok', data: [] }, 503);
    expect(await apiErrorOf(languages())).toMatchObject({ kind: 'server', httpStatus: 503 });
  });

  it('an unknown non-zero code is a business error with the service msg', async () => {
    reply({ code: 700001, msg: 'insufficient credits' });
    expect(await apiErrorOf(createImageGeneration({ prompt: 'x' }))).toMatchObject({
      kind: 'business',
      code: 700001,
      msg: 'insufficient credits',
    });
  });
});

describe('same-origin paths only', () => {
  it('every endpoint is a relative /v1/ path on the page origin', async () => {
    const paths = [
      API_PATHS.imageGenerate,
      API_PATHS.videoTranslate,
      API_PATHS.imageToVideo,
      API_PATHS.targetLanguages,
      API_PATHS.imageGenerateTask('a'),
      API_PATHS.videoTranslateTask('a'),
      API_PATHS.imageToVideoTask('a'),
    ];
    for (const path of paths) expect(path).toMatch(/^\/v1\/[a-z_]+/);
    reply({ code: 0, msg: 'ok', data: [] });
    await getTargetLanguages();
    expect(fetchMock.mock.calls[0]![0]).toBe('/v1/video_translate/target_languages');
  });

  it('encodes task ids so they cannot leave their path segment', () => {
    expect(API_PATHS.imageToVideoTask('a/../../b?c#d')).toBe('/v1/image_to_video/a%2F..%2F..%2Fb%3Fc%23d');
  });

  it('refuses absolute and protocol-relative URLs without calling fetch', async () => {
    for (const path of [
      'https://api.example.com/v1/image_generate',
      '//evil.example/v1/image_generate',
      '/api/v1/x',
      'v1/image_generate',
    ]) {
      await expect(apiRequest(path, { schema: targetLanguagesSchema }), path).rejects.toThrow(TypeError);
    }
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('apiRequest: the board chosen on a creation form', () => {
  afterEach(() => setCreationBoard(undefined));

  it('goes with a POST as x-console-board, never with a GET, and not once cleared', async () => {
    setCreationBoard({ id: 'b-1', name: 'Keepers' });
    reply({ code: 0, msg: 'ok', data: { task_ids: ['i2is-1'] } });
    await apiRequest('/v1/image_generate', { body: { prompt: 'x' }, schema: imageGenerateResultSchema });
    expect(new Headers(fetchMock.mock.calls[0]![1]!.headers).get('x-console-board')).toBe('b-1');
    reply({ code: 0, msg: 'ok', data: ['English'] });
    await languages();
    expect(new Headers(fetchMock.mock.calls[1]![1]!.headers).has('x-console-board')).toBe(false);
    setCreationBoard(undefined);
    reply({ code: 0, msg: 'ok', data: { task_ids: ['i2is-2'] } });
    await apiRequest('/v1/image_generate', { body: { prompt: 'x' }, schema: imageGenerateResultSchema });
    expect(new Headers(fetchMock.mock.calls[2]![1]!.headers).has('x-console-board')).toBe(false);
    expect(BOARD_HEADER).toBe('x-console-board');
  });
});
