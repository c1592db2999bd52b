// The team's record, through the Node side as the browser uses it: creation and status requests
// on the emulator are recorded, a callback makes the console ask the service (the record takes its
// answer, never the callback's word), and /__console/tasks answers the Tasks screen.
import { asPerson } from '../testing/identity';
import { describe, expect, it } from 'vitest';
import { CONSOLE_INBOX } from '../../src/api/schemas';
import { useTestNodeApp, TEST_ORIGIN } from '../testing/test-node-app';
import { testDatabase } from '../testing/database';
import { applyStatus } from './recorder';
import type { TaskCounts } from './list-counts';
import type { TaskEventView, TaskView } from './task-view';

const ORIGIN = TEST_ORIGIN;
const server = useTestNodeApp('tasks-test');

const headers = (_user?: string) => ({
  'content-type': 'application/json',
  authorization: 'Bearer t',
});

async function post(path: string, body: unknown, user?: string) {
  const response = await server.nodeApp.app.request(
    `${ORIGIN}${path}`,
    {
      method: 'POST',
      headers: headers(user),
      body: JSON.stringify(body),
    },
    user ? asPerson(user) : undefined,
  );
  return (await response.json()) as { code: number; data: unknown };
}

const createImages = async (prompt: string, count = 1, user = 'Ana') =>
  ((await post('/v1/image_generate', { prompt, generate_count: count }, user)).data as { task_ids: string[] })
    .task_ids;

async function list(query = '') {
  const response = await server.nodeApp.app.request(`${ORIGIN}/__console/tasks${query}`);
  expect(response.status).toBe(200);
  return (
    (await response.json()) as { data: { items: TaskView[]; nextCursor: string | null; counts?: TaskCounts } }
  ).data;
}

async function detail(id: string) {
  const response = await server.nodeApp.app.request(`${ORIGIN}/__console/tasks/${encodeURIComponent(id)}`);
  return {
    status: response.status,
    body: (await response.json()) as { data: { task: TaskView; events: TaskEventView[] } },
  };
}

describe('recording traffic through /v1', () => {
  it('records each task a creation request returns: kind, params, batch, prompt, creator, when', async () => {
    const before = Date.now();
    const ids = await createImages('a lighthouse at dusk', 2, 'Ana Lima');
    expect(ids).toHaveLength(2);
    const { items } = await list();
    expect(items.map((item) => item.id).sort()).toEqual([...ids].sort());
    expect(items[0]).toMatchObject({
      kind: 'image_generate',
      source: 'created',
      prompt: 'a lighthouse at dusk',
      creator: 'Ana Lima',
      params: { prompt: 'a lighthouse at dusk', generate_count: 2 },
      batch: ids,
    });
    expect(items[0]!.createdAt).toBeGreaterThanOrEqual(before - 1000);
    expect((await detail(ids[0]!)).body.data.events.map((event) => event.source)).toEqual(['created']);
  });

  it('records translations per language and keeps the inbox secret out of the params', async () => {
    const data = (await post('/v1/video_translate', {
      target_languages: ['Japanese', 'German'],
      video_url: `${ORIGIN}/emulator/samples/video.mp4`,
      name: 'launch',
      callback_url: CONSOLE_INBOX,
    })) as { code: number; data: { task_id: string; language: string }[] };
    expect(data.code, JSON.stringify(data)).toBe(0);
    const { items } = await list('?kind=video_translate');
    expect(items.map((item) => item.language).sort()).toEqual(['German', 'Japanese']);
    expect(items[0]!.params).toMatchObject({ callback_url: CONSOLE_INBOX, name: 'launch' });
    expect(JSON.stringify(items)).not.toContain('tasks-test-secret');
  });

  it('merges status answers, with a timeline of each change and its source', async () => {
    const [id] = await createImages('merge me');
    const status = await server.nodeApp.app.request(`${ORIGIN}/v1/image_generate/${id}`, {
      headers: headers(),
    });
    expect(((await status.json()) as { data: { status: string } }).data.status).toBe('SUCCEEDED');
    const { body } = await detail(id!);
    expect(body.data.task).toMatchObject({ status: 'SUCCEEDED', lastSource: 'poll' });
    expect(body.data.task.result).toMatchObject({ image_url: expect.any(String) });
    expect(body.data.task.finishedAt).toEqual(expect.any(Number));
    expect(body.data.events.map((event) => [event.source, event.status ?? null])).toEqual([
      ['created', null],
      ['poll', 'SUCCEEDED'],
    ]);
  });

  it('adds a task looked up by id, and keeps the last error of a failed status query', async () => {
    const [id] = await createImages('look me up');
    const { db } = await testDatabase();
    await db.deleteFrom('tasks').execute(); // as if another console had created it
    await server.nodeApp.app.request(`${ORIGIN}/v1/image_generate/${id}`, { headers: headers() });
    expect((await detail(id!)).body.data.task).toMatchObject({ source: 'lookup', status: 'SUCCEEDED' });

    await server.nodeApp.app.request(`${ORIGIN}/emulator/settings`, {
      method: 'POST',
      headers: headers(),
      body: JSON.stringify({ failNextStatusQueries: { status: 500, count: 1 } }),
    });
    await server.nodeApp.app.request(`${ORIGIN}/v1/image_generate/${id}`, { headers: headers() });
    expect((await detail(id!)).body.data.task).toMatchObject({
      status: 'SUCCEEDED',
      lastError: { httpStatus: 500, code: 500 },
    });
  });

  it('does not add an unknown id that the service does not know', async () => {
    await server.nodeApp.app.request(`${ORIGIN}/v1/image_generate/i2is-nope`, { headers: headers() });
    expect((await detail('i2is-nope')).status).toBe(404);
    expect((await list()).items).toEqual([]);
  });
});

