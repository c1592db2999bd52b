// The bulk routes (server/tasks/bulk.ts) on their own: a Hono app with only mountBulk, the shared
// PGlite, a fetch stub for the service's links and a store in memory, so each test sees exactly
// where a zip's bytes came from, what its "Not included.txt" says, and what the hidden routes
// answer without a sign-in or with a body they cannot read.
import { sql } from 'kysely';
import { Readable } from 'node:stream';
import { Hono } from 'hono';
import { beforeEach, describe, expect, it } from 'vitest';
import { ZIP_TASKS_MAX } from '../../src/api/bulk-rules';
import type { ResultStore } from '../results/store';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { zipEntries } from '../testing/unzip';
import { asPerson } from '../testing/identity';
import { mountBulk, NOT_INCLUDED_NAME, uniqueName, zipOfTasks } from './bulk';

const ORIGIN = 'http://127.0.0.1:5173';
/** A request without a signed-in person. */
const ANONYMOUS = {};

/** The service's links: each URL's answer, and every call's URL and signal. */
function serviceStub(answers: Record<string, () => Response>) {
  const calls: { url: string; signal: unknown }[] = [];
  const fetchStub = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    calls.push({ url, signal: init?.signal });
    const answer = answers[url];
    if (!answer) throw new TypeError('fetch failed');
    return answer();
  }) as typeof fetch;
  return { fetchStub, calls };
}

/** A store in memory holding `objects` by key. */
const storeOf = (objects: Record<string, string>): Promise<ResultStore> =>
  Promise.resolve({
    kind: 'memory',
    put: () => Promise.resolve(),
    delete: () => Promise.resolve(),
    get: (key) =>
      Promise.resolve(
        key in objects
          ? { body: Readable.from([Buffer.from(objects[key]!)]), length: objects[key]!.length }
          : undefined,
      ),
  });

interface Entry {
  bytes: string;
  modified: Date;
}

async function unzip(response: Response): Promise<Map<string, Entry>> {
  const entries = await zipEntries(Buffer.from(await response.arrayBuffer()));
  return new Map(
    [...entries].map(([name, { bytes, modified }]) => [name, { bytes: bytes.toString(), modified }]),
  );
}

/** A video translation named `name` whose result is `videoUrl` (none: no result yet). */
async function task(
  id: string,
  fields: { name: string; videoUrl?: string; status?: string; finishedAt?: string; updatedAt?: string },
) {
  const { db } = await testDatabase();
  await db
    .insertInto('tasks')
    .values({
      id,
      kind: 'video_translate',
      source: 'created',
      params: null,
      batch: null,
      prompt: null,
      name: fields.name,
      language: null,
      creator: 'Ana',
      status: fields.status ?? 'SUCCEEDED',
      result: JSON.stringify(fields.videoUrl ? { video_url: fields.videoUrl } : {}),
      last_error: null,
      last_source: null,
      created_at: new Date('2026-03-01T00:00:00Z'),
      updated_at: new Date(fields.updatedAt ?? '2026-03-09T12:00:00Z'),
      finished_at: fields.finishedAt ?? null,
    })
    .execute();
}

/** The copy job's row of a kept result file under `key`. */
async function kept(taskId: string, key: string) {
  const { db } = await testDatabase();
  await sql`insert into result_copies (task_id, role, idx, source_url, state, store_key)
    values (${taskId}, 'video', 0, 'https://service.test/x', 'kept', ${key})`.execute(db);
}

function bulkApp(fetchStub: typeof fetch, store?: Promise<ResultStore>) {
  const app = new Hono();
  mountBulk(app, testDatabase(), fetchStub, store);
  const post = (path: string, body: unknown, env: Record<string, unknown> = asPerson('Ana')) =>
    app.request(
      `${ORIGIN}${path}`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
      env,
    );
  const get = (path: string, env: Record<string, unknown> = asPerson('Ana')) =>
    app.request(`${ORIGIN}${path}`, {}, env);
  return { post, get };
}

beforeEach(async () => {
  await resetTestDatabase();
});

describe('uniqueName', () => {
  it('numbers the second, third… of one name, case-insensitively, before the extension if there is one', () => {
    const taken = new Set<string>();
    expect(['a.mp4', 'A.MP4', 'a.mp4'].map((name) => uniqueName(name, taken))).toEqual([
      'a.mp4',
      'A (2).MP4',
      'a (3).mp4',
    ]);
    expect(['notes', 'notes'].map((name) => uniqueName(name, taken))).toEqual(['notes', 'notes (2)']);
    // A leading dot is part of the name, not an extension.
    expect(['.mp4', '.mp4'].map((name) => uniqueName(name, taken))).toEqual(['.mp4', '.mp4 (2)']);
  });
});

