// Spending limits against the real Node side (emulator, recorder, PGlite): a creation past a limit
// is refused with 429 and the sentence the form shows, at the bound and one past, per person and for
// the team, with days in UTC on an injected clock, and parallel submissions never share a last unit.
import { beforeEach, describe, expect, it } from 'vitest';
import type { Role } from '../../src/api/roles';
import { LIMIT_REFUSAL_CODE, type LimitStatus } from '../../src/api/limits';
import { TARGET_LANGUAGES } from '../../src/api/schemas';
import { asPerson } from '../testing/identity';
import { TEST_ORIGIN, useTestNodeApp } from '../testing/test-node-app';
import { costOf, windowOf } from './limits';

let clock = Date.now();
const server = useTestNodeApp('limits-test', { options: { anonymous: null, now: () => clock } });

beforeEach(async () => {
  clock = Date.now();
  for (const name of ['Bea', 'Cal'])
    await server.database.db
      .insertInto('users')
      .values({
        id: `user-${name.toLowerCase()}`,
        source: 'local',
        subject: name,
        display_name: name,
        role: 'creator',
      })
      .execute();
});

const send = (method: string, path: string, body: unknown, who: string, role: Role = 'creator') =>
  server.request(
    path,
    {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    },
    asPerson(who, role),
  );

const images = (who: string, count = 1) =>
  send('POST', '/v1/image_generate', { prompt: 'a fox in the snow', generate_count: count }, who);

async function setLimits(body: unknown, who = 'Ada') {
  const res = await send('PUT', '/__console/limits', body, who, 'admin');
  expect(res.status).toBe(200);
}

const imagesPerDay = (max: number, scope: 'team' | 'person' = 'person', userId = 'user-bea') =>
  setLimits({ scope, userId, limits: [{ measure: 'images', period: 'day', max }] });

async function mine(who: string): Promise<LimitStatus[]> {
  const res = await send('GET', '/__console/limits', undefined, who);
  expect(res.status).toBe(200);
  return ((await res.json()) as { limits: LimitStatus[] }).limits;
}

