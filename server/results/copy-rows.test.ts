// The copy queue's SQL on the file's PGlite (emptied before each test, a few milliseconds): which
// succeeded tasks are queued and until when, claiming with a lease and its fence, what expires,
// what an admin's storage page counts, which row is served and how a task's copies read back.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/database';
import { resetTestDatabase } from '../testing/database';
import { removedReason, removeKept } from './copy-job';
import {
  claimDueCopies,
  expireStaleCopies,
  markCopyFailed,
  markCopyKept,
  renewCopyLease,
  type ResultCopyRow,
} from './copy-rows';
import { keptRow } from './kept-rows';
import { LINK_LIFETIME_MS, queueResultCopies } from './queue';
import { copiesOf } from './routes';
import type { ResultStore } from './store';
import { storageUsage } from './usage';

let db: Db;
beforeEach(async () => {
  db = (await resetTestDatabase()).db;
});
afterEach(() => {
  vi.useRealTimers();
});

async function task(
  id: string,
  result: Record<string, unknown>,
  fields: {
    status?: string;
    finished_at?: Date | null;
    created_at?: Date;
    kind?: string;
    creator?: string | null;
  } = {},
) {
  await db
    .insertInto('tasks')
    .values({
      id,
      kind: fields.kind ?? 'image_to_video',
      source: 'created',
      creator: fields.creator ?? null,
      status: fields.status ?? 'SUCCEEDED',
      result: JSON.stringify(result),
      finished_at: fields.finished_at === undefined ? new Date() : fields.finished_at,
      ...(fields.created_at && { created_at: fields.created_at }),
    })
    .execute();
}

const copies = () =>
  db.selectFrom('result_copies').selectAll().orderBy('task_id').orderBy('role').orderBy('idx').execute();

async function copyRow(values: {
  task_id: string;
  role?: string;
  idx?: number;
  state?: 'queued' | 'copying' | 'kept' | 'failed' | 'expired';
  next_attempt_at?: Date;
  lease_until?: Date | null;
  attempts?: number;
  size?: number;
  kept_at?: Date;
  error?: string;
  store_key?: string;
}): Promise<ResultCopyRow> {
  return db
    .insertInto('result_copies')
    .values({ role: 'video', source_url: 'https://files.example/v.mp4', ...values })
    .returningAll()
    .executeTakeFirstOrThrow();
}

describe('queueResultCopies', () => {
  it('takes the service to keep its links 7 days', () => {
    expect(LINK_LIFETIME_MS).toBe(604_800_000);
  });

  it('queues each http(s) result link of a succeeded task once, by role', async () => {
    await task('t1', {
      video_url: 'https://files.example/v.mp4',
      thumbnail_url: 'HTTP://files.example/t.jpg',
      image_url: 'ftp://files.example/i.png',
      caption_url: 'files.example/c.vtt',
    });
    await task('t2', { video_url: 'https://files.example/other.mp4' }, { status: 'RUNNING' });
    expect(await queueResultCopies(db)).toBe(2);
    expect(
      (await copies()).map((row) => [row.task_id, row.role, row.idx, row.source_url, row.state]),
    ).toEqual([
      ['t1', 'thumbnail', 0, 'HTTP://files.example/t.jpg', 'queued'],
      ['t1', 'video', 0, 'https://files.example/v.mp4', 'queued'],
    ]);
    expect(await queueResultCopies(db)).toBe(0);
    await task('t3', { image_url: 'https://files.example/i.png', caption_url: 'http://files.example/c.vtt' });
    expect(await queueResultCopies(db, ['t3'])).toBe(2);
  });

  it('queues only the tasks named, and nothing for an empty list', async () => {
    await task('t1', { video_url: 'https://files.example/1.mp4' });
    await task('t2', { video_url: 'https://files.example/2.mp4' });
    expect(await queueResultCopies(db, [])).toBe(0);
    expect(await queueResultCopies(db, ['t2'])).toBe(1);
    expect((await copies()).map((row) => row.task_id)).toEqual(['t2']);
  });

  it('queues a task finished just inside the link lifetime, not one finished exactly at its end', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-28T12:00:00Z') });
    const end = new Date(Date.now() - LINK_LIFETIME_MS);
    await task('at-end', { video_url: 'https://files.example/1.mp4' }, { finished_at: end });
    await task(
      'inside',
      { video_url: 'https://files.example/2.mp4' },
      { finished_at: new Date(end.getTime() + 1) },
    );
    // No finish time: its creation counts.
    await task(
      'created-inside',
      { video_url: 'https://files.example/3.mp4' },
      { finished_at: null, created_at: new Date(end.getTime() + 1) },
    );
    expect(await queueResultCopies(db)).toBe(2);
    expect((await copies()).map((row) => row.task_id)).toEqual(['created-inside', 'inside']);
  });
});

