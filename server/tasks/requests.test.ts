// Requests: one submission each, recorded with its tasks in one transaction, listed and fetched by
// /__console/requests, and made by migration 0007 for the tasks recorded before it.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrate } from '../db/migrations';
import { useTestNodeApp, TEST_ORIGIN } from '../testing/test-node-app';
import { resetTestDatabase } from '../testing/database';
import { rollBackTo } from '../testing/roll-back';
import type { TaskView } from './task-view';
import { publicParams, requestTitle, type RequestWithTasks } from './requests';

const ORIGIN = TEST_ORIGIN;
const server = useTestNodeApp('requests-test');

async function post(path: string, body: unknown, user = 'Ana') {
  const response = await server.postJsonAs(user, path, body);
  return (await response.json()) as { code: number; data: unknown };
}

async function get<T>(path: string): Promise<{ status: number; data: T }> {
  const response = await server.request(path);
  const body = (await response.json()) as { data: T };
  return { status: response.status, data: body.data };
}

describe('publicParams and requestTitle', () => {
  it('drops callback_url and token-like keys at any depth, keeps the rest', () => {
    expect(
      publicParams({
        prompt: 'p',
        callback_url: 'https://x/callbacks/s',
        api_key: 'k',
        nested: { access_token: 't', keep: 1, list: [{ Secret: 's', ok: true }] },
      }),
    ).toEqual({ prompt: 'p', nested: { keep: 1, list: [{ ok: true }] } });
  });
  it('is the prompt, else the name, else the first uploaded file, else nothing', () => {
    expect(requestTitle({ prompt: 'a fox', name: 'n' })).toBe('a fox');
    expect(requestTitle({ prompt: '  ', name: 'All-hands recap' })).toBe('All-hands recap');
    expect(requestTitle({ files: [{ field: 'video_url', url: 'u', name: 'talk.mp4' }] })).toBe('talk.mp4');
    expect(requestTitle({})).toBeNull();
  });
});