describe('the browser rule: SUCCEEDED and FAILED are never replaced by a running status', () => {
  it('keeps a terminal status against a late running answer, from any source', async () => {
    const { db } = await testDatabase();
    const apply = (status: string, source: 'poll' | 'callback') =>
      db
        .transaction()
        .execute((trx) => applyStatus(trx, 'image_to_video', 'i2v-1', { task_id: 'i2v-1', status }, source));
    await apply('PROCESSING', 'poll');
    await apply('FAILED', 'callback');
    await apply('PROCESSING', 'poll');
    const { body } = await detail('i2v-1');
    expect(body.data.task.status).toBe('FAILED');
    expect(body.data.events.map((event) => [event.source, event.status])).toEqual([
      ['lookup', 'PROCESSING'],
      ['callback', 'FAILED'],
    ]);
  });
});

describe('callbacks', () => {
  it('make the console ask the service at once; the record takes its answer, not the callback', async () => {
    const [id] = await createImages('called back');
    const response = await server.nodeApp.app.request(`${ORIGIN}/callbacks/${server.secret}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        code: 0,
        msg: 'ok',
        task_type: 'image_generate',
        data: { task_id: id, status: 'FAILED', error_message: 'content policy' },
      }),
    });
    expect(response.status).toBe(200);
    await server.nodeApp.follower!.drain();
    // The emulator (time scale 0) says the task succeeded: the FAILED callback was only a hint.
    const { body } = await detail(id!);
    expect(body.data.task).toMatchObject({ status: 'SUCCEEDED', lastSource: 'poll', creator: 'Ana' });
    expect(body.data.task.result).not.toHaveProperty('error_message', 'content policy');
    expect(body.data.events.at(-1)).toMatchObject({ source: 'poll', status: 'SUCCEEDED' });
  });
});

describe('GET /__console/tasks', () => {
  async function seed() {
    const { db } = await testDatabase();
    const rows = [
      ['i2is-1', 'image_generate', 'SUCCEEDED', 'red fox in snow', null, null, 'Ana'],
      ['i2is-2', 'image_generate', 'FAILED', 'blue whale', null, null, 'Bo'],
      ['vt-3', 'video_translate', 'PROCESSING', null, 'Japanese-launch', 'Japanese', 'Bo'],
      ['i2v-4', 'image_to_video', 'PENDING', 'a fox running', null, null, 'Ana'],
      ['vt-5', 'video_translate', 'SUCCEEDED', null, 'German-keynote', 'German', 'Cy'],
    ] as const;
    await db
      .insertInto('tasks')
      .values(
        rows.map(([id, kind, status, prompt, name, language, creator], i) => ({
          id,
          kind,
          source: 'created' as const,
          status,
          prompt,
          name,
          language,
          creator,
          created_at: new Date(Date.UTC(2026, 0, 1, 0, i)),
        })),
      )
      .execute();
  }
  const ids = (items: TaskView[]) => items.map((item) => item.id);

  it('lists newest first with the tab counts', async () => {
    await seed();
    const page = await list();
    expect(ids(page.items)).toEqual(['vt-5', 'i2v-4', 'vt-3', 'i2is-2', 'i2is-1']);
    expect(page.counts).toEqual({ all: 5, running: 2, succeeded: 2, failed: 1 });
  });

  it('filters by tab, kind and creator ("Mine")', async () => {
    await seed();
    expect(ids((await list('?tab=running')).items)).toEqual(['i2v-4', 'vt-3']);
    expect(ids((await list('?tab=succeeded&kind=video_translate')).items)).toEqual(['vt-5']);
    const mine = await list('?creator=Ana');
    expect(ids(mine.items)).toEqual(['i2v-4', 'i2is-1']);
    expect(mine.counts).toEqual({ all: 2, running: 1, succeeded: 1, failed: 0 });
  });

  it('searches id, prompt, name, language and creator, case-insensitively, literally', async () => {
    await seed();
    expect(ids((await list('?q=FOX')).items)).toEqual(['i2v-4', 'i2is-1']);
    expect(ids((await list('?q=keynote')).items)).toEqual(['vt-5']);
    expect(ids((await list('?q=japanese')).items)).toEqual(['vt-3']);
    expect(ids((await list('?q=cy')).items)).toEqual(['vt-5']);
    expect(ids((await list('?q=i2is-2')).items)).toEqual(['i2is-2']);
    expect((await list('?q=%25')).items).toEqual([]); // a literal %, not a wildcard
  });

  it('pages with a cursor, each task exactly once', async () => {
    await seed();
    const first = await list('?limit=2');
    expect(ids(first.items)).toEqual(['vt-5', 'i2v-4']);
    const second = await list(`?limit=2&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(ids(second.items)).toEqual(['vt-3', 'i2is-2']);
    expect(second.counts).toBeUndefined();
    const third = await list(`?limit=2&cursor=${encodeURIComponent(second.nextCursor!)}`);
    expect(ids(third.items)).toEqual(['i2is-1']);
    expect(third.nextCursor).toBeNull();
  });

  it('refuses an unknown tab or kind with a message', async () => {
    for (const query of ['?tab=done', '?kind=text_to_speech']) {
      const response = await server.nodeApp.app.request(`${ORIGIN}/__console/tasks${query}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { msg: string }).msg).toMatch(/must be one of/);
    }
  });
});

describe('GET /__console/tasks/events', () => {
  it('pushes a task change made on another instance of the same database within a second', async () => {
    const other = await server.make();
    try {
      const response = await other.app.request(`${ORIGIN}/__console/tasks/events`);
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = decoder.decode((await reader.read()).value);
      expect(text).toContain('event: ready');
      const started = Date.now();
      const [id] = await createImages('seen elsewhere');
      while (!text.includes('event: task')) text += decoder.decode((await reader.read()).value);
      expect(Date.now() - started).toBeLessThan(1000);
      expect(text).toContain(`"id":"${id}"`);
      expect(text).toContain('"creator":"Ana"');
      await reader.cancel();
    } finally {
      await other.close();
    }
  });
});
