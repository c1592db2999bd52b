// The server's follower on the embedded database: what each kind of status answer does to a task's
// following (final, running by age, 5xx and network backoff, not found, no status query here), the
// "Check again" route, and a task a script creates through /v1 with no browser anywhere reaching its
// final status in the record. The service is a stub on loopback that counts what it receives.
import { countingReads } from '../testing/counting-reads';
import { serve, type ServerType } from '@hono/node-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { testNodeApp } from '../testing/test-node-app';
import { createFollower } from './follower';

const server = testNodeApp('follower-test');
let API: string;
let service: ServerType;
let asked: string[] = [];
let answer: (id: string) => Response | Promise<Response>;
const status = (id: string, value: string, extra: Record<string, unknown> = {}) =>
  Response.json({ code: 0, msg: 'ok', data: { task_id: id, status: value, ...extra } });

beforeAll(async () => {
  await new Promise<void>((resolve) => {
    service = serve(
      {
        hostname: '127.0.0.1',
        port: 0,
        fetch: (request) => {
          const id = new URL(request.url).pathname.split('/').pop()!;
          if (request.method === 'GET') asked.push(id);
          if (request.method === 'POST')
            return Response.json({ code: 0, msg: 'ok', data: { task_ids: ['i2v-made'] } });
          return answer(id);
        },
      },
      (info) => {
        API = `http://127.0.0.1:${info.port}`;
        resolve();
      },
    );
  });
});
beforeEach(async () => {
  asked = [];
  answer = (id) => status(id, 'PROCESSING');
  await server.open({ env: { API_BASE_URL: API, API_TOKEN: 'follower-token' } });
});
afterEach(() => server.close());
afterAll(async () => {
  await new Promise((resolve) => service.close(resolve));
  server.remove();
});

const db = () => server.database.db;
async function seed(id: string, ageMs = 0) {
  await db()
    .insertInto('tasks')
    .values({ id, kind: 'image_to_video', source: 'created', created_at: new Date(Date.now() - ageMs) })
    .execute();
  await db().insertInto('task_follows').values({ task_id: id }).execute();
}
const follow = (id: string) =>
  db().selectFrom('task_follows').selectAll().where('task_id', '=', id).executeTakeFirst();
const task = (id: string) =>
  db().selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
/** Seconds from now until the task is next asked about. */
const dueIn = async (id: string) => ((await follow(id))!.due_at!.getTime() - Date.now()) / 1000;
const drain = () => server.nodeApp.follower!.drain();

describe('what an answer does to the following', () => {
  it('a final status: recorded, no longer followed, never asked again', async () => {
    await seed('i2v-done');
    answer = (id) => status(id, 'SUCCEEDED', { video_url: 'https://cdn.example.com/v.mp4' });
    await drain();
    expect(await task('i2v-done')).toMatchObject({ status: 'SUCCEEDED', last_source: 'poll' });
    expect((await task('i2v-done')).finished_at).not.toBeNull();
    expect(await follow('i2v-done')).toBeUndefined();
    await drain();
    expect(asked).toEqual(['i2v-done']);
  });

  it.each([
    // 10 % of the age, from 2 s up to 30 s.
    [0, 2],
    [100_000, 10],
    [3_600_000, 30],
  ])('a running status: asked again by the age (%i ms old: in %i s)', async (ageMs, seconds) => {
    await seed('i2v-run', ageMs);
    await drain();
    expect((await task('i2v-run')).status).toBe('PROCESSING');
    expect(await dueIn('i2v-run')).toBeCloseTo(seconds, 0);
    expect((await follow('i2v-run'))!.failures).toBe(0);
  });

  it('a 5xx: 10 s, then 20 s, doubling; the error kept beside the last state', async () => {
    await seed('i2v-5xx');
    answer = () => Response.json({ code: 500, msg: 'internal' }, { status: 500 });
    await drain();
    expect(await dueIn('i2v-5xx')).toBeCloseTo(10, 0);
    await db().updateTable('task_follows').set({ due_at: new Date() }).execute();
    await drain();
    expect(await dueIn('i2v-5xx')).toBeCloseTo(20, 0);
    expect((await follow('i2v-5xx'))!.failures).toBe(2);
    expect((await task('i2v-5xx')).last_error).toMatchObject({ kind: 'server', httpStatus: 500 });
    // A running answer after them starts the count again.
    answer = (id) => status(id, 'PROCESSING');
    await db().updateTable('task_follows').set({ due_at: new Date() }).execute();
    await drain();
    expect((await follow('i2v-5xx'))!.failures).toBe(0);
    expect((await task('i2v-5xx')).last_error).toBeNull();
  });

  it('a refused token is backed off like a 5xx, never given up', async () => {
    await seed('i2v-auth');
    answer = () => Response.json({ code: 401, msg: 'Authentication failed' }, { status: 401 });
    await drain();
    expect(await dueIn('i2v-auth')).toBeCloseTo(10, 0);
    expect((await follow('i2v-auth'))!.ended).toBeNull();
  });

  it('an id the service does not know: marked so, with its reason, and not asked again', async () => {
    await seed('i2v-gone');
    answer = () => Response.json({ code: 100003, msg: 'task not found' }, { status: 404 });
    await drain();
    expect(await follow('i2v-gone')).toMatchObject({ due_at: null, ended: 'not_found' });
    expect((await task('i2v-gone')).last_error).toMatchObject({
      kind: 'not_found',
      code: 100003,
      msg: 'task not found',
    });
    await drain();
    expect(asked).toEqual(['i2v-gone']);
    expect((await server.nodeApp.follower!.stats()).ended).toBe(1);
  });

  it('no status query for the kind here: marked so, and a callback already received is taken', async () => {
    await seed('i2v-noq');
    answer = () =>
      new Response('<html>404</html>', { status: 404, headers: { 'content-type': 'text/html' } });
    await drain();
    expect(await follow('i2v-noq')).toMatchObject({ due_at: null, ended: 'unavailable' });
    expect((await task('i2v-noq')).last_error).toMatchObject({ kind: 'unavailable', httpStatus: 404 });
    await drain();
    expect(asked).toEqual(['i2v-noq']);
  });

  it('a 429: every instance waits as long as it says, from the brake row', async () => {
    await seed('i2v-429');
    answer = () => Response.json({ code: 429, msg: 'Rate limit exceeded' }, { status: 429 });
    await drain();
    const stats = await server.nodeApp.follower!.stats();
    // No Retry-After: the provider's 30 s.
    expect((stats.brakedUntil!.getTime() - Date.now()) / 1000).toBeCloseTo(30, 0);
    expect(stats.lastError).toMatchObject({ kind: 'rate_limit', taskId: 'i2v-429' });
    await db().updateTable('task_follows').set({ due_at: new Date() }).execute();
    await drain();
    expect(asked).toEqual(['i2v-429']);
  });
});