describe('expireStaleCopies', () => {
  it('expires a queued copy whose link ended, exactly at the end or before, and keeps one a millisecond younger', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-28T12:00:00Z') });
    const end = new Date(Date.now() - LINK_LIFETIME_MS);
    await task('at-end', {}, { finished_at: end });
    await task('younger', {}, { finished_at: new Date(end.getTime() + 1) });
    await task('created-at-end', {}, { finished_at: null, created_at: end });
    await task('copying', {}, { finished_at: end });
    await copyRow({ task_id: 'at-end', error: 'the service answered HTTP 503' });
    await copyRow({ task_id: 'younger' });
    await copyRow({ task_id: 'created-at-end' });
    await copyRow({ task_id: 'copying', state: 'copying' });
    await expireStaleCopies(db);
    expect((await copies()).map((row) => [row.task_id, row.state, row.error, row.lease_until])).toEqual([
      [
        'at-end',
        'expired',
        "the service answered HTTP 503; the service's link expired before it could be copied",
        null,
      ],
      ['copying', 'copying', null, null],
      ['created-at-end', 'expired', "the service's link expired before it could be copied", null],
      ['younger', 'queued', null, null],
    ]);
  });
});

describe('claiming and the fence', () => {
  const minute = 60_000;
  const ago = (ms: number) => new Date(Date.now() - ms);

  it('claims due rows in order up to the limit, with a lease, and takes a copying row only once its lease ran out', async () => {
    await copyRow({ task_id: 'later', next_attempt_at: ago(minute) });
    await copyRow({ task_id: 'first', next_attempt_at: ago(3 * minute) });
    await copyRow({ task_id: 'second', next_attempt_at: ago(2 * minute) });
    await copyRow({ task_id: 'not-due', next_attempt_at: ago(-minute) });
    await copyRow({
      task_id: 'leased',
      state: 'copying',
      lease_until: ago(-minute),
      next_attempt_at: ago(9 * minute),
    });
    await copyRow({
      task_id: 'lapsed',
      state: 'copying',
      lease_until: ago(minute),
      next_attempt_at: ago(minute / 2),
    });
    await copyRow({ task_id: 'kept', state: 'kept', next_attempt_at: ago(9 * minute) });
    const claimed = await claimDueCopies(db, 2, 30_000);
    expect(claimed.map((row) => [row.task_id, row.state, row.attempts])).toEqual([
      ['first', 'copying', 1],
      ['second', 'copying', 1],
    ]);
    const lease = claimed[0]!.lease_until!.getTime() - Date.now();
    expect(lease).toBeGreaterThan(25_000);
    expect(lease).toBeLessThanOrEqual(30_000);
    expect((await claimDueCopies(db, 5, 30_000)).map((row) => row.task_id).sort()).toEqual([
      'lapsed',
      'later',
    ]);
    expect(await claimDueCopies(db, 5, 30_000)).toEqual([]);
  });

  it('writes only while the claim holds the row: renewal, kept, failed', async () => {
    await copyRow({ task_id: 't1', next_attempt_at: ago(minute) });
    const [claim] = await claimDueCopies(db, 1, 30_000);
    expect(await renewCopyLease(db, claim!, 90_000)).toBe(true);
    const renewed = (await copies())[0]!;
    expect(renewed.lease_until!.getTime() - Date.now()).toBeGreaterThan(60_000);
    // A later claim of the same row (its lease ran out) fences this one off.
    await db
      .updateTable('result_copies')
      .set({ lease_until: ago(1000) })
      .execute();
    const [takeover] = await claimDueCopies(db, 1, 30_000);
    expect(takeover!.attempts).toBe(2);
    const file = { key: 'ab/k/video-0', size: 10, sha256: 'f00d', contentType: 'video/mp4' };
    expect(await renewCopyLease(db, claim!, 90_000)).toBe(false);
    expect(await markCopyKept(db, claim!, file)).toBe(false);
    await markCopyFailed(db, claim!, { message: 'late', final: true, nextInMs: 0, givenBack: false });
    expect((await copies())[0]).toMatchObject({ state: 'copying', attempts: 2, error: null });
    expect(await markCopyKept(db, takeover!, file)).toBe(true);
    expect((await copies())[0]).toMatchObject({
      state: 'kept',
      store_key: 'ab/k/video-0',
      sha256: 'f00d',
      content_type: 'video/mp4',
      error: null,
      lease_until: null,
    });
    expect(Number((await copies())[0]!.size)).toBe(10);
    expect((await copies())[0]!.kept_at).toBeInstanceOf(Date);
  });

  it('queues a failed attempt again after its wait, gives a final one up, and gives back an uncounted one', async () => {
    await copyRow({ task_id: 'retry', next_attempt_at: ago(minute) });
    await copyRow({ task_id: 'final', next_attempt_at: ago(minute) });
    await copyRow({ task_id: 'given-back', next_attempt_at: ago(minute) });
    const claimed = await claimDueCopies(db, 3, 30_000);
    const byTask = new Map(claimed.map((row) => [row.task_id, row]));
    await markCopyFailed(db, byTask.get('retry')!, {
      message: 'HTTP 503',
      final: false,
      nextInMs: 45_000,
      givenBack: false,
    });
    await markCopyFailed(db, byTask.get('final')!, {
      message: 'HTTP 404',
      final: true,
      nextInMs: 0,
      givenBack: false,
    });
    await markCopyFailed(db, byTask.get('given-back')!, {
      message: 'stopping',
      final: false,
      nextInMs: 0,
      givenBack: true,
    });
    const rows = new Map((await copies()).map((row) => [row.task_id, row]));
    expect(rows.get('retry')).toMatchObject({
      state: 'queued',
      error: 'HTTP 503',
      attempts: 1,
      lease_until: null,
    });
    const wait = rows.get('retry')!.next_attempt_at.getTime() - Date.now();
    expect(wait).toBeGreaterThan(40_000);
    expect(wait).toBeLessThanOrEqual(45_000);
    expect(rows.get('final')).toMatchObject({ state: 'failed', error: 'HTTP 404', attempts: 1 });
    expect(rows.get('given-back')).toMatchObject({ state: 'queued', attempts: 0 });
  });
});

