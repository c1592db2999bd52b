// The limits' rules on their own, against PGlite: whose tasks and holds each limit counts, the order
// limits are listed in, the words of a refusal (every month, one and many of each unit), which
// limits a creation touches, what setting and clearing a scope stores, and what a hold leaves behind.
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CreationCost } from '../../src/api/creation-cost';
import type { Db } from '../db/database';
import { resetTestDatabase } from '../testing/database';
import {
  admit,
  allLimits,
  limitStatuses,
  setLimits,
  translationListProblem,
  windowOf,
  type LimitInput,
} from './limits';

const MINUTE = 60_000;
const NOW = Date.UTC(2026, 10, 28, 13, 0, 0);
let db: Db;

beforeEach(async () => {
  db = (await resetTestDatabase()).db;
});

const images = (n: number): CreationCost => ({ tasks: n, images: n, videoSeconds: 0, videoUnknown: false });
const translation: CreationCost = { tasks: 1, images: 0, videoSeconds: 0, videoUnknown: true };

const person = (userId: string, limits: LimitInput[]) => setLimits(db, 'person', userId, limits, 'user-ada');
const team = (limits: LimitInput[]) => setLimits(db, 'team', '', limits, 'user-ada');

async function imageTask(id: string, creatorId: string, at = NOW) {
  await sql`insert into tasks (id, kind, source, status, params, creator_id, created_at)
    values (${id}, 'image_generate', 'created', 'SUCCEEDED', '{}'::jsonb, ${creatorId}, ${new Date(at)})`.execute(
    db,
  );
}

async function hold(id: string, userId: string, at: number, tasks = 1) {
  await db
    .insertInto('limit_holds')
    .values({
      id,
      user_id: userId,
      tasks,
      images: tasks,
      video_seconds: tasks * 60,
      created_at: new Date(at),
    })
    .execute();
}

const holdIds = async () =>
  (await db.selectFrom('limit_holds').select('id').orderBy('id').execute()).map((row) => row.id);

async function refusalOf(userId: string, cost: CreationCost, now = NOW) {
  const admission = await admit(db, userId, cost, now);
  if (admission.ok) throw new Error('expected a refusal');
  return admission.refusal;
}

describe('a translation list', () => {
  const offered = ['English', 'French', 'German'];
  it('is judged only when a plain object holds a list of it', () => {
    expect(translationListProblem(null, offered)).toBeUndefined();
    const notAnObject = Object.assign(() => undefined, { target_languages: ['a', 'b', 'c', 'd'] });
    expect(translationListProblem(notAnObject, offered)).toBeUndefined();
    // A string longer than the offered list is not a list of languages: the service answers it.
    expect(translationListProblem({ target_languages: 'x'.repeat(10) }, offered)).toBeUndefined();
  });

  it('counts items that are not text but never compares them', () => {
    expect(translationListProblem({ target_languages: [1, 1, 1] }, offered)).toBeUndefined();
    expect(translationListProblem({ target_languages: [1, 1, 1, 1] }, offered)).toMatch(
      /at most 3 languages/,
    );
  });

  it('compares in lower case, so "ß" and "ss" are two languages', () => {
    expect(translationListProblem({ target_languages: ['ß', 'ss'] }, offered)).toBeUndefined();
    expect(translationListProblem({ target_languages: ['ß', 'ß'] }, offered)).toMatch(/ß is listed twice/);
  });
});

describe('windowOf', () => {
  it('is the UTC day, and the UTC month up to the first of the next (December into January)', () => {
    expect(windowOf('day', NOW)).toEqual({
      start: new Date(Date.UTC(2026, 10, 28)),
      end: new Date(Date.UTC(2026, 10, 29)),
    });
    expect(windowOf('month', NOW)).toEqual({
      start: new Date(Date.UTC(2026, 10, 1)),
      end: new Date(Date.UTC(2026, 11, 1)),
    });
    expect(windowOf('month', Date.UTC(2026, 11, 31, 23, 59))).toEqual({
      start: new Date(Date.UTC(2026, 11, 1)),
      end: new Date(Date.UTC(2027, 0, 1)),
    });
  });
});