describe('the zip of chosen tasks', () => {
  it('reads a kept copy from the store, fetches the rest with the request signal, and says what is missing', async () => {
    await task('kept-1', { name: 'Kept', videoUrl: 'https://service.test/kept.mp4' });
    await kept('kept-1', 'key-kept');
    // Kept, but the store has lost it: fetched from the service instead.
    await task('lost-1', { name: 'Lost', videoUrl: 'https://service.test/lost.mp4' });
    await kept('lost-1', 'key-lost');
    await task('refused-1', { name: 'Refused', videoUrl: 'https://service.test/refused.mp4' });
    await task('bare-1', { name: 'Bare', videoUrl: 'https://service.test/bare.mp4' });
    await task('down-1', { name: 'Down', videoUrl: 'https://service.test/down.mp4' });
    await task('blank-1', { name: 'Blank', status: '' });
    await task('running-1', { name: 'Running', status: 'RUNNING' });
    let refusedCancelled = false;
    const { fetchStub, calls } = serviceStub({
      'https://service.test/kept.mp4': () => new Response('from the service'),
      'https://service.test/lost.mp4': () => new Response('lost, fetched'),
      // A refusal without a body: nothing to cancel, the status still said.
      'https://service.test/bare.mp4': () => new Response(null, { status: 404 }),
      'https://service.test/refused.mp4': () =>
        new Response(
          new ReadableStream({
            cancel: () => {
              refusedCancelled = true;
            },
          }),
          { status: 503 },
        ),
    });
    const { post } = bulkApp(fetchStub, storeOf({ 'key-kept': 'from the store' }));
    const ids = ['kept-1', 'lost-1', 'refused-1', 'bare-1', 'down-1', 'blank-1', 'running-1', 'gone-1'];
    const response = await post('/__console/tasks/zip', { ids });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const files = await unzip(response);
    expect([...files.keys()]).toEqual(['Kept.mp4', 'Lost.mp4', NOT_INCLUDED_NAME]);
    expect(files.get('Kept.mp4')!.bytes).toBe('from the store');
    expect(files.get('Lost.mp4')!.bytes).toBe('lost, fetched');
    expect(files.get(NOT_INCLUDED_NAME)!.bytes).toBe(
      [
        'Not in this zip:',
        'gone-1: this console has no record of it',
        'refused-1: Refused.mp4 could not be fetched (the service answered HTTP 503)',
        'bare-1: Bare.mp4 could not be fetched (the service answered HTTP 404)',
        'down-1: Down.mp4 could not be fetched from the service',
        'blank-1: no result file (status unknown)',
        'running-1: no result file (status RUNNING)',
        '',
      ].join('\n'),
    );
    expect(refusedCancelled).toBe(true);
    expect(calls.map((call) => call.url)).toEqual([
      'https://service.test/lost.mp4',
      'https://service.test/refused.mp4',
      'https://service.test/bare.mp4',
      'https://service.test/down.mp4',
    ]);
    expect(calls.every((call) => call.signal instanceof AbortSignal)).toBe(true);
  });

  it('fetches a kept file from the service when the console has no store', async () => {
    await task('kept-1', { name: 'Kept', videoUrl: 'https://service.test/kept.mp4' });
    await kept('kept-1', 'key-kept');
    const { fetchStub } = serviceStub({ 'https://service.test/kept.mp4': () => new Response('fetched') });
    const files = await unzip((await bulkApp(fetchStub).post('/__console/tasks/zip', { ids: ['kept-1'] }))!);
    expect(files.get('Kept.mp4')!.bytes).toBe('fetched');
  });

  it('dates each file by when its task finished, else when it was last updated', async () => {
    await task('done-1', {
      name: 'Done',
      videoUrl: 'https://service.test/done.mp4',
      finishedAt: '2026-03-05T10:00:00Z',
    });
    await task('open-1', { name: 'Open', videoUrl: 'https://service.test/open.mp4' });
    const { fetchStub } = serviceStub({
      'https://service.test/done.mp4': () => new Response('d'),
      'https://service.test/open.mp4': () => new Response('o'),
    });
    const files = await unzip(
      await bulkApp(fetchStub).post('/__console/tasks/zip', { ids: ['done-1', 'open-1'] }),
    );
    // A zip's dates are local and to 2 s: the day tells them apart.
    expect(files.get('Done.mp4')!.modified.getDate()).toBe(new Date('2026-03-05T10:00:00Z').getDate());
    expect(files.get('Open.mp4')!.modified.getDate()).toBe(new Date('2026-03-09T12:00:00Z').getDate());
  });

  it(`keeps the name "${NOT_INCLUDED_NAME}" for its own note`, async () => {
    await task('note-1', { name: 'Not included', videoUrl: 'https://service.test/a.txt' });
    await task('gone-like', { name: 'Other', status: 'FAILED' });
    const { fetchStub } = serviceStub({ 'https://service.test/a.txt': () => new Response('mine') });
    const files = await unzip(
      await bulkApp(fetchStub).post('/__console/tasks/zip', { ids: ['note-1', 'gone-like'] }),
    );
    expect(files.get('Not included (2).txt')!.bytes).toBe('mine');
    expect(files.get(NOT_INCLUDED_NAME)!.bytes).toContain('gone-like: no result file (status FAILED)');
  });

  it('is none for no ids, and a 404 that is not stored for tasks the console does not know', async () => {
    const { fetchStub } = serviceStub({});
    const { db } = await testDatabase();
    const signal = new AbortController().signal;
    expect(await zipOfTasks(db, [], () => 'x.zip', fetchStub, undefined, signal)).toBeUndefined();
    const unknown = await bulkApp(fetchStub).post('/__console/tasks/zip', { ids: ['nobody'] });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('cache-control')).toBe('no-store');
    expect(await unknown.json()).toEqual({ code: 404, msg: 'This console has no record of those tasks' });
  });

  it('refuses a body it cannot read with the reason of the ids first, then of the name', async () => {
    const { post } = bulkApp(serviceStub({}).fetchStub);
    const reason = async (body: unknown) =>
      ((await (await post('/__console/tasks/zip', body)).json()) as { msg: string }).msg;
    expect(await reason({ nope: 1 })).toBe('Send {"ids": [task ids]}');
    // Both wrong: the ids' reason, as they are checked first.
    expect(await reason({ ids: [], name: 42 })).toBe('Send {"ids": [task ids]}');
    expect(
      await reason({ ids: Array.from({ length: ZIP_TASKS_MAX + 1 }, (_, i) => `t${i}`), name: 42 }),
    ).toContain(`at most ${ZIP_TASKS_MAX} tasks`);
    expect(await reason({ ids: ['a'], name: 42 })).toContain('"name" is the zip\'s name');
  });
});