describe('POST /__console/tasks/<id>/check', () => {
  const check = (id: string, query = '', headers: Record<string, string> = {}) =>
    server.nodeApp.app.request(`/__console/tasks/${id}/check${query}`, { method: 'POST', headers });

  it('asks now, even a task not due or no longer followed, and answers with the record', async () => {
    await seed('i2v-check');
    answer = () => Response.json({ code: 100003, msg: 'task not found' }, { status: 404 });
    await drain();
    answer = (id) => status(id, 'PROCESSING');
    const reply = await check('i2v-check');
    expect(reply.status).toBe(200);
    expect((await reply.json()).data.task).toMatchObject({ id: 'i2v-check', status: 'PROCESSING' });
    expect(await follow('i2v-check')).toMatchObject({ ended: null });
    expect(await dueIn('i2v-check')).toBeCloseTo(2, 0);
  });

  it('looks up an id the record does not have: added when the service knows it, 404 with its words when not', async () => {
    answer = (id) =>
      id === 'i2v-known'
        ? status(id, 'SUCCEEDED')
        : Response.json({ code: 100003, msg: 'task not found' }, { status: 404 });
    const known = await check('i2v-known', '?kind=image_to_video');
    expect(known.status).toBe(200);
    expect((await task('i2v-known')).source).toBe('lookup');
    const unknown = await check('i2v-nobody', '?kind=image_to_video');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 100003, msg: 'task not found' });
    expect(await db().selectFrom('tasks').select('id').where('id', '=', 'i2v-nobody').execute()).toEqual([]);
  });

  it('refuses a missing kind for an unknown id, a cross-site request, and waits out the brake with 429', async () => {
    expect((await check('i2v-nobody')).status).toBe(400);
    await seed('i2v-x');
    expect((await check('i2v-x', '', { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    await db()
      .updateTable('follow_brake')
      .set({ not_before: new Date(Date.now() + 5_000) })
      .execute();
    const braked = await check('i2v-x');
    expect(braked.status).toBe(429);
    expect(Number(braked.headers.get('retry-after'))).toBeGreaterThanOrEqual(4);
    expect(Number(braked.headers.get('retry-after'))).toBeLessThanOrEqual(5);
    expect(asked).toEqual([]);
  });
});

describe('a task a script creates through /v1, with no browser anywhere', () => {
  it('reaches its final status in the record, finished within one interval of the service', async () => {
    const finishAt = Date.now() + 3_000;
    answer = (id) => (Date.now() >= finishAt ? status(id, 'SUCCEEDED') : status(id, 'PROCESSING'));
    const made = await server.nodeApp.app.request('/v1/image_to_video', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'V',
        prompt: 'waves',
        image_url: 'https://cdn.example.com/a.png',
        aspect_resolution: '720p',
      }),
    });
    expect(made.status).toBe(200);
    expect(await follow('i2v-made')).toBeDefined();
    server.nodeApp.follower!.start();
    const deadline = Date.now() + 15_000;
    while ((await task('i2v-made')).status !== 'SUCCEEDED') {
      if (Date.now() > deadline) throw new Error('the task did not finish in the record');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const finished = (await task('i2v-made')).finished_at!.getTime();
    // Asked every 2 s in its first 20 s: seen finished within one interval of the service (and the
    // second it may take a loaded machine to ask and write).
    expect(finished - finishAt).toBeGreaterThanOrEqual(0);
    expect(finished - finishAt).toBeLessThanOrEqual(3_000);
    expect(await follow('i2v-made')).toBeUndefined();
  });
});

describe('an idle follower', () => {
  it('looks once per idle interval at most, not again as soon as a look ends', async () => {
    // Counts the looks: each one reads the database once, and an idle follower reads it for nothing else.
    const real = server.database;
    const counted = countingReads(real.db);
    const idleMs = 100;
    const follower = createFollower({
      database: Promise.resolve(counted.database),
      ask: () => Promise.reject(new Error('nothing is due: nothing is asked')),
      ratePerSecond: 10,
      idleMs,
    });
    const started = Date.now();
    follower.start();
    try {
      // It does look again (the thing watched can happen) …
      await vi.waitFor(() => expect(counted.reads()).toBeGreaterThanOrEqual(3), {
        timeout: 10_000,
        interval: 5,
      });
      // … and by then no more often than at start and once per interval since: a look scheduled from
      // inside the one before ran at once, hundreds of times in the same while.
      const intervals = (Date.now() - started) / idleMs;
      expect(counted.reads()).toBeLessThanOrEqual(Math.ceil(intervals) + 1);
    } finally {
      await follower.close();
    }
  });
});
