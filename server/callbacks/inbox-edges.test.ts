// The inbox's edges: what the /log query may ask of the store, which content types a callback may
// come with, and the words of its refusals.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createCallbackInbox, type CallbackInbox } from './inbox';
import {
  imageGenerateCallback,
  imageToVideoCallback,
  videoTranslateCallback,
} from '../testing/callback-fixtures';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { CallbackStore } from './store';

const SECRET = 'test-secret-0123456789abcdef';
let dataDir: string;
let store: CallbackStore;
let inbox: CallbackInbox;

/** `type` null: no Content-Type at all (a byte body, which gets none by default). */
function post(body: string, type: string | null = 'application/json') {
  return inbox.app.request(`/callbacks/${SECRET}`, {
    method: 'POST',
    headers: type === null ? {} : { 'content-type': type },
    body: new TextEncoder().encode(body),
  });
}
const postJson = (value: unknown) => post(JSON.stringify(value));

beforeEach(async () => {
  await resetTestDatabase();
  dataDir = mkdtempSync(join(tmpdir(), 'inbox-edges-'));
  store = new CallbackStore(testDatabase());
  inbox = createCallbackInbox({ dataDir, secret: SECRET, store });
});
afterEach(async () => {
  await inbox.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /callbacks/<secret>/log: its query, bounded', () => {
  async function log(query: string) {
    const response = await inbox.app.request(`/callbacks/${SECRET}/log${query}`);
    const body = (await response.json()) as {
      code: number;
      msg: string;
      data: { total: number; lastId: number; items: { id: number }[] };
    };
    return { response, body, ids: body.data.items.map((item) => item.id) };
  }

  it('asks the store for 100 by default, at most 500, at least 1, before a positive whole id, a trimmed task', async () => {
    for (const body of [videoTranslateCallback, imageToVideoCallback, imageGenerateCallback])
      await postJson(body);
    const all = await log('');
    expect(all.response.headers.get('cache-control')).toBe('no-store');
    expect(all.body).toMatchObject({ code: 0, msg: 'ok', data: { total: 3, lastId: 3 } });
    expect(all.ids).toEqual([3, 2, 1]);
    expect((await log('?before=3')).ids).toEqual([2, 1]);
    expect((await log('?before=1')).ids).toEqual([]);
    expect(await log('?task=%202002%20')).toMatchObject({ ids: [2], body: { data: { total: 1 } } });
    // What the store is asked, for the bounds a log of three cannot show.
    const page = vi.spyOn(inbox.store, 'page');
    const asked = async (query: string) => {
      await log(query);
      const { limit, before, task } = page.mock.lastCall![0];
      return { limit, before, task };
    };
    expect(await asked('')).toEqual({ limit: 100, before: undefined, task: undefined });
    for (const [limit, asks] of [
      ['500', 500],
      ['501', 500],
      ['1', 1],
      ['-3', 1],
      ['0', 100],
      ['many', 100],
    ] as const)
      expect((await asked(`?limit=${limit}`)).limit, `limit=${limit}`).toBe(asks);
    expect((await asked('?before=1')).before).toBe(1);
    for (const before of ['0', '-1', '2.5', 'x'])
      expect((await asked(`?before=${before}`)).before, `before=${before}`).toBeUndefined();
    expect((await asked('?task=%20%20')).task).toBeUndefined();
  });
});

describe('POST /callbacks/<secret>: content types and refusals', () => {
  it('takes JSON and JSON-based types in any case, and refuses every other type, or none, with 415', async () => {
    const body = (taskId: string) =>
      JSON.stringify({ ...imageGenerateCallback, data: { ...imageGenerateCallback.data, task_id: taskId } });
    for (const type of [
      'application/json',
      'APPLICATION/JSON',
      'application/json ;charset=utf-8',
      'application/vnd.api+json',
      'application/problem+json; charset=utf-8',
    ])
      expect((await post(body(type), type)).status, type).toBe(200);
    for (const type of [
      null,
      'application/jsonp',
      'application/json-seq',
      'text/application/json',
      'application/+json',
      'application/x+json+xml',
      'application/json x',
    ]) {
      const response = await post(body(`refused ${type}`), type);
      expect(response.status, String(type)).toBe(415);
      expect(await response.json(), String(type)).toEqual({
        code: 415,
        msg: 'A callback must be sent with Content-Type: application/json',
      });
    }
  });

  it('names at most three of the problems of a body, each at its path', async () => {
    const response = await postJson({ code: 'x', msg: 1, task_type: 'image_generate', data: { status: 2 } });
    expect(response.status).toBe(400);
    const { code, msg } = (await response.json()) as { code: number; msg: string };
    expect(code).toBe(100001);
    const problems = msg.split('; ');
    expect(problems).toHaveLength(3);
    for (const problem of problems) expect(problem).toMatch(/^(code|msg|data\.\w+): \S/);
  });

  it('words each refusal: no task type, too deep, braked, not stored', async () => {
    const refusal = async (response: Response) => [response.status, await response.json()];
    expect(await refusal(await post('null'))).toEqual([
      400,
      { code: 100001, msg: 'task_type must be one of image_generate, video_translate, image_to_video' },
    ]);
    let deep: unknown = 'x';
    for (let i = 0; i < 100; i++) deep = [deep];
    expect(await refusal(await postJson({ ...imageGenerateCallback, deep }))).toEqual([
      400,
      { code: 100001, msg: expect.stringMatching(/^The body is nested more than \d+ levels deep$/) },
    ]);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await store.close();
    expect(await refusal(await postJson(imageGenerateCallback))).toEqual([
      500,
      { code: 500, msg: 'The callback could not be stored; send it again later' },
    ]);
    expect(errors).toHaveBeenCalledWith(
      '[callbacks] could not store a callback: The callback store is closed',
    );
    errors.mockRestore();
  });

  it('tells a flooding sender to wait, in words and Retry-After', async () => {
    await inbox.close();
    inbox = createCallbackInbox({ dataDir, secret: SECRET, store, ratePerSecond: 1, now: () => 0 });
    for (let i = 0; i < 10; i++) await postJson(imageGenerateCallback);
    const braked = await postJson(imageGenerateCallback);
    expect(braked.status).toBe(429);
    expect(braked.headers.get('retry-after')).toBe('1');
    expect(await braked.json()).toEqual({
      code: 429,
      msg: 'Too many callbacks from this sender; send it again later',
    });
  });

  it('acknowledges a stored callback even when looking up its task fails, and says so in the log', async () => {
    await inbox.close();
    const hints = {
      received: () => Promise.reject(new Error('lookup down')),
      created: async () => {},
      noStatusQuery: async () => {},
    };
    inbox = createCallbackInbox({ dataDir, secret: SECRET, store, hints });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const response = await postJson(imageGenerateCallback);
    expect(await response.json()).toEqual({ code: 0, msg: 'ok', data: { id: 1, duplicate: false } });
    expect(errors).toHaveBeenCalledWith('[callbacks] could not look up the task of callback 1: lookup down');
    errors.mockRestore();
  });

  it('answers anything else under /callbacks with the JSON 404, the same as a wrong secret', async () => {
    for (const path of [
      '/callbacks',
      '/callbacks/',
      `/callbacks/${SECRET}/nothing-here`,
      '/callbacks/not-the-secret-000000',
      '/callbacks/not-the-secret-000000/log',
    ]) {
      const response = await inbox.app.request(path, { method: 'POST', body: '{}' });
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toEqual({ code: 404, msg: 'Not found' });
    }
  });
});