describe('creations past a limit', () => {
  it('takes exactly the limit and refuses one past it with 429 and the message', async () => {
    await imagesPerDay(3);
    expect((await images('Bea', 2)).status).toBe(200);
    expect((await mine('Bea'))[0]).toMatchObject({ used: 2, max: 3, remaining: 1, scope: 'person' });
    // Two more would pass the bound: refused, nothing recorded.
    const over = await images('Bea', 2);
    expect(over.status).toBe(429);
    expect(((await over.json()) as { msg: string }).msg).toBe(
      'You have used 2 of 3 images today and this asks for 2 more; resets at 00:00 UTC',
    );
    // Exactly at the bound: allowed.
    expect((await images('Bea', 1)).status).toBe(200);
    const refused = await images('Bea', 1);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    const body = (await refused.json()) as { code: number; msg: string; limit: LimitStatus };
    expect(body.code).toBe(429_100);
    expect(body.msg).toBe('You have used 3 of 3 images today; resets at 00:00 UTC');
    expect(body.limit).toMatchObject({ measure: 'images', period: 'day', used: 3, max: 3, remaining: 0 });
    const tasks = await server.database.db.selectFrom('tasks').select('id').execute();
    expect(tasks).toHaveLength(3);
  });

  it("holds one person to their limit and not another, and the team's to everyone", async () => {
    await imagesPerDay(1);
    expect((await images('Bea')).status).toBe(200);
    expect((await images('Bea')).status).toBe(429);
    expect((await images('Cal')).status).toBe(200);
    await setLimits({ scope: 'team', limits: [{ measure: 'images', period: 'month', max: 3 }] });
    expect((await images('Cal')).status).toBe(200);
    const team = await images('Cal');
    expect(team.status).toBe(429);
    expect(((await team.json()) as { msg: string }).msg).toMatch(
      /^The team has used 3 of 3 images this month; resets on 1 \w+ at 00:00 UTC$/,
    );
    const cal = await mine('Cal');
    expect(cal).toEqual([
      expect.objectContaining({ scope: 'team', measure: 'images', used: 3, remaining: 0 }),
    ]);
  });

  it('counts tasks and video minutes of image to video, and refuses a translation once minutes are spent', async () => {
    await setLimits({
      scope: 'person',
      userId: 'user-bea',
      limits: [
        { measure: 'tasks', period: 'day', max: 10 },
        { measure: 'video_minutes', period: 'day', max: 1 },
      ],
    });
    const video = (duration: number, count = 1) =>
      send(
        'POST',
        '/v1/image_to_video',
        {
          model: 'V',
          prompt: 'waves',
          image_url: `${TEST_ORIGIN}/emulator/samples/reference.png`,
          aspect_resolution: '720p',
          duration,
          generate_count: count,
        },
        'Bea',
      );
    expect((await video(8, 4)).status).toBe(200); // 32 s
    expect((await video(8, 4)).status).toBe(429); // 64 s > 60 s
    expect((await video(8, 3)).status).toBe(200); // 56 s
    const status = await mine('Bea');
    expect(status.find((s) => s.measure === 'tasks')).toMatchObject({ used: 7, remaining: 3 });
    expect(status.find((s) => s.measure === 'video_minutes')).toMatchObject({ used: 0.9, remaining: 0.1 });
    await setLimits({
      scope: 'person',
      userId: 'user-bea',
      limits: [{ measure: 'video_minutes', period: 'day', max: 0 }],
    });
    const translate = await send(
      'POST',
      '/v1/video_translate',
      { video_url: 'https://example.com/v.mp4', target_languages: ['fr'] },
      'Bea',
    );
    expect(translate.status).toBe(429);
  });

  it('refuses a video of unknown length once the minutes are used exactly, not a second before', async () => {
    await setLimits({
      scope: 'person',
      userId: 'user-bea',
      limits: [{ measure: 'video_minutes', period: 'day', max: 1 }],
    });
    const video = (duration: number, count: number) =>
      send(
        'POST',
        '/v1/image_to_video',
        {
          model: 'V',
          prompt: 'waves',
          image_url: `${TEST_ORIGIN}/emulator/samples/reference.png`,
          aspect_resolution: '720p',
          duration,
          generate_count: count,
        },
        'Bea',
      );
    // A translation's length is known only once it runs: it is let in while any minute is left.
    const translate = () =>
      send(
        'POST',
        '/v1/video_translate',
        { video_url: 'https://example.com/v.mp4', target_languages: ['fr'] },
        'Bea',
      );
    expect((await video(8, 4)).status).toBe(200);
    expect((await video(8, 3)).status).toBe(200); // 56 s of 60
    expect((await translate()).status).toBe(200);
    expect((await video(4, 1)).status).toBe(200); // 60 s of 60: exactly the limit
    expect((await mine('Bea'))[0]).toMatchObject({ used: 1, remaining: 0 });
    expect((await translate()).status).toBe(429);
  });

  it('starts a new day at 00:00 UTC', async () => {
    await imagesPerDay(1);
    const { end } = windowOf('day', clock);
    clock = end.getTime() - 1000;
    expect((await images('Bea')).status).toBe(200);
    expect((await images('Bea')).status).toBe(429);
    clock = end.getTime();
    expect((await mine('Bea'))[0]).toMatchObject({ used: 0, remaining: 1 });
    expect((await images('Bea')).status).toBe(200);
  });

  it('lets only one of two parallel submissions take the last unit', async () => {
    await imagesPerDay(2);
    expect((await images('Bea')).status).toBe(200);
    const answers = await Promise.all([images('Bea'), images('Bea'), images('Bea')]);
    expect(answers.map((res) => res.status).sort()).toEqual([200, 429, 429]);
    expect(await server.database.db.selectFrom('tasks').select('id').execute()).toHaveLength(2);
    expect(await server.database.db.selectFrom('limit_holds').select('id').execute()).toHaveLength(0);
  });

  it('frees the hold of a creation the service refused', async () => {
    await imagesPerDay(1);
    const bad = await send('POST', '/v1/image_generate', { generate_count: 1 }, 'Bea');
    expect(bad.status).not.toBe(200);
    expect((await images('Bea')).status).toBe(200);
  });
});

