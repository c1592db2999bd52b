// The copy job's scheduling without a Node app: the file's PGlite (emptied before each test), a fetch
// stub for the service and an in-memory store. Its defaults (two at a time, a 2-minute lease, eight
// attempts), what it logs and tells, retention, the backfill, a lease taken over and closing.
import type { Readable } from 'node:stream';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/database';
import { oneTurn } from '../testing/counting-reads';
import { resetTestDatabase } from '../testing/database';
import { createCopyJob, defaultBackoffMs, type CopyJobOptions } from './copy-job';
import type { ResultStore } from './store';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
let database: Database;
let lines: string[];
let told: string[];
const kept = new Map<string, number>();
const deleted: string[] = [];
const store: ResultStore = {
  kind: 'memory',
  async put(key: string, body: Readable) {
    let size = 0;
    for await (const chunk of body) size += (chunk as Buffer).length;
    kept.set(key, size);
  },
  get: () => Promise.reject(new Error('not used')),
  async delete(key) {
    deleted.push(key);
  },
};

beforeEach(async () => {
  database = await resetTestDatabase();
  lines = [];
  told = [];
  kept.clear();
  deleted.length = 0;
});

const serving = vi.fn(async () => new Response(PNG.slice()));

function job(options: Partial<CopyJobOptions> = {}) {
  return createCopyJob({
    database: Promise.resolve(database),
    store: Promise.resolve(store),
    fetch: serving,
    maxBytes: 1000,
    log: (line) => lines.push(line),
    onKept: (taskId) => told.push(taskId),
    ...options,
  });
}

async function queued(taskId: string, values: { attempts?: number; role?: string } = {}) {
  await database.db
    .insertInto('result_copies')
    .values({
      task_id: taskId,
      role: values.role ?? 'image',
      source_url: `https://files.example/${taskId}.png`,
      ...values,
    })
    .execute();
}

const rows = () => database.db.selectFrom('result_copies').selectAll().orderBy('task_id').execute();

/** A fetch that holds each request until released; `started` counts the requests under way. */
function held() {
  const waiting: (() => void)[] = [];
  let started = 0;
  const fetch = vi.fn(
    (_url: URL, init: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        started++;
        init.signal?.addEventListener('abort', () => reject(init.signal!.reason));
        waiting.push(() => resolve(new Response(PNG.slice())));
      }),
  );
  return {
    fetch: fetch as unknown as typeof globalThis.fetch,
    started: () => started,
    release: () => waiting.splice(0).forEach((go) => go()),
  };
}

/** Waits for `check` to hold (the job works in the background, on real timers). */
const until = (check: () => boolean | Promise<boolean>) =>
  vi.waitFor(async () => expect(await check()).toBe(true), { timeout: 15_000, interval: 5 });