describe('hidden tasks without a sign-in or a readable body', () => {
  it('lists none for an anonymous asker and refuses to hide for one', async () => {
    const { get, post } = bulkApp(serviceStub({}).fetchStub);
    const listed = await get('/__console/tasks/hidden', ANONYMOUS);
    expect(listed.status).toBe(200);
    expect(listed.headers.get('cache-control')).toBe('no-store');
    expect(await listed.json()).toEqual({ code: 0, msg: 'ok', data: { ids: [] } });
    const refused = await post('/__console/tasks/hidden', { ids: ['a'], hidden: true }, ANONYMOUS);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ code: 401, msg: 'Sign in to hide tasks from your view' });
  });

  it('answers how many ids it changed, lists them newest hidden first, and names the body it wants', async () => {
    const { get, post } = bulkApp(serviceStub({}).fetchStub);
    const hidden = await post('/__console/tasks/hidden', { ids: ['a', 'b'], hidden: true });
    expect(await hidden.json()).toEqual({ code: 0, msg: 'ok', data: { changed: 2 } });
    expect(hidden.headers.get('cache-control')).toBe('no-store');
    const { db } = await testDatabase();
    await sql`update hidden_tasks set hidden_at = hidden_at + interval '1 minute' where task_id = 'a'`.execute(
      db,
    );
    expect(await (await get('/__console/tasks/hidden')).json()).toEqual({
      code: 0,
      msg: 'ok',
      data: { ids: ['a', 'b'] },
    });
    const unreadable = await post('/__console/tasks/hidden', { ids: ['a'] });
    expect(unreadable.status).toBe(400);
    expect(((await unreadable.json()) as { msg: string }).msg).toBe(
      'Send {"ids": [task ids], "hidden": true or false}',
    );
  });
});