describe('a translation (one task per target language)', () => {
  const translate = (languages: readonly string[], who = 'Bea') =>
    send(
      'POST',
      '/v1/video_translate',
      { video_url: 'https://example.com/v.mp4', target_languages: languages },
      who,
    );
  const taskCount = async () => (await server.database.db.selectFrom('tasks').select('id').execute()).length;
  const teamTasksPerDay = (max: number) =>
    setLimits({ scope: 'team', limits: [{ measure: 'tasks', period: 'day', max }] });

  it('is charged exactly its languages: one that fits the limit exactly is taken, one past it is not', async () => {
    await teamTasksPerDay(20);
    expect((await images('Cal', 4)).status).toBe(200);
    // 4 + 16 = 20: exactly the limit.
    expect((await translate(TARGET_LANGUAGES)).status).toBe(200);
    expect(await taskCount()).toBe(20);
    const past = await translate(['English']);
    expect(past.status).toBe(429);
    expect(await past.json()).toMatchObject({ code: LIMIT_REFUSAL_CODE });
    expect(await taskCount()).toBe(20);
    const team = (await mine('Bea')).find((s) => s.scope === 'team' && s.measure === 'tasks');
    expect(team).toMatchObject({ used: 20, max: 20, remaining: 0 });
  });

  it('is refused whole, before the service is asked, when its languages would pass the limit', async () => {
    await teamTasksPerDay(20);
    expect((await images('Cal', 5)).status).toBe(200);
    // 5 + 16 = 21: one past. Nothing is created, not even the 15 that would have fitted.
    const refused = await translate(TARGET_LANGUAGES);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: LIMIT_REFUSAL_CODE, limit: { max: 20 } });
    expect(await taskCount()).toBe(5);
    expect((await translate(TARGET_LANGUAGES.slice(0, 15))).status).toBe(200);
    expect(await taskCount()).toBe(20);
    const team = (await mine('Bea')).find((s) => s.scope === 'team' && s.measure === 'tasks');
    expect(team).toMatchObject({ used: 20, max: 20 });
  });

  it('asks for at most the languages the service offers, none twice (400 with the reason)', async () => {
    await teamTasksPerDay(1000);
    const tooMany = await translate([...TARGET_LANGUAGES, 'Klingon']);
    expect(tooMany.status).toBe(400);
    expect(((await tooMany.json()) as { msg: string }).msg).toMatch(
      `at most ${TARGET_LANGUAGES.length} languages (the service offers ${TARGET_LANGUAGES.length}); ${TARGET_LANGUAGES.length + 1} were sent`,
    );
    const attack = await translate(Array.from({ length: 400 }, (_, n) => `Language ${n}`));
    expect(attack.status).toBe(400);
    const twice = await translate(['English', 'French', ' english ']);
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { msg: string }).msg).toMatch(/english is listed twice/i);
    expect(await taskCount()).toBe(0);
  });
});

describe('setting limits', () => {
  it('is refused to viewers and creators', async () => {
    for (const role of ['viewer', 'creator'] as const) {
      const res = await send('PUT', '/__console/limits', { scope: 'team', limits: [] }, 'Vic', role);
      expect(res.status).toBe(403);
    }
    expect(await server.database.db.selectFrom('spending_limits').select('scope').execute()).toHaveLength(0);
  });

  it('checks every bound', async () => {
    const put = (limits: unknown, extra = {}) =>
      send('PUT', '/__console/limits', { scope: 'team', limits, ...extra }, 'Ada', 'admin');
    expect((await put([{ measure: 'images', period: 'day', max: -1 }])).status).toBe(400);
    expect((await put([{ measure: 'images', period: 'day', max: 1.5 }])).status).toBe(400);
    expect((await put([{ measure: 'images', period: 'day', max: 1_000_001 }])).status).toBe(400);
    expect((await put([{ measure: 'gold', period: 'day', max: 1 }])).status).toBe(400);
    expect((await put([{ measure: 'images', period: 'week', max: 1 }])).status).toBe(400);
    expect((await put([], { scope: 'person', userId: 'user-nobody' })).status).toBe(404);
    expect((await put([{ measure: 'images', period: 'day', max: 1_000_000 }])).status).toBe(200);
  });

  it('records the change in the audit log', async () => {
    await setLimits({
      scope: 'person',
      userId: 'user-bea',
      limits: [{ measure: 'images', period: 'day', max: 50 }],
    });
    const [entry] = await server.nodeApp.identity.listAudit({ action: 'limits.change' });
    expect(entry).toMatchObject({
      actorName: 'Ada',
      target: 'Bea',
      detail: {
        scope: 'person',
        userId: 'user-bea',
        from: [],
        to: [{ measure: 'images', period: 'day', max: 50 }],
      },
    });
    const all = await send('GET', '/__console/limits/all', undefined, 'Ada', 'admin');
    expect(await all.json()).toEqual({
      team: [],
      people: { 'user-bea': [{ measure: 'images', period: 'day', max: 50 }] },
    });
  });
});

describe('costOf', () => {
  it('reads what a body asks for', () => {
    expect(costOf('image_generate', { generate_count: 4 })).toMatchObject({
      tasks: 4,
      images: 4,
      videoSeconds: 0,
    });
    expect(costOf('image_to_video', { model: 'KL', generate_count: 2 })).toMatchObject({
      tasks: 2,
      videoSeconds: 10,
    });
    expect(costOf('video_translate', { target_languages: ['fr', 'de'] })).toMatchObject({
      tasks: 2,
      videoUnknown: true,
    });
    // Exactly what the service will make: one task per language, no ceiling that undercharges.
    const many = Array.from({ length: 400 }, (_, n) => `L${n}`);
    expect(costOf('video_translate', { target_languages: many })).toMatchObject({ tasks: 400 });
  });
});
