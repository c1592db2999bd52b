// The follow routes on their own, with a follower stub that answers as told: what each kind of
// check answers with, word for word, and the admin's figures. follower.test.ts runs them with the
// real follower and a service stub.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../db/database';
import { resetTestDatabase } from '../testing/database';
import type { FollowOutcome } from './answer';
import type { Follower } from './follower';
import { createFollowRoutes } from './routes';

let database: Database;
let checked: { id: string; kind: string }[];
let reply: Awaited<ReturnType<Follower['checkNow']>>;

const follower = {
  async checkNow(id: string, kind: string) {
    checked.push({ id, kind });
    return reply;
  },
  async stats() {
    return { following: 3, ended: 1, oldestCreatedAt: null, brakedUntil: null, lastError: null };
  },
} as unknown as Follower;

beforeEach(async () => {
  database = await resetTestDatabase();
  checked = [];
  reply = { asked: true, outcome: { type: 'running', status: 'PROCESSING' } };
});

const check = (id: string, query = '') =>
  createFollowRoutes(Promise.resolve(database), follower).request(`/__console/tasks/${id}/check${query}`, {
    method: 'POST',
  });
const asked = (outcome: FollowOutcome) => {
  reply = { asked: true, outcome };
};

describe('POST /__console/tasks/<id>/check', () => {
  it('takes an id of 256 characters and refuses one of 257', async () => {
    const refused = await check('x'.repeat(257), '?kind=image_to_video');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({ code: 400, msg: 'That is not a task id' });
    expect(refused.headers.get('cache-control')).toBe('no-store');
    await check('x'.repeat(256), '?kind=image_to_video');
    expect(checked).toEqual([{ id: 'x'.repeat(256), kind: 'image_to_video' }]);
  });

  it('refuses a kind that is not one of the three, saying which are', async () => {
    const refused = await check('i2v-x', '?kind=text_to_song');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      code: 400,
      msg: 'kind must be one of image_generate, video_translate, image_to_video for a task this console has no record of',
    });
    expect(checked).toEqual([]);
  });

  it("the record's own kind wins over the one asked", async () => {
    await database.db
      .insertInto('tasks')
      .values({ id: 'tr-1', kind: 'video_translate', source: 'created' })
      .execute();
    const found = await check('tr-1', '?kind=image_to_video');
    expect(checked).toEqual([{ id: 'tr-1', kind: 'video_translate' }]);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ code: 0, msg: 'ok', data: { task: { id: 'tr-1' } } });
  });

  it('a wait the rate or the brake asks for: 429 with whole seconds, at least 1', async () => {
    reply = { asked: false, retryAfterMs: 1_001 };
    const braked = await check('i2v-x', '?kind=image_to_video');
    expect(braked.status).toBe(429);
    expect(braked.headers.get('retry-after')).toBe('2');
    expect(await braked.json()).toEqual({
      code: 429,
      msg: 'The service asked for a pause: try again in 2 s',
    });
    reply = { asked: false, retryAfterMs: 0 };
    expect((await check('i2v-x', '?kind=image_to_video')).headers.get('retry-after')).toBe('1');
  });

  it('an id the service does not know, or a kind it cannot be asked about: 404 with its words', async () => {
    asked({
      type: 'ended',
      end: 'unavailable',
      error: { kind: 'unavailable', httpStatus: 404, msg: 'HTTP 404' },
    });
    const unavailable = await check('i2v-x', '?kind=image_to_video');
    expect(unavailable.status).toBe(404);
    expect(await unavailable.json()).toEqual({
      code: 404,
      msg: 'HTTP 404',
      error: { kind: 'unavailable', httpStatus: 404, msg: 'HTTP 404' },
    });
  });

  it('any other failure is 502 with its words; no answer written at all is 502 saying so', async () => {
    asked({
      type: 'failed',
      kind: 'server',
      error: { kind: 'server', httpStatus: 500, code: 500, msg: 'internal' },
    });
    const failed = await check('i2v-x', '?kind=image_to_video');
    expect(failed.status).toBe(502);
    expect(await failed.json()).toMatchObject({ code: 500, msg: 'internal' });
    // Running, yet not in the record (its write failed): nothing to show.
    asked({ type: 'running', status: 'PROCESSING' });
    const unwritten = await check('i2v-x', '?kind=image_to_video');
    expect(unwritten.status).toBe(502);
    expect(await unwritten.json()).toEqual({ code: 502, msg: 'The service gave no answer' });
  });
});

describe('GET /__console/follow', () => {
  it("answers with the follower's figures, never cached", async () => {
    const reply = await createFollowRoutes(Promise.resolve(database), follower).request('/__console/follow');
    expect(reply.status).toBe(200);
    expect(reply.headers.get('cache-control')).toBe('no-store');
    expect(await reply.json()).toEqual({
      code: 0,
      msg: 'ok',
      data: { following: 3, ended: 1, oldestCreatedAt: null, brakedUntil: null, lastError: null },
    });
  });
});