describe('a creation records one request with its tasks', () => {
  it('four images: one request, its tasks in order, each task naming it and its title', async () => {
    const { data } = await post('/v1/image_generate', { prompt: 'red bicycle, Lisbon', generate_count: 4 });
    const ids = (data as { task_ids: string[] }).task_ids;
    const requestId = `req-${ids[0]}`;
    const one = await get<RequestWithTasks>(`/__console/requests/${requestId}`);
    expect(one.status).toBe(200);
    expect(one.data).toMatchObject({
      id: requestId,
      kind: 'image_generate',
      creator: 'Ana',
      title: 'red bicycle, Lisbon',
      params: { prompt: 'red bicycle, Lisbon', generate_count: 4 },
      taskIds: ids,
    });
    expect(one.data.tasks.map((task) => task.id)).toEqual(ids);
    const task = await get<{ task: TaskView }>(`/__console/tasks/${ids[2]}`);
    expect(task.data.task).toMatchObject({ requestId, title: 'red bicycle, Lisbon' });
  });

  it('a translation into three languages keeps no callback address in its request', async () => {
    const { data } = await post('/v1/video_translate', {
      video_url: `${ORIGIN}/emulator/samples/video.mp4`,
      target_languages: ['Japanese', 'German', 'French'],
      name: 'All-hands recap',
      callback_url: `${ORIGIN}/callbacks/${server.secret}`,
    });
    const ids = (data as { task_id: string }[]).map((item) => item.task_id);
    expect(ids).toHaveLength(3);
    const one = await get<RequestWithTasks>(`/__console/requests/req-${ids[0]}`);
    expect(one.data.title).toBe('All-hands recap');
    expect(one.data.params).not.toHaveProperty('callback_url');
    expect(JSON.stringify(one.data)).not.toContain(server.secret);
    expect(one.data.tasks.map((task) => task.language)).toEqual(['Japanese', 'German', 'French']);
  });

  it('lists requests newest first, pages by cursor, filters by creator; an unknown id is a 404', async () => {
    await post('/v1/image_generate', { prompt: 'first', generate_count: 1 }, 'Ana');
    await post('/v1/image_generate', { prompt: 'second', generate_count: 2 }, 'Bo');
    await post('/v1/image_generate', { prompt: 'third', generate_count: 1 }, 'Ana');
    const page = await get<{ items: RequestWithTasks[]; nextCursor: string | null }>(
      '/__console/requests?limit=2',
    );
    expect(page.data.items.map((item) => item.title)).toEqual(['third', 'second']);
    expect(page.data.items[1]!.tasks).toHaveLength(2);
    const next = await get<{ items: RequestWithTasks[]; nextCursor: string | null }>(
      `/__console/requests?limit=2&cursor=${encodeURIComponent(page.data.nextCursor!)}`,
    );
    expect(next.data.items.map((item) => item.title)).toEqual(['first']);
    expect(next.data.nextCursor).toBeNull();
    const ana = await get<{ items: RequestWithTasks[] }>('/__console/requests?creator=Ana');
    expect(ana.data.items.map((item) => item.title)).toEqual(['third', 'first']);
    expect((await get('/__console/requests/req-nothing')).status).toBe(404);
    expect((await get('/__console/requests?kind=nope')).status).toBe(400);
  });

  it('a looked-up task belongs to no request', async () => {
    const { data } = await post('/v1/image_generate', { prompt: 'x', generate_count: 1 });
    const [id] = (data as { task_ids: string[] }).task_ids;
    const database = await resetTestDatabase();
    await server.nodeApp.app.request(`${ORIGIN}/v1/image_generate/${id}`);
    const task = await get<{ task: TaskView }>(`/__console/tasks/${id}`);
    expect(task.data.task.requestId).toBeUndefined();
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from requests`.execute(database.db);
    expect(rows[0]!.n).toBe(0);
  });
});

describe('the Tasks list by request (group=request)', () => {
  type GroupedPage = { items: TaskView[]; nextCursor: string | null; requests?: RequestWithTasks[] };

  it('a page brings its requests whole, even where the page or its filter holds only some of their tasks', async () => {
    const images = await post('/v1/image_generate', { prompt: 'red bicycle', generate_count: 4 }, 'Ana');
    const imageIds = (images.data as { task_ids: string[] }).task_ids;
    const translation = await post(
      '/v1/video_translate',
      {
        video_url: `${ORIGIN}/emulator/samples/video.mp4`,
        target_languages: ['Japanese', 'German'],
        name: 'All-hands recap',
      },
      'Bo',
    );
    const languageIds = (translation.data as { task_id: string }[]).map((item) => item.task_id);

    // Three tasks a page: both languages and one image; the image's request comes with all four.
    const first = await get<GroupedPage>('/__console/tasks?group=request&limit=3');
    expect(first.data.items).toHaveLength(3);
    expect(first.data.requests!.map((r) => [r.title, r.tasks.length])).toEqual([
      ['All-hands recap', 2],
      ['red bicycle', 4],
    ]);
    expect(first.data.requests![1]!.tasks.map((task) => task.id)).toEqual(imageIds);
    // The next page names the same image request again: the browser shows it once.
    const next = await get<GroupedPage>(
      `/__console/tasks?group=request&limit=3&cursor=${encodeURIComponent(first.data.nextCursor!)}`,
    );
    expect(next.data.requests!.map((r) => r.id)).toEqual([`req-${imageIds[0]}`]);

    // A search that matches one language: its request, with both languages and their states.
    const japanese = await get<GroupedPage>('/__console/tasks?group=request&q=japanese');
    expect(japanese.data.items.map((task) => task.language)).toEqual(['Japanese']);
    expect(japanese.data.requests).toHaveLength(1);
    expect(japanese.data.requests![0]!.tasks.map((task) => [task.id, task.language])).toEqual([
      [languageIds[0], 'Japanese'],
      [languageIds[1], 'German'],
    ]);
    expect(japanese.data.requests![0]!.tasks.every((task) => typeof task.status === 'string')).toBe(true);

    // Without group=request the list is as it was.
    const plain = await get<GroupedPage>('/__console/tasks?limit=3');
    expect(plain.data).not.toHaveProperty('requests');
  });

  it('a looked-up task brings no request; an empty page brings none', async () => {
    const { data } = await post('/v1/image_generate', { prompt: 'x', generate_count: 1 });
    const [id] = (data as { task_ids: string[] }).task_ids;
    await resetTestDatabase();
    await server.nodeApp.app.request(`${ORIGIN}/v1/image_generate/${id}`);
    const page = await get<GroupedPage>('/__console/tasks?group=request');
    expect(page.data.items.map((task) => task.id)).toEqual([id]);
    expect(page.data.requests).toEqual([]);
    const none = await get<GroupedPage>('/__console/tasks?group=request&q=nothing-like-this');
    expect(none.data).toMatchObject({ items: [], requests: [] });
  });
});

describe('a result downloads under its request’s name', () => {
  it('a Japanese translation of "All-hands recap" saves as "Japanese - All-hands recap.mp4"', async () => {
    const { data } = await post('/v1/video_translate', {
      video_url: `${ORIGIN}/emulator/samples/video.mp4`,
      target_languages: ['Japanese'],
      name: 'All-hands recap',
    });
    const id = (data as { task_id: string }[])[0]!.task_id;
    expect((await get(`/__console/tasks/${id}/download/result`)).status).toBe(404); // not finished yet
    await server.nodeApp.app.request(`${ORIGIN}/v1/video_translate/${id}`); // the status answer is recorded
    const response = await server.nodeApp.app.request(`${ORIGIN}/__console/tasks/${id}/download/result`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Japanese - All-hands recap.mp4"; filename*=UTF-8''Japanese%20-%20All-hands%20recap.mp4`,
    );
    expect(response.headers.get('content-type')).toMatch(/^video\//);
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    expect((await get(`/__console/tasks/${id}/download/other`)).status).toBe(404);
    expect((await get('/__console/tasks/nope/download/result')).status).toBe(404);
  });
});