describe('keptRow', () => {
  it('finds only the kept row of that task, role and index', async () => {
    await copyRow({ task_id: 't1', role: 'video', idx: 0, state: 'kept', store_key: 'k0' });
    await copyRow({ task_id: 't1', role: 'video', idx: 1, state: 'queued' });
    await copyRow({ task_id: 't1', role: 'image', idx: 0, state: 'kept', store_key: 'k-image' });
    await copyRow({ task_id: 't2', role: 'video', idx: 0, state: 'kept', store_key: 'k-other' });
    expect((await keptRow(db, 't1', 'video', 0))?.store_key).toBe('k0');
    expect((await keptRow(db, 't1', 'image', 0))?.store_key).toBe('k-image');
    expect(await keptRow(db, 't1', 'video', 1)).toBeUndefined();
    expect(await keptRow(db, 't1', 'thumbnail', 0)).toBeUndefined();
    expect(await keptRow(db, 't3', 'video', 0)).toBeUndefined();
  });
});

describe('copiesOf and removeKept', () => {
  it('reads each task’s files as kept, removed (by retention or an admin), lost or pending', async () => {
    const removedAt = new Date('2026-11-20T08:00:00Z');
    await copyRow({ task_id: 't/1', role: 'video', state: 'kept' });
    await copyRow({ task_id: 't/1', role: 'thumbnail', state: 'queued' });
    await copyRow({ task_id: 't/1', role: 'image', state: 'copying' });
    // A kept time alone does not make a row removed: only an expired one was.
    await copyRow({ task_id: 't/1', role: 'caption', state: 'failed', kept_at: new Date() });
    await copyRow({ task_id: 't/1', role: 'video', idx: 1, state: 'kept' });
    await copyRow({ task_id: 't/1', role: 'audio', state: 'kept' });
    await copyRow({ task_id: 't2', role: 'video', state: 'expired' });
    await copyRow({
      task_id: 't2',
      role: 'image',
      state: 'expired',
      kept_at: removedAt,
      error: removedReason(30),
    });
    await copyRow({
      task_id: 't2',
      role: 'thumbnail',
      state: 'expired',
      kept_at: removedAt,
      error: removedReason(),
    });
    await db
      .updateTable('result_copies')
      .set({ updated_at: removedAt })
      .where('task_id', '=', 't2')
      .execute();
    await copyRow({ task_id: 'not-asked', state: 'kept' });
    expect(await copiesOf(db, [])).toEqual(new Map());
    const found = await copiesOf(db, ['t/1', 't2', 'none']);
    expect([...found.keys()].sort()).toEqual(['t/1', 't2']);
    expect(found.get('t/1')).toEqual({
      kept: { video: '/__console/results/t%2F1/video/0' },
      lost: ['caption'],
      pending: expect.arrayContaining(['thumbnail', 'image']),
    });
    expect(found.get('t/1')!.pending).toHaveLength(2);
    expect(found.get('t2')).toEqual({
      kept: {},
      lost: ['video'],
      pending: [],
      removed: { image: { days: 30, at: removedAt.getTime() }, thumbnail: { at: removedAt.getTime() } },
    });
  });

  it('removes each kept file from the store and marks its row expired with the reason', async () => {
    const kept = await copyRow({
      task_id: 't1',
      state: 'kept',
      store_key: 'ab/k/video-0',
      lease_until: new Date(),
    });
    const keyless = await copyRow({ task_id: 't1', role: 'image', state: 'kept' });
    await copyRow({ task_id: 't1', role: 'thumbnail', state: 'kept', store_key: 'untouched' });
    const deleted: string[] = [];
    const store = { delete: async (key: string) => void deleted.push(key) } as unknown as ResultStore;
    const rows = [
      { id: Number(kept.id), store_key: kept.store_key },
      { id: Number(keyless.id), store_key: null },
    ];
    expect(await removeKept(db, store, rows, removedReason(7))).toBe(2);
    expect(deleted).toEqual(['ab/k/video-0']);
    expect(
      (await copies()).map((row) => [row.role, row.state, row.store_key, row.error, row.lease_until]),
    ).toEqual([
      ['image', 'expired', null, 'removed after 7 days (RESULTS_KEEP_DAYS)', null],
      ['thumbnail', 'kept', 'untouched', null, null],
      ['video', 'expired', null, 'removed after 7 days (RESULTS_KEEP_DAYS)', null],
    ]);
    expect(removedReason()).toBe('removed by an admin');
    expect(removedReason(0)).toBe('removed by an admin');
  });
});

