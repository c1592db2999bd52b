// How a group of callbacks moves its tasks on, in the group's own transaction: several callbacks of
// one task in one group, known and new tasks, duplicates, and the NOTIFY payloads. Each group here
// is formed by appending in one tick (the store groups what arrives before its next turn).
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CallbackBody } from '../../src/api/schemas';
import { CallbackStore } from '../callbacks/store';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { announcedIds, notifyPayloads } from './announce';
import { recordCallbacks } from './record-callbacks';
import { TASKS_CHANNEL } from './recorder';

let store: CallbackStore;
let notices: string[];
let unlisten: () => Promise<void>;

beforeEach(async () => {
  const database = await resetTestDatabase();
  store = new CallbackStore(database, recordCallbacks);
  notices = [];
  unlisten = await database.listen(TASKS_CHANNEL, (payload) => notices.push(payload));
});
afterEach(async () => {
  await unlisten();
  await store.close();
});

const callback = (taskType: string, data: Record<string, unknown>) =>
  ({ code: 0, task_type: taskType, data }) as unknown as CallbackBody;
/** One group: every body appended in the same tick, so one transaction (one received_at). */
async function group(...bodies: CallbackBody[]) {
  const replies = await Promise.all(bodies.map((body) => store.append(body)));
  const stored = replies.filter(({ duplicate }) => !duplicate);
  expect(new Set(stored.map(({ entry }) => entry.receivedAt)).size).toBeLessThanOrEqual(1);
  return replies;
}
const task = async (id: string) =>
  (await testDatabase()).db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const events = async () =>
  (await (await testDatabase()).db.selectFrom('task_events').selectAll().orderBy('id').execute()).map(
    (event) => [event.task_id, event.source, event.status],
  );