describe('what a limit counts', () => {
  it("a person's limit counts their own tasks and holds, the team's everyone's", async () => {
    await person('user-bea', [{ measure: 'tasks', period: 'day', max: 10 }]);
    await team([{ measure: 'tasks', period: 'day', max: 10 }]);
    await imageTask('t-bea', 'user-bea');
    await imageTask('t-cal-1', 'user-cal');
    await imageTask('t-cal-2', 'user-cal');
    await hold('h-cal', 'user-cal', NOW);
    const statuses = await limitStatuses(db, 'user-bea', NOW);
    expect(statuses.map((s) => [s.scope, s.used])).toEqual([
      ['person', 1],
      ['team', 4],
    ]);
  });

  it('counts a hold up to exactly 10 minutes old, not a millisecond more', async () => {
    await person('user-bea', [
      { measure: 'tasks', period: 'day', max: 10 },
      { measure: 'images', period: 'day', max: 10 },
      { measure: 'video_minutes', period: 'day', max: 10 },
    ]);
    await hold('h-1', 'user-bea', NOW - MINUTE, 1);
    await hold('h-2', 'user-bea', NOW - 10 * MINUTE, 2);
    await hold('h-3', 'user-bea', NOW - 10 * MINUTE - 1, 4);
    expect((await limitStatuses(db, 'user-bea', NOW)).map((s) => [s.measure, s.used])).toEqual([
      ['tasks', 3],
      ['images', 3],
      ['video_minutes', 3],
    ]);
  });

  it("a person's limit is not reached by others' tasks when the team has none", async () => {
    await person('user-bea', [{ measure: 'images', period: 'day', max: 2 }]);
    for (const id of ['a', 'b', 'c']) await imageTask(id, 'user-cal');
    expect((await admit(db, 'user-bea', images(2), NOW)).ok).toBe(true);
  });

  it("refuses by the team's count even when the person's own fits", async () => {
    await person('user-bea', [{ measure: 'images', period: 'day', max: 10 }]);
    await team([{ measure: 'images', period: 'day', max: 3 }]);
    for (const id of ['a', 'b', 'c']) await imageTask(id, 'user-cal');
    const refusal = await refusalOf('user-bea', images(1));
    expect(refusal).toMatchObject({ scope: 'team', used: 3, max: 3 });
  });

  it('leaves a creation alone by a measure it does not touch', async () => {
    await person('user-bea', [{ measure: 'video_minutes', period: 'day', max: 0 }]);
    const admitted = await admit(db, 'user-bea', images(1), NOW);
    expect(admitted.ok).toBe(true);
    expect((await refusalOf('user-bea', translation)).measure).toBe('video_minutes');
    // A translation makes no image: spent images do not stop it.
    await person('user-bea', [{ measure: 'images', period: 'day', max: 0 }]);
    expect((await admit(db, 'user-bea', translation, NOW)).ok).toBe(true);
  });
});

describe('the order of the limits', () => {
  it("is the person's before the team's, then tasks, images, video minutes, then day before month", async () => {
    await team([
      { measure: 'images', period: 'month', max: 5 },
      { measure: 'tasks', period: 'day', max: 5 },
    ]);
    await person('user-bea', [
      { measure: 'video_minutes', period: 'day', max: 5 },
      { measure: 'images', period: 'day', max: 5 },
      { measure: 'tasks', period: 'month', max: 5 },
      { measure: 'tasks', period: 'day', max: 5 },
    ]);
    const order = [
      'person:tasks:day',
      'person:tasks:month',
      'person:images:day',
      'person:video_minutes:day',
      'team:tasks:day',
      'team:images:month',
    ];
    const statuses = await limitStatuses(db, 'user-bea', NOW);
    expect(statuses.map((s) => `${s.scope}:${s.measure}:${s.period}`)).toEqual(order);
    const all = await allLimits(db);
    expect(all.map((row) => `${row.scope}:${row.measure}:${row.period}`)).toEqual(order);
  });
});

