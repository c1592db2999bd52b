// Each error code and HTTP status maps to one kind with its own explanation, and the field named by
// a 100001/100002 message is found so a form can highlight it.
import { describe, expect, it } from 'vitest';
import { imageGenerateRequestSchema, videoTranslateRequestSchema } from './schemas';
import { imageToVideoRequestSchema } from './image-to-video-request';
import {
  ApiError,
  ERROR_CODES,
  REQUEST_FIELDS,
  fieldFromMessage,
  isApiError,
  kindFor,
  parseBoundsMessage,
  parseRetryAfter,
  type ApiErrorKind,
} from './errors';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  it.each<[string | null, number | undefined]>([
    ['3', 3_000],
    ['1', 1_000],
    ['0', 1_000],
    ['300', 300_000],
    ['301', 300_000],
    [' 12 ', 12_000],
    ['Sun, 22 Nov 2026 12:00:30 GMT', 30_000],
    ['Sun, 22 Nov 2026 11:00:00 GMT', 1_000],
    ['Mon, 23 Nov 2026 12:00:00 GMT', 300_000],
    ['-5', undefined],
    ['1.5', undefined],
    ['later', undefined],
    ['', undefined],
    [null, undefined],
  ])('%j -> %j ms', (header, expected) => {
    expect(parseRetryAfter(header, now)).toBe(expected);
  });
});

describe('kindFor', () => {
  it.each<[string, number, number | undefined, ApiErrorKind]>([
    ['100001 validation (HTTP 400)', 400, 100001, 'validation'],
    ['100002 bounds (HTTP 400)', 400, 100002, 'bounds'],
    ['530002 reference image download (HTTP 200)', 200, 530002, 'reference_image'],
    ['530003 task creation (HTTP 200)', 200, 530003, 'task_creation'],
    ['HTTP 401', 401, 401, 'auth'],
    ['HTTP 401 without an envelope', 401, undefined, 'auth'],
    ['HTTP 403', 403, undefined, 'auth'],
    ['HTTP 429', 429, 429, 'rate_limit'],
    ['HTTP 413', 413, undefined, 'too_large'],
    ['HTTP 500', 500, 500, 'server'],
    ['HTTP 502', 502, undefined, 'server'],
    ['HTTP 503 whatever the code', 503, 100001, 'server'],
    ['unknown task id: HTTP 404 + 100003 (emulator)', 404, 100003, 'not_found'],
    ['unknown task id: 100003 with HTTP 200', 200, 100003, 'not_found'],
    ['unknown task id: 110002 (provider)', 200, 110002, 'not_found'],
    ['unknown task id: HTTP 404 + 110002', 404, 110002, 'not_found'],
    ['HTTP 404 with another business code', 404, 123456, 'not_found'],
    ['HTTP 404 without a code: endpoint unavailable', 404, undefined, 'unavailable'],
    ['HTTP 404 with code 404: endpoint unavailable', 404, 404, 'unavailable'],
    ['other code, HTTP 200', 200, 999999, 'business'],
    ['other code, HTTP 400', 400, 42, 'business'],
  ])('%s', (_label, status, code, kind) => {
    expect(kindFor(status, code)).toBe(kind);
  });

  it('exposes the documented codes', () => {
    expect(ERROR_CODES).toEqual({
      validation: 100001,
      bounds: 100002,
      referenceImage: 530002,
      taskCreation: 530003,
      taskNotFound: 100003,
    });
  });
});

describe('parseBoundsMessage', () => {
  it('reads `<field> should be [<min>,<max>], current: <value>`', () => {
    expect(parseBoundsMessage('generate_count should be [1,8], current: 9')).toEqual({
      field: 'generate_count',
      min: '1',
      max: '8',
      current: '9',
    });
    expect(parseBoundsMessage('speaker_num should be [0,2147483647], current: -1')).toEqual({
      field: 'speaker_num',
      min: '0',
      max: '2147483647',
      current: '-1',
    });
  });

  it('tolerates spaces inside the brackets and an empty side', () => {
    expect(parseBoundsMessage('prompt should be [1, 1000], current: 1001')).toEqual({
      field: 'prompt',
      min: '1',
      max: '1000',
      current: '1001',
    });
    expect(parseBoundsMessage('name should be [,99], current: 120')).toEqual({
      field: 'name',
      min: '',
      max: '99',
      current: '120',
    });
  });

  it('keeps indexed field paths', () => {
    expect(parseBoundsMessage('reference_images[0] should be [0,20971520], current: 30000000')?.field).toBe(
      'reference_images[0]',
    );
  });

  it('returns undefined for any other text', () => {
    for (const msg of [
      '',
      'prompt: is required',
      'generate_count should be between 1 and 8',
      'generate_count should be [1,8]',
      'should be [1,8], current: 9',
    ]) {
      expect(parseBoundsMessage(msg), msg).toBeUndefined();
    }
  });
});