/** The TASKS_CHANNEL payloads heard since the last call (NOTIFY arrives just after the commit). */
async function heard(expected: number): Promise<string[]> {
  const deadline = Date.now() + 2000;
  while (notices.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  await new Promise((r) => setTimeout(r, 50)); // nothing more is on its way
  return notices.splice(0);
}

describe('a group of callbacks moves its tasks on', () => {
  it('folds the callbacks of one task: merged result, last kind and status, last name, first language', async () => {
    await group(
      callback('video_translate', {
        task_id: 't-1',
        status: 'FAILED',
        name: 'first',
        language: '',
        error_message: 'x',
        a: 1,
        gone: null,
        nested: { kept: null },
      }),
      callback('image_generate', { task_id: 't-2', status: 'SUCCEEDED' }),
      callback('video_translate', {
        task_id: 't-1',
        status: 'FAILED',
        name: 'second',
        language: 'German',
        a: 2,
      }),
      callback('image_generate', {
        task_id: 't-1',
        status: 'SUCCEEDED',
        name: '',
        language: 'French',
        error_message: null,
      }),
      callback('image_to_video', { task_id: 't-1', status: 'SUCCEEDED', name: 7, language: 'Italian' }),
    );
    const one = await task('t-1');
    expect(one).toMatchObject({
      kind: 'image_to_video',
      source: 'callback',
      status: 'SUCCEEDED',
      name: 'second',
      language: 'German',
      last_source: 'callback',
      last_error: null,
    });
    // Top-level nulls never erase a field; nested ones are data.
    expect(one.result).toEqual({
      task_id: 't-1',
      status: 'SUCCEEDED',
      name: 7,
      language: 'Italian',
      error_message: 'x',
      a: 2,
      nested: { kept: null },
    });
    expect(one.finished_at).not.toBeNull();
    // A new task's first callback and each change of status make an event, in callback order.
    expect(await events()).toEqual([
      ['t-1', 'callback', 'FAILED'],
      ['t-2', 'callback', 'SUCCEEDED'],
      ['t-1', 'callback', 'SUCCEEDED'],
    ]);
    expect(await heard(1)).toEqual(['["t-1","t-2"]']);
  });

  it('moves a known task on: keeps what callbacks do not say, an event on a change only, finished once', async () => {
    const { db } = await testDatabase();
    await db
      .insertInto('tasks')
      .values({
        id: 't-9',
        kind: 'image_to_video',
        source: 'created',
        status: 'PROCESSING',
        name: 'orig',
        language: 'French',
        creator: 'Ana',
        result: JSON.stringify({ keep: 1, a: 0 }),
        last_error: JSON.stringify({ kind: 'http', httpStatus: 500, msg: 'x', at: 1 }),
      })
      .execute();
    await group(callback('image_generate', { task_id: 't-9', status: 'SUCCEEDED', a: 1, name: '' }));
    const first = await task('t-9');
    expect(first).toMatchObject({
      kind: 'image_generate',
      source: 'created',
      creator: 'Ana',
      status: 'SUCCEEDED',
      name: 'orig',
      language: 'French',
      last_source: 'callback',
      last_error: null,
      result: { keep: 1, a: 1, task_id: 't-9', status: 'SUCCEEDED', name: '' },
    });
    expect(first.finished_at).not.toBeNull();
    await new Promise((r) => setTimeout(r, 20));
    await group(callback('image_generate', { task_id: 't-9', status: 'FAILED' }));
    await new Promise((r) => setTimeout(r, 20));
    await group(callback('image_generate', { task_id: 't-9', status: 'FAILED', b: 1 }));
    const last = await task('t-9');
    expect(last.status).toBe('FAILED');
    expect(last.result).toMatchObject({ keep: 1, a: 1, b: 1 });
    // Finished when it first reached SUCCEEDED or FAILED; later callbacks do not move that.
    expect(last.finished_at).toEqual(first.finished_at);
    expect(last.updated_at.getTime()).toBeGreaterThan(first.updated_at.getTime());
    expect(await events()).toEqual([
      ['t-9', 'callback', 'SUCCEEDED'],
      ['t-9', 'callback', 'FAILED'],
    ]);
  });

  it('stores identical deliveries once, spends no id on them and folds only what it stored', async () => {
    const x = callback('image_generate', { task_id: 't-5', status: 'SUCCEEDED', image_url: 'u' });
    const y = callback('image_generate', { task_id: 't-6', status: 'FAILED' });
    const replies = await group(x, structuredClone(x), y);
    expect(replies.map(({ entry, duplicate }) => [entry.id, duplicate])).toEqual([
      [1, false],
      [1, true],
      [2, false],
    ]);
    expect(replies[1]!.entry).toEqual(replies[0]!.entry);
    expect(await heard(1)).toEqual(['["t-5","t-6"]']);
    const before = await task('t-5');

    const z = callback('image_generate', { task_id: 't-6', status: 'SUCCEEDED' });
    const again = await group(structuredClone(x), z);
    expect(again.map(({ entry, duplicate }) => [entry.id, duplicate])).toEqual([
      [1, true],
      [3, false],
    ]);
    expect(await task('t-5')).toEqual(before);
    expect(await heard(1)).toEqual(['["t-6"]']);

    expect((await group(structuredClone(x), structuredClone(y))).every((r) => r.duplicate)).toBe(true);
    expect(await heard(0)).toEqual([]);
    expect(await events()).toEqual([
      ['t-5', 'callback', 'SUCCEEDED'],
      ['t-6', 'callback', 'FAILED'],
      ['t-6', 'callback', 'SUCCEEDED'],
    ]);
  });

  it('announces a large group in payloads short enough for NOTIFY', async () => {
    const ids = Array.from({ length: 200 }, (_, i) => `task-${String(i).padStart(3, '0')}-${'x'.repeat(60)}`);
    await group(
      ...[...ids].reverse().map((id) => callback('image_generate', { task_id: id, status: 'FAILED' })),
    );
    const payloads = await heard(2);
    expect(payloads).toEqual(notifyPayloads(ids));
    expect(payloads.length).toBeGreaterThan(1);
    expect(payloads.flatMap(announcedIds)).toEqual(ids);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from tasks`.execute(
      (await testDatabase()).db,
    );
    expect(rows[0]!.n).toBe(200);
  });
});