describe('the words of a refusal', () => {
  it('names the month it resets on, every month of the year', async () => {
    await team([{ measure: 'tasks', period: 'month', max: 0 }]);
    const months = [];
    for (let month = 0; month < 12; month += 1)
      months.push((await refusalOf('user-bea', images(1), Date.UTC(2026, month, 15))).message);
    expect(months.map((message) => message.replace(/^.*resets on 1 (\w+) at 00:00 UTC$/, '$1'))).toEqual([
      'February',
      'March',
      'April',
      'May',
      'June',
      'July',
      'August',
      'September',
      'October',
      'November',
      'December',
      'January',
    ]);
  });

  it('says one unit and many of each measure', async () => {
    await person('user-bea', [
      { measure: 'tasks', period: 'day', max: 1 },
      { measure: 'images', period: 'day', max: 2 },
    ]);
    expect((await refusalOf('user-bea', images(2))).message).toBe(
      'You have used 0 of 1 task today and this asks for 2 more; resets at 00:00 UTC',
    );
    await person('user-bea', [
      { measure: 'tasks', period: 'day', max: 2 },
      { measure: 'images', period: 'day', max: 1 },
    ]);
    expect((await refusalOf('user-bea', images(2))).message).toBe(
      'You have used 0 of 1 image today and this asks for 2 more; resets at 00:00 UTC',
    );
    await person('user-bea', [{ measure: 'images', period: 'day', max: 2 }]);
    expect((await refusalOf('user-bea', images(3))).message).toBe(
      'You have used 0 of 2 images today and this asks for 3 more; resets at 00:00 UTC',
    );
    await person('user-bea', [{ measure: 'tasks', period: 'day', max: 2 }]);
    expect((await refusalOf('user-bea', images(3))).message).toMatch(/ of 2 tasks today/);
    await person('user-bea', [{ measure: 'video_minutes', period: 'day', max: 1 }]);
    const video = { tasks: 1, images: 0, videoSeconds: 120, videoUnknown: false };
    expect((await refusalOf('user-bea', video)).message).toMatch(
      / of 1 video minute today and this asks for 2 more/,
    );
    await person('user-bea', [{ measure: 'video_minutes', period: 'day', max: 0 }]);
    expect((await refusalOf('user-bea', video)).message).toMatch(/ of 0 video minutes today/);
  });
});

describe('a hold', () => {
  it('is not taken when no limit applies, and its release leaves every other hold', async () => {
    await hold('h-stale', 'user-cal', NOW - 11 * MINUTE);
    const free = await admit(db, 'user-bea', images(1), NOW);
    expect(await holdIds()).toEqual(['h-stale']);
    if (free.ok) await free.release();
    expect(await holdIds()).toEqual(['h-stale']);
  });

  it("is released with the stale ones, never another creation's live one", async () => {
    await person('user-bea', [{ measure: 'images', period: 'day', max: 10 }]);
    await hold('h-stale', 'user-cal', NOW - 10 * MINUTE - 1);
    await hold('h-live', 'user-cal', NOW - 10 * MINUTE);
    await hold('h-new', 'user-cal', NOW + MINUTE);
    const admitted = await admit(db, 'user-bea', images(1), NOW);
    expect(await holdIds()).toHaveLength(4);
    if (admitted.ok) await admitted.release();
    expect(await holdIds()).toEqual(['h-live', 'h-new']);
  });
});

describe('setting a scope', () => {
  it("stores the team's under no person, whatever user id is passed", async () => {
    await setLimits(db, 'team', 'user-bea', [{ measure: 'tasks', period: 'day', max: 3 }], null);
    expect(await db.selectFrom('spending_limits').select(['scope', 'user_id']).execute()).toEqual([
      { scope: 'team', user_id: '' },
    ]);
  });

  it('stores nothing for "no limit", and an empty list clears the scope', async () => {
    await person('user-bea', [
      { measure: 'tasks', period: 'day', max: 3 },
      { measure: 'images', period: 'day', max: null },
    ]);
    expect((await allLimits(db)).map((row) => row.measure)).toEqual(['tasks']);
    const { before, after } = await person('user-bea', []);
    expect(before).toHaveLength(1);
    expect(after).toEqual([]);
  });
});
