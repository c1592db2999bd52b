// The follower on its own (PGlite, no Node app, `ask` answering directly, so no traffic recorder
// stands between): what it writes for each answer, the record's kind and age for "Check again",
// what it logs and where, and how it looks again, wakes and closes. follower.test.ts runs it inside
// the Node app against a service stub.
import { countingReads, oneTurn } from '../testing/counting-reads';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TaskType } from '../../src/api/core/rules';
import type { Database } from '../db/database';
import { resetTestDatabase } from '../testing/database';
import { createFollower, type Follower, type FollowerOptions } from './follower';

let database: Database;
const followers: Follower[] = [];
beforeEach(async () => {
  database = await resetTestDatabase();
});
afterEach(async () => {
  await Promise.all(followers.splice(0).map((follower) => follower.close()));
  vi.restoreAllMocks();
});

const db = () => database.db;
const status = (value: string) => Response.json({ code: 0, msg: 'ok', data: { status: value } });
const notFound = () => Response.json({ code: 100003, msg: 'task not found' }, { status: 404 });

function followerWith(options: Partial<FollowerOptions>): Follower {
  const follower = createFollower({
    database: Promise.resolve(database),
    ask: async () => status('PROCESSING'),
    ratePerSecond: 100,
    log: () => {},
    ...options,
  });
  followers.push(follower);
  return follower;
}

async function seed(id: string, { kind = 'image_to_video' as TaskType, ageMs = 0 } = {}) {
  await db()
    .insertInto('tasks')
    .values({ id, kind, source: 'created', created_at: new Date(Date.now() - ageMs) })
    .execute();
  await db().insertInto('task_follows').values({ task_id: id }).execute();
}
const followOf = (id: string) =>
  db().selectFrom('task_follows').selectAll().where('task_id', '=', id).executeTakeFirst();
/** Seconds until the task is next asked about, by the database's clock. */
async function dueIn(id: string) {
  const { rows } = await sql<{ s: number }>`select extract(epoch from due_at - now()) as s
    from task_follows where task_id = ${id}`.execute(db());
  return Number(rows[0]!.s);
}

describe('what the follower writes for an answer', () => {
  it('a final status: no longer followed, by the follower itself', async () => {
    await seed('i2v-done');
    await followerWith({ ask: async () => status('SUCCEEDED') }).drain();
    expect(await followOf('i2v-done')).toBeUndefined();
  });

  it('a 429: braked, and counted as a failed request in a row', async () => {
    await seed('i2v-429');
    const ask = async () => Response.json({ code: 429 }, { status: 429, headers: { 'retry-after': '3' } });
    await followerWith({ ask }).drain();
    expect(await followOf('i2v-429')).toMatchObject({ failures: 1 });
    expect(await dueIn('i2v-429')).toBeCloseTo(3, 0);
  });

  it('no answer at all: asked again after twice the normal interval (4 s), not a 5xx wait', async () => {
    await seed('i2v-net');
    await followerWith({ ask: () => Promise.reject(new Error('ECONNRESET')) }).drain();
    expect(await followOf('i2v-net')).toMatchObject({ failures: 1 });
    expect(await dueIn('i2v-net')).toBeCloseTo(4, 0);
  });

  it('an end: the follower tells onEnded when given one, and logs nothing when not', async () => {
    await seed('i2v-a');
    const log = vi.fn();
    await followerWith({ ask: async () => notFound(), log }).drain();
    expect(await followOf('i2v-a')).toMatchObject({ ended: 'not_found', due_at: null });
    expect(log).not.toHaveBeenCalled();
    await seed('i2v-b');
    const onEnded = vi.fn(async () => {});
    await followerWith({ ask: async () => notFound(), onEnded }).drain();
    expect(onEnded).toHaveBeenCalledWith('i2v-b', 'not_found');
  });

  it('what could not be written is logged, on console.warn unless told otherwise', async () => {
    await seed('i2v-a');
    const onEnded = async () => {
      throw new Error('inbox gone');
    };
    const log = vi.fn();
    await followerWith({ ask: async () => notFound(), onEnded, log }).drain();
    expect(log).toHaveBeenCalledWith(
      '[follow] task i2v-a: could not write what its answer means: inbox gone',
    );
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await seed('i2v-b');
    await followerWith({ ask: async () => notFound(), onEnded, log: undefined }).drain();
    expect(warn).toHaveBeenCalledWith(
      '[follow] task i2v-b: could not write what its answer means: inbox gone',
    );
  });
});

