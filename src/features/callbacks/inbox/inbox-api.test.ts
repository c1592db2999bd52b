import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/api/errors';
import { CALLBACK_EXAMPLES } from '@/features/callbacks/callback-examples';
import { fetchCallbackLog, postCallback, storedCallbackCheck } from './inbox-api';

const INBOX = '/__console/callbacks/secret';
const entry = { id: 3, receivedAt: '2026-11-23T10:00:00.000Z', body: CALLBACK_EXAMPLES.image_generate };

function answer(data: unknown, status = 200) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ code: 0, msg: 'ok', data }), { status })),
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('storedCallbackCheck', () => {
  it('takes a stored callback and refuses a malformed one, saying where', () => {
    expect(storedCallbackCheck.safeParse(entry)).toEqual({ success: true, data: entry });
    const cases: [unknown, PropertyKey[]][] = [
      [null, []],
      [[entry], []],
      [{ ...entry, id: '3' }, ['id']],
      [{ ...entry, id: 1.5 }, ['id']],
      [{ ...entry, receivedAt: 0 }, ['receivedAt']],
      [{ ...entry, body: undefined }, ['body']],
      [{ ...entry, body: { ...entry.body, task_type: 'other' } }, ['body', 'task_type']],
      [
        { ...entry, body: { ...entry.body, data: { ...entry.body.data, status: 'RUNNING' } } },
        ['body', 'data', 'status'],
      ],
      [
        { ...entry, body: { ...entry.body, data: { ...entry.body.data, image_url: 7 } } },
        ['body', 'data', 'image_url'],
      ],
    ];
    for (const [value, path] of cases) {
      const result = storedCallbackCheck.safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.path).toEqual(path);
    }
  });
});

describe('fetchCallbackLog', () => {
  it('keeps the well-formed entries of a page and drops an odd one', async () => {
    answer({ total: 2, lastId: 3, items: [entry, { ...entry, id: 'x' }] });
    await expect(fetchCallbackLog(INBOX)).resolves.toEqual({ total: 2, lastId: 3, items: [entry] });
  });

  it.each([
    ['not an object', 'page'],
    ['no items', { total: 1, lastId: 1 }],
    ['items not a list', { total: 1, lastId: 1, items: {} }],
    ['a total that is not an integer', { total: '1', lastId: 1, items: [] }],
    ['no lastId', { total: 0, items: [] }],
  ])('turns a page with %s into a malformed ApiError, not a crash', async (_case, data) => {
    answer(data);
    const failure = await fetchCallbackLog(INBOX).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({ kind: 'malformed' });
  });
});

describe('postCallback', () => {
  it('returns the stored id and whether it was a duplicate', async () => {
    answer({ id: 9, duplicate: true });
    await expect(postCallback(INBOX, CALLBACK_EXAMPLES.video_translate)).resolves.toEqual({
      id: 9,
      duplicate: true,
    });
  });

  it.each([[{ id: 9 }], [{ id: '9', duplicate: false }], [null], [[]]])(
    'turns the malformed answer %j into an ApiError',
    async (data) => {
      answer(data);
      await expect(postCallback(INBOX, CALLBACK_EXAMPLES.video_translate)).rejects.toMatchObject({
        kind: 'malformed',
      });
    },
  );
});

describe('when the error module cannot load either', () => {
  it('still throws the request’s own error, shaped like an ApiError, not the loader’s', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    vi.doMock('@/api/errors', () => {
      throw new Error('Failed to fetch dynamically imported module');
    });
    try {
      const error = await fetchCallbackLog(INBOX).catch((caught: unknown) => caught);
      expect(error).toMatchObject({
        name: 'ApiError',
        kind: 'network',
        httpStatus: 0,
        message: 'The console server could not be reached',
      });
    } finally {
      vi.doUnmock('@/api/errors');
    }
  });
});