describe('migration 0007 backfills requests', () => {
  it('one per batch, one per ungrouped created task, none for looked-up tasks; secrets dropped', async () => {
    const { db } = await resetTestDatabase();
    // Back to the schema before 0007 (and the migrations after it), with tasks recorded the old way.
    await rollBackTo(db, '0007');
    await sql`insert into tasks (id, kind, source, params, batch, prompt, name, language, creator, created_at) values
      ('a1', 'image_generate', 'created', '{"prompt":"fox","generate_count":2}', '["a1","a2"]', 'fox', null, null, 'Ana', '2026-01-01T10:00:00Z'),
      ('a2', 'image_generate', 'created', '{"prompt":"fox","generate_count":2}', '["a1","a2"]', 'fox', null, null, 'Ana', '2026-01-01T10:00:00Z'),
      ('v1', 'video_translate', 'created', '{"name":"Recap","callback_url":"console:inbox","api_token":"t"}', null, null, 'Recap', 'German', 'Bo', '2026-01-02T10:00:00Z'),
      ('l1', 'image_generate', 'lookup', null, null, null, null, null, null, '2026-01-03T10:00:00Z')`.execute(
      db,
    );
    await migrate(db as never);
    const requests = await db.selectFrom('requests').selectAll().orderBy('id').execute();
    expect(requests.map((r) => [r.id, r.title, r.task_ids, r.creator])).toEqual([
      ['req-a1', 'fox', ['a1', 'a2'], 'Ana'],
      ['req-v1', 'Recap', ['v1'], 'Bo'],
    ]);
    expect(requests[1]!.params).toEqual({ name: 'Recap' });
    expect(requests[0]!.created_at.toISOString()).toBe('2026-01-01T10:00:00.000Z');
    const tasks = await db.selectFrom('tasks').select(['id', 'request_id']).orderBy('id').execute();
    expect(tasks).toEqual([
      { id: 'a1', request_id: 'req-a1' },
      { id: 'a2', request_id: 'req-a1' },
      { id: 'l1', request_id: null },
      { id: 'v1', request_id: 'req-v1' },
    ]);
  });
});