describe('the copy job', () => {
  it('keeps each due file, tells who watches its task, and logs nothing for a success', async () => {
    await queued('t1');
    await queued('t2', { role: 'video' });
    await job().drain();
    expect((await rows()).map((row) => [row.task_id, row.state, Number(row.size)])).toEqual([
      ['t1', 'kept', PNG.length],
      ['t2', 'kept', PNG.length],
    ]);
    expect(told.sort()).toEqual(['t1', 't2']);
    expect(lines).toEqual([]);
  });

  it('copies two at a time by default, each under a lease of two minutes', async () => {
    for (const id of ['t1', 't2', 't3']) await queued(id);
    const service = held();
    const draining = job({ fetch: service.fetch }).drain();
    await until(() => service.started() === 2);
    const leased = (await rows()).filter((row) => row.state === 'copying');
    expect(leased).toHaveLength(2);
    for (const row of leased) {
      const lease = row.lease_until!.getTime() - Date.now();
      expect(lease).toBeGreaterThan(100_000);
      expect(lease).toBeLessThanOrEqual(120_000);
    }
    service.release();
    await until(() => service.started() === 3);
    service.release();
    await draining;
    expect((await rows()).every((row) => row.state === 'kept')).toBe(true);
  });

  it('retries a failure after the default backoff, and gives up at the eighth attempt', async () => {
    await queued('seventh', { attempts: 6 });
    await queued('eighth', { attempts: 7 });
    const failing = vi.fn(async () => new Response('busy', { status: 503 }));
    await job({ fetch: failing }).drain();
    const [eighth, seventh] = await rows();
    expect([eighth!.state, eighth!.attempts]).toEqual(['failed', 8]);
    expect([seventh!.state, seventh!.attempts]).toEqual(['queued', 7]);
    const wait = seventh!.next_attempt_at.getTime() - Date.now();
    expect(wait).toBeGreaterThan(defaultBackoffMs(7) - 60_000);
    expect(wait).toBeLessThanOrEqual(defaultBackoffMs(7));
    expect(lines.sort()).toEqual([
      '[results] eighth image: the service answered HTTP 503',
      '[results] seventh image: the service answered HTTP 503',
    ]);
    expect(told).toEqual([]);
  });

  it('backs off 30 s after the first failure, doubling, and at most 6 hours', () => {
    expect([1, 2, 3].map(defaultBackoffMs)).toEqual([30_000, 60_000, 120_000]);
    expect(defaultBackoffMs(0)).toBe(30_000);
    expect(defaultBackoffMs(10)).toBe(30_000 * 512);
    expect(defaultBackoffMs(11)).toBe(6 * 3600 * 1000);
    expect(defaultBackoffMs(20)).toBe(6 * 3600 * 1000);
    expect(defaultBackoffMs(9)).toBe(30_000 * 256);
  });

  it('stops a copy whose lease another claim took over, and writes nothing for it', async () => {
    await queued('t1');
    const service = held();
    const draining = job({ fetch: service.fetch, leaseMs: 300 }).drain();
    await until(() => service.started() === 1);
    // Another claim took the row (its attempt number moved on, its lease is its own).
    await database.db
      .updateTable('result_copies')
      .set({ attempts: 5, lease_until: new Date(Date.now() + 3_600_000) })
      .execute();
    await until(() => lines.length === 1);
    expect(lines).toEqual(['[results] t1 image: the lease was taken over']);
    await draining;
    expect((await rows())[0]).toMatchObject({ state: 'copying', attempts: 5, error: null });
    expect(service.started()).toBe(1);
  });

  it('renews the lease while copying', async () => {
    await queued('t1');
    const service = held();
    const draining = job({ fetch: service.fetch, leaseMs: 300 }).drain();
    await until(() => service.started() === 1);
    const first = (await rows())[0]!.lease_until!.getTime();
    await until(async () => (await rows())[0]!.lease_until!.getTime() > first);
    service.release();
    await draining;
    expect(lines).toEqual([]);
    expect((await rows())[0]!.state).toBe('kept');
  });

  it('queues the earlier tasks’ files at start and copies them', async () => {
    await database.db
      .insertInto('tasks')
      .values({
        id: 'earlier',
        kind: 'text_to_image',
        source: 'created',
        status: 'SUCCEEDED',
        result: JSON.stringify({ image_url: 'https://files.example/earlier.png' }),
        finished_at: new Date(),
      })
      .execute();
    const copying = job({ pollMs: 3_600_000 });
    copying.start();
    await until(() => told.length === 1);
    expect(lines).toEqual(['[results] queued 1 file(s) of earlier tasks to keep']);
    expect((await rows())[0]!.state).toBe('kept');
    await copying.close();
    expect(await job().backfill()).toBe(0);
    expect(lines).toHaveLength(1);
  });

  it('does nothing on wake() before start(), and looks for work once started', async () => {
    // A database that never opens, counting who waits for it: any work would wait for it first.
    const asked = vi.fn();
    const database = { then: asked } as unknown as Promise<Database>;
    const idle = job({ database, pollMs: 3_600_000 });
    idle.wake();
    await oneTurn();
    expect(asked).not.toHaveBeenCalled();
    idle.start();
    await oneTurn();
    expect(asked).toHaveBeenCalled();
    await idle.close();
  });

  it('gives a copy under way back uncounted when closed, logging nothing', async () => {
    await queued('t1');
    const service = held();
    const copying = job({ fetch: service.fetch });
    const draining = copying.drain();
    await until(() => service.started() === 1);
    await copying.close();
    await draining;
    expect((await rows())[0]).toMatchObject({
      state: 'queued',
      attempts: 0,
      error: 'the console is stopping',
    });
    expect(lines).toEqual([]);
    // Closed: nothing more is claimed.
    await copying.drain();
    expect(service.started()).toBe(1);
  });

  it('removes files kept longer than keepDays, once an hour at most while draining', async () => {
    const day = 24 * 3600 * 1000;
    const keptRow = (taskId: string, keptAt: Date) =>
      database.db
        .insertInto('result_copies')
        .values({
          task_id: taskId,
          role: 'image',
          source_url: 'https://files.example/x.png',
          state: 'kept',
          store_key: `key-${taskId}`,
          kept_at: keptAt,
        })
        .execute();
    await keptRow('old', new Date(Date.now() - 3 * day - 60_000));
    await keptRow('recent', new Date(Date.now() - 3 * day + 60_000));
    expect(await job().prune()).toBe(0);
    const pruning = job({ keepDays: 3 });
    await pruning.drain();
    expect(deleted).toEqual(['key-old']);
    expect(told).toEqual(['old']);
    expect(lines).toEqual(['[results] removed 1 kept file(s) older than 3 days']);
    await keptRow('older', new Date(Date.now() - 9 * day));
    await pruning.drain();
    expect(deleted).toEqual(['key-old']);
    expect(await pruning.prune()).toBe(1);
    expect(await pruning.prune()).toBe(0);
    expect(lines).toHaveLength(2);
  });
});
