// The limits' routes and guard on their own (no sign-in layer, no body cap in front, no access
// rules): every refusal of a PUT body says why, at its bound and one past; what the answers hold;
// which requests the guard charges; its own body cap; and the Retry-After of a refusal.
import { Hono } from 'hono';
import { beforeEach, describe, expect, it } from 'vitest';
import type { IdentityStore } from '../identity/store';
import type { AuditEntry } from '../identity/audit';
import { asPerson } from '../testing/identity';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { createLimitsRoutes, limitsGuard } from './routes';
import { windowOf } from './limits';

const NOW = Date.UTC(2026, 10, 28, 13, 0, 0);
let clock = NOW;
let audits: AuditEntry[] = [];
const people = new Map([['user-bea', { id: 'user-bea', name: 'Bea', removed: false }]]);
const identity = {
  findPerson: (id: string) => Promise.resolve(people.get(id)),
  audit: (entry: AuditEntry) => {
    audits.push(entry);
    return Promise.resolve();
  },
} as unknown as IdentityStore;

/** The guard and the routes, made per test: each test exercises its own (mutation testing sees them). */
function limitsApp(): Hono {
  const made = new Hono();
  made.use(limitsGuard(testDatabase(), { now: () => clock }));
  made.route('/', createLimitsRoutes(testDatabase(), identity, { now: () => clock }));
  made.all('/v1/*', (c) => c.json({ code: 0, msg: 'made' }));
  made.all('/other/*', (c) => c.json({ code: 0, msg: 'made' }));
  return made;
}
let app = limitsApp();

beforeEach(async () => {
  await resetTestDatabase();
  clock = NOW;
  audits = [];
  app = limitsApp();
});

const ADA = asPerson('Ada', 'admin');
const BEA = asPerson('Bea');
const json = (method: string, body: unknown) => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});
const put = (body: unknown, env: Record<string, unknown> | null = ADA) =>
  app.request('/__console/limits', json('PUT', body), env ?? undefined);

async function refusal(body: unknown): Promise<{ code: number; msg: string }> {
  const res = await put(body);
  expect(res.status).toBe(400);
  return (await res.json()) as { code: number; msg: string };
}

const IMAGES = { measure: 'images', period: 'day', max: 1 };

describe('a PUT body', () => {
  it.each([
    ['no scope', { limits: [] }, 'scope must be team or person'],
    ['a scope of neither', { scope: 'everyone', limits: [] }, 'scope must be team or person'],
    [
      'a person without a user id',
      { scope: 'person', limits: [] },
      'userId names the person the limits are for',
    ],
    ['a user id that is not text', { scope: 'person', userId: 5, limits: [] }, 'userId names the person'],
    ['a user id of 201 characters', { scope: 'person', userId: 'u'.repeat(201), limits: [] }, 'userId names'],
    [
      'limits that are not a list',
      { scope: 'team', limits: 'images' },
      'limits must be a list of {measure, period, max}',
    ],
    [
      'an unknown measure',
      { scope: 'team', limits: [{ ...IMAGES, measure: 'gold' }] },
      'measure must be tasks, images or video_minutes',
    ],
    [
      'an unknown period',
      { scope: 'team', limits: [{ ...IMAGES, period: 'week' }] },
      'period must be day or month',
    ],
    [
      'a max as text',
      { scope: 'team', limits: [{ ...IMAGES, max: '5' }] },
      'max must be a whole number from 0 to 1000000, or null for no limit',
    ],
    [
      'a max one past the most',
      { scope: 'team', limits: [{ ...IMAGES, max: 1_000_001 }] },
      'max must be a whole number',
    ],
    ['a max one under 0', { scope: 'team', limits: [{ ...IMAGES, max: -1 }] }, 'max must be a whole number'],
    [
      'a limit given twice',
      { scope: 'team', limits: [IMAGES, { ...IMAGES, max: 2 }] },
      'images:day is given twice',
    ],
    ['no JSON at all', '{', 'scope must be team or person'],
  ])('%s: 400 saying why', async (_, body, message) => {
    const answer = await refusal(body);
    expect(answer).toEqual({ code: 400, msg: expect.stringContaining(message) as string });
  });

  it('takes a user id of exactly 200 characters (then looks the person up)', async () => {
    const res = await put({ scope: 'person', userId: 'u'.repeat(200), limits: [] });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ code: 404, msg: 'No such person' });
  });

  it('takes 0, the most and null (no limit), and answers with what is stored', async () => {
    const res = await put({
      scope: 'team',
      limits: [
        { measure: 'tasks', period: 'day', max: 0 },
        { measure: 'images', period: 'day', max: 1_000_000 },
        { measure: 'images', period: 'month', max: null },
      ],
    });
    expect(res.status).toBe(200);
    const { limits } = (await res.json()) as { limits: unknown[] };
    expect(limits).toHaveLength(2);
    expect(limits).toEqual(
      expect.arrayContaining([
        { measure: 'tasks', period: 'day', max: 0 },
        { measure: 'images', period: 'day', max: 1_000_000 },
      ]),
    );
  });

  it("sets the team's with no person in it, whatever userId the body names, and audits it", async () => {
    expect((await put({ scope: 'team', userId: 'user-bea', limits: [IMAGES] })).status).toBe(200);
    expect(audits).toEqual([
      expect.objectContaining({
        action: 'limits.change',
        target: 'team',
        detail: { scope: 'team', from: [], to: [{ measure: 'images', period: 'day', max: 1 }] },
      }),
    ]);
    const { db } = await testDatabase();
    expect(await db.selectFrom('spending_limits').select(['user_id', 'updated_by']).execute()).toEqual([
      { user_id: '', updated_by: 'user-ada' },
    ]);
  });

  it('records no one as the changer when no one is signed in', async () => {
    expect((await put({ scope: 'person', userId: 'user-bea', limits: [IMAGES] }, null)).status).toBe(200);
    const { db } = await testDatabase();
    expect(await db.selectFrom('spending_limits').select(['user_id', 'updated_by']).execute()).toEqual([
      { user_id: 'user-bea', updated_by: null },
    ]);
    expect(audits[0]).toMatchObject({ target: 'Bea', detail: { scope: 'person', userId: 'user-bea' } });
  });
});

