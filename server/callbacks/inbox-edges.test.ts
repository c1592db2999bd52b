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
});