describe('checkNow', () => {
  it("asks with the record's kind and schedules by the record's age", async () => {
    await seed('tr-old', { kind: 'video_translate', ageMs: 3_600_000 });
    const kinds: string[] = [];
    const follower = followerWith({
      ask: async (kind) => {
        kinds.push(kind);
        return status('PROCESSING');
      },
    });
    expect(await follower.checkNow('tr-old', 'image_to_video')).toMatchObject({ asked: true });
    expect(kinds).toEqual(['video_translate']);
    expect(await dueIn('tr-old')).toBeCloseTo(30, 0);
  });
});

describe('looking', () => {
  it('a claim that fails is logged while open; not once the follower is closing', async () => {
    const log = vi.fn();
    const broken = Promise.reject(new Error('database gone'));
    broken.catch(() => {});
    const open = followerWith({ database: broken, log });
    open.start();
    await vi.waitFor(() =>
      expect(log).toHaveBeenCalledWith('[follow] could not claim due tasks: database gone'),
    );

    const closingLog = vi.fn();
    let awaited = false;
    let fail!: (error: Error) => void;
    const pending = new Promise<Database>((_, reject) => (fail = reject));
    const watched = {
      then(...args: Parameters<Promise<Database>['then']>) {
        awaited = true;
        return pending.then(...args);
      },
    } as Promise<Database>;
    const closing = followerWith({ database: watched, log: closingLog });
    closing.start();
    await vi.waitFor(() => expect(awaited).toBe(true));
    const closed = closing.close();
    fail(new Error('database gone'));
    await closed;
    expect(closingLog).not.toHaveBeenCalled();
  });

  it('one request at a time: the next due task is asked as soon as the first has its answer', async () => {
    await seed('i2v-1');
    await seed('i2v-2');
    const asked: string[] = [];
    let answerFirst!: (response: Response) => void;
    const follower = followerWith({
      concurrency: 1,
      idleMs: 60_000,
      ask: (_kind, id) => {
        asked.push(id);
        if (asked.length > 1) return Promise.resolve(status('SUCCEEDED'));
        return new Promise<Response>((resolve) => (answerFirst = resolve));
      },
    });
    follower.start();
    await vi.waitFor(() => expect(asked).toHaveLength(1));
    // One turn of the event loop: the look the first claim scheduled (at 0 ms, queued before this
    // one) has found no free slot and ended, so only the answer's own look can ask the second.
    await oneTurn();
    expect(asked).toHaveLength(1);
    answerFirst(status('SUCCEEDED'));
    await vi.waitFor(() => expect(asked).toHaveLength(2), { timeout: 5_000 });
  });

  it('wake() looks at once, not after the idle interval', async () => {
    const asked: string[] = [];
    const counted = countingReads(database.db);
    const follower = followerWith({
      database: Promise.resolve(counted.database),
      idleMs: 60_000,
      ask: async (_kind, id) => {
        asked.push(id);
        return status('SUCCEEDED');
      },
    });
    follower.start();
    await vi.waitFor(() => expect(counted.reads()).toBeGreaterThanOrEqual(1));
    await seed('i2v-new');
    follower.wake();
    await vi.waitFor(() => expect(asked).toEqual(['i2v-new']), { timeout: 5_000 });
  });

  it('looks only between start() and close(): wake() does nothing before or after', async () => {
    const counted = countingReads(database.db);
    const follower = followerWith({ database: Promise.resolve(counted.database), idleMs: 60_000 });
    follower.wake();
    await oneTurn();
    expect(counted.reads()).toBe(0);
    follower.start();
    await vi.waitFor(() => expect(counted.reads()).toBeGreaterThanOrEqual(1));
    await follower.close();
    const before = counted.reads();
    follower.wake();
    await oneTurn();
    expect(counted.reads()).toBe(before);
  });

  it('after a look that finds nothing, the next waits the idle interval', async () => {
    let claimsMade = 0;
    const real = database.db;
    // Counts the claims that have ended: each look makes one, in a transaction.
    const db = new Proxy(real, {
      get(target, property) {
        if (property !== 'transaction') return Reflect.get(target, property, target);
        return () => {
          const transaction = target.transaction();
          return {
            execute: async (work: Parameters<typeof transaction.execute>[0]) => {
              const result = await transaction.execute(work);
              claimsMade += 1;
              return result;
            },
          };
        };
      },
    });
    const counted = countingReads(db);
    const follower = followerWith({ database: Promise.resolve(counted.database), idleMs: 60_000 });
    follower.start();
    await vi.waitFor(() => expect(claimsMade).toBe(1));
    // A look scheduled at 0 ms from the end of the first would have read the database by then.
    await oneTurn();
    expect(counted.reads()).toBe(1);
  });

  it('a claim that ends after close() asks nothing', async () => {
    await seed('i2v-late');
    let awaited = false;
    let open!: (database: Database) => void;
    const pending = new Promise<Database>((resolve) => (open = resolve));
    const watched = {
      then(...args: Parameters<Promise<Database>['then']>) {
        awaited = true;
        return pending.then(...args);
      },
    } as Promise<Database>;
    const asked: string[] = [];
    const follower = followerWith({
      database: watched,
      ask: async (_kind, id) => {
        asked.push(id);
        return status('PROCESSING');
      },
    });
    follower.start();
    await vi.waitFor(() => expect(awaited).toBe(true));
    const closed = follower.close();
    open(database);
    await closed;
    expect(asked).toEqual([]);
    // Its claim stands until the lease runs out; then another instance asks.
    expect(await followOf('i2v-late')).toMatchObject({ claims: 1 });
  });

  it('a wake during a look is taken right after it, never beside it', async () => {
    let active = 0;
    let most = 0;
    let claimsStarted = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // Each look claims in one transaction: the first one's end is held until the test lets it go.
    const db = new Proxy(database.db, {
      get(target, property) {
        if (property !== 'transaction') return Reflect.get(target, property, target);
        return () => {
          const transaction = target.transaction();
          const first = ++claimsStarted === 1;
          active += 1;
          most = Math.max(most, active);
          return {
            execute: async (work: Parameters<typeof transaction.execute>[0]) => {
              try {
                const result = await transaction.execute(work);
                if (first) await held;
                return result;
              } finally {
                active -= 1;
              }
            },
          };
        };
      },
    });
    const asked: string[] = [];
    const follower = followerWith({
      database: Promise.resolve({ db } as Database),
      idleMs: 60_000,
      ask: async (_kind, id) => {
        asked.push(id);
        return status('SUCCEEDED');
      },
    });
    follower.start();
    await vi.waitFor(() => expect(claimsStarted).toBe(1));
    await seed('i2v-woken');
    follower.wake();
    // A look started beside the held one would have begun its claim by then.
    await oneTurn();
    expect(claimsStarted).toBe(1);
    release();
    await vi.waitFor(() => expect(asked).toEqual(['i2v-woken']), { timeout: 5_000 });
    expect(most).toBe(1);
  });

  it('close() waits for the requests in flight to be written', async () => {
    await seed('i2v-slow');
    let answer!: (response: Response) => void;
    const follower = followerWith({
      ask: () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    follower.start();
    await vi.waitFor(() => expect(answer).toBeDefined());
    const closed = follower.close();
    answer(status('SUCCEEDED'));
    await closed;
    expect(await followOf('i2v-slow')).toBeUndefined();
  });
});