describe('storageUsage', () => {
  it('counts kept files and bytes in total, by kind, person and role (largest first), and every state', async () => {
    await task('a', {}, { kind: 'image_to_video', creator: 'Ann' });
    await task('b', {}, { kind: 'text_to_image', creator: 'Bo' });
    await task('c', {}, { kind: 'text_to_image', creator: null });
    await copyRow({ task_id: 'a', role: 'video', state: 'kept', size: 500 });
    await copyRow({ task_id: 'a', role: 'thumbnail', state: 'kept', size: 20 });
    await copyRow({ task_id: 'b', role: 'image', state: 'kept', size: 100 });
    await copyRow({ task_id: 'b', role: 'image', idx: 1, state: 'kept', size: 100 });
    await copyRow({ task_id: 'c', role: 'image', state: 'kept', size: 150 });
    await copyRow({ task_id: 'c', role: 'caption', state: 'kept', size: 0 });
    await copyRow({ task_id: 'a', role: 'caption', state: 'failed' });
    await copyRow({ task_id: 'b', role: 'thumbnail', state: 'queued' });
    await copyRow({ task_id: 'c', role: 'video', state: 'copying', size: 999 });
    await copyRow({ task_id: 'c', role: 'thumbnail', state: 'expired' });
    const usage = await storageUsage(db, 'disk');
    expect(usage).toEqual({
      store: 'disk',
      kept: { files: 6, bytes: 870 },
      byKind: [
        { kind: 'image_to_video', files: 2, bytes: 520 },
        { kind: 'text_to_image', files: 4, bytes: 350 },
      ],
      byPerson: [
        { creator: 'Ann', files: 2, bytes: 520 },
        { creator: 'Bo', files: 2, bytes: 200 },
        { creator: null, files: 2, bytes: 150 },
      ],
      byRole: [
        { role: 'video', files: 1, bytes: 500 },
        { role: 'image', files: 3, bytes: 350 },
        { role: 'thumbnail', files: 1, bytes: 20 },
        { role: 'caption', files: 1, bytes: 0 },
      ],
      states: { queued: 1, copying: 1, kept: 6, failed: 1, expired: 1 },
    });
  });

  it('breaks a tie in bytes by files, and reports an empty store as zeros', async () => {
    expect(await storageUsage(db, 's3')).toEqual({
      store: 's3',
      kept: { files: 0, bytes: 0 },
      byKind: [],
      byPerson: [],
      byRole: [],
      states: { queued: 0, copying: 0, kept: 0, failed: 0, expired: 0 },
    });
    // Two people with the same bytes, then the same again with their file counts swapped: whatever
    // order the database groups them in, only the tie broken by files puts the one with more first.
    await task('a', {}, { creator: 'Ann' });
    await task('b', {}, { creator: 'Bo' });
    const people = async (filesOfAnn: number, filesOfBo: number) => {
      await db.deleteFrom('result_copies').execute();
      for (const [taskId, files] of [
        ['a', filesOfAnn],
        ['b', filesOfBo],
      ] as const)
        for (let idx = 0; idx < files; idx++)
          await copyRow({ task_id: taskId, role: 'image', idx, state: 'kept', size: 600 / files });
      return (await storageUsage(db, 's3')).byPerson.map((line) => [line.creator, line.files]);
    };
    expect(await people(1, 2)).toEqual([
      ['Bo', 2],
      ['Ann', 1],
    ]);
    expect(await people(2, 1)).toEqual([
      ['Ann', 2],
      ['Bo', 1],
    ]);
  });
});