describe('fieldFromMessage', () => {
  it('finds the field a validation message starts with', () => {
    expect(fieldFromMessage('prompt: is required')).toBe('prompt');
    expect(fieldFromMessage('prompt is required')).toBe('prompt');
    expect(fieldFromMessage('image_ratio: must be one of 1:1, 3:2, 2:3')).toBe('image_ratio');
    expect(fieldFromMessage('target_languages: must not be empty')).toBe('target_languages');
  });

  it('finds a field named later in the message, Go validator spelling included', () => {
    expect(
      fieldFromMessage(
        "Key: 'ImageGenerateReq.GenerateCount' Error:Field validation for 'GenerateCount' failed on the 'max' tag",
      ),
    ).toBe('generate_count');
    expect(
      fieldFromMessage('json: cannot unmarshal number into Go struct field Req.video_url of type string'),
    ).toBe('video_url');
  });

  it('does not invent a field from an ordinary leading word', () => {
    expect(fieldFromMessage("invalid character 'x' looking for beginning of value")).toBeUndefined();
    expect(fieldFromMessage('the request body is not JSON')).toBeUndefined();
  });

  it('honours an explicit list of known fields', () => {
    expect(fieldFromMessage('prompt: is required', ['video_url'])).toBeUndefined();
    expect(fieldFromMessage('bad value for video_url', ['video_url'])).toBe('video_url');
  });

  it('knows every request field', () => {
    for (const field of [
      'prompt',
      'reference_images',
      'module',
      'generate_count',
      'image_quality',
      'image_ratio',
      'callback_url',
      'target_languages',
      'video_url',
      'speaker_num',
      'name',
      'image_url',
      'duration',
    ]) {
      expect(REQUEST_FIELDS).toContain(field);
    }
  });

  it('lists exactly the fields of the request schemas', () => {
    const schemaFields = new Set([
      ...Object.keys(imageGenerateRequestSchema.shape),
      ...Object.keys(videoTranslateRequestSchema.shape),
      ...Object.keys(imageToVideoRequestSchema.shape),
    ]);
    expect([...REQUEST_FIELDS].sort()).toEqual([...schemaFields].sort());
  });
});

describe('ApiError', () => {
  it('carries kind, status, code, the service msg verbatim and an explanation', () => {
    const error = new ApiError({
      kind: 'reference_image',
      httpStatus: 200,
      code: 530002,
      msg: 'download reference image failed',
    });
    expect(error).toBeInstanceOf(Error);
    expect(isApiError(error)).toBe(true);
    expect(isApiError(new Error('x'))).toBe(false);
    expect(error.name).toBe('ApiError');
    expect(error.message).toBe('download reference image failed');
    expect(error).toMatchObject({
      kind: 'reference_image',
      httpStatus: 200,
      code: 530002,
      msg: 'download reference image failed',
    });
    expect(error.explanation).toMatch(/20 MB/);
  });

  it('falls back to the explanation as message and 0 as status when nothing arrived', () => {
    const error = new ApiError({ kind: 'network' });
    expect(error.httpStatus).toBe(0);
    expect(error.msg).toBe('');
    expect(error.message).toBe(error.explanation);
  });

  it('gives each kind its own plain-language explanation', () => {
    const kinds: ApiErrorKind[] = [
      'validation',
      'bounds',
      'reference_image',
      'task_creation',
      'auth',
      'rate_limit',
      'not_found',
      'unavailable',
      'too_large',
      'server',
      'network',
      'malformed',
      'business',
    ];
    const explanations = kinds.map((kind) => new ApiError({ kind }).explanation);
    expect(new Set(explanations).size).toBe(kinds.length);
    for (const text of explanations) expect(text.length).toBeGreaterThan(20);
    expect(new ApiError({ kind: 'auth' }).explanation).toMatch(/API_TOKEN/);
    expect(new ApiError({ kind: 'rate_limit' }).explanation).toMatch(/30 seconds/);
  });

  it('parses field and bounds for 100002', () => {
    const error = new ApiError({
      kind: 'bounds',
      httpStatus: 400,
      code: 100002,
      msg: 'generate_count should be [1,8], current: 9',
    });
    expect(error.field).toBe('generate_count');
    expect(error.bounds).toEqual({ min: '1', max: '8', current: '9' });
  });

  it('finds the field for 100001 and leaves bounds empty', () => {
    const error = new ApiError({
      kind: 'validation',
      httpStatus: 400,
      code: 100001,
      msg: 'prompt: is required',
    });
    expect(error.field).toBe('prompt');
    expect(error.bounds).toBeUndefined();
    expect(
      new ApiError({ kind: 'validation', code: 100001, msg: 'request body is not valid JSON' }).field,
    ).toBeUndefined();
  });

  it('does not look for fields in other kinds', () => {
    expect(
      new ApiError({ kind: 'business', code: 42, msg: 'prompt: flagged by moderation' }).field,
    ).toBeUndefined();
    expect(
      new ApiError({ kind: 'server', msg: 'generate_count should be [1,8], current: 9' }).bounds,
    ).toBeUndefined();
  });

  it('marks rate limit, server and network errors as transient, others not', () => {
    expect(new ApiError({ kind: 'rate_limit' }).isTransient).toBe(true);
    expect(new ApiError({ kind: 'server' }).isTransient).toBe(true);
    expect(new ApiError({ kind: 'network' }).isTransient).toBe(true);
    for (const kind of ['validation', 'bounds', 'auth', 'not_found', 'malformed', 'business'] as const) {
      expect(new ApiError({ kind }).isTransient, kind).toBe(false);
    }
  });
});

describe('fieldFromMessage with unusual known fields', () => {
  it('treats known field names literally, not as patterns', () => {
    expect(fieldFromMessage('bad reference_images[0] value', ['reference_images[0]'])).toBe(
      'reference_images[0]',
    );
    expect(fieldFromMessage('bad value', ['a.b', '(x'])).toBeUndefined();
  });
});