describe('reading limits', () => {
  it('is refused (403) to someone not signed in: there is no one whose limits to say', async () => {
    const res = await app.request('/__console/limits');
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ code: 403, msg: 'Sign in to the console first' });
  });

  it("lists the team's apart from each person's", async () => {
    await put({ scope: 'team', limits: [{ measure: 'tasks', period: 'day', max: 9 }] });
    await put({ scope: 'person', userId: 'user-bea', limits: [IMAGES] });
    const res = await app.request('/__console/limits/all', {}, ADA);
    expect(await res.json()).toEqual({
      team: [{ measure: 'tasks', period: 'day', max: 9 }],
      people: { 'user-bea': [{ measure: 'images', period: 'day', max: 1 }] },
    });
  });
});

describe('the guard', () => {
  const noImages = () => put({ scope: 'team', limits: [{ measure: 'images', period: 'day', max: 0 }] });
  const create = (path: string, body: unknown = { prompt: 'a fox', generate_count: 1 }, method = 'POST') =>
    app.request(path, method === 'GET' ? {} : json(method, body), BEA);

  it('charges a creation at /v1/<kind> (with or without a trailing slash) and nothing else', async () => {
    await noImages();
    expect((await create('/v1/image_generate')).status).toBe(429);
    expect((await create('/v1/image_generate/')).status).toBe(429);
    expect((await create('/v1/image_generate', undefined, 'GET')).status).toBe(200);
    expect((await create('/v1/image_generate/more')).status).toBe(200);
    expect((await create('/other/v1/image_generate')).status).toBe(200);
  });

  it("judges the language list of a translation only, with the service's list when none is given", async () => {
    const twice = { video_url: 'https://example.com/v.mp4', target_languages: ['English', 'english'] };
    expect((await create('/v1/image_generate', { ...twice, prompt: 'a fox' })).status).toBe(200);
    const translate = await create('/v1/video_translate', twice);
    expect(translate.status).toBe(400);
    expect(((await translate.json()) as { msg: string }).msg).toMatch(/english is listed twice/);
  });

  it('answers a body one byte past 1 MiB with 413 and takes exactly 1 MiB', async () => {
    const padded = (size: number) => {
      const head = '{"prompt":"a fox","generate_count":1,"pad":"';
      return `${head}${'x'.repeat(size - head.length - 2)}"}`;
    };
    const past = await create('/v1/image_generate', padded(1024 * 1024 + 1));
    expect(past.status).toBe(413);
    expect(await past.json()).toEqual({ code: 413, msg: 'The request body is too large' });
    expect((await create('/v1/image_generate', padded(1024 * 1024))).status).toBe(200);
  });

  it('says to retry when the period resets, in whole seconds, at least 1', async () => {
    await noImages();
    const { end } = windowOf('day', NOW);
    clock = end.getTime() - 1500;
    expect((await create('/v1/image_generate')).headers.get('retry-after')).toBe('2');
    clock = end.getTime() - 1;
    expect((await create('/v1/image_generate')).headers.get('retry-after')).toBe('1');
  });
});
