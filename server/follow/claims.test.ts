// The follower's SQL on the embedded database, called directly: what a claim takes under the team's
// rate and the service's brake, when it says to look again, the claim's fence on every write, and
// the figures for /healthz. The database's clock is the one these rules read, so the brake row is
// set relative to its now(), well clear of a window's edges.
import { sql } from 'kysely';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database';
import { resetTestDatabase } from '../testing/database';
import { askAgainIn, brake, claimDue, claimNow, ended, finished, followStats, noteError } from './claims';

let db: Db;
beforeEach(async () => {
  db = (await resetTestDatabase()).db;
});

const LEASE = 60_000;

/** Tasks in the record, followed and due now unless `dueInMs` says otherwise. */
async function seed(ids: string[], dueInMs = -1_000, created = new Date()) {
  for (const id of ids) {
    await db
      .insertInto('tasks')
      .values({ id, kind: 'image_to_video', source: 'created', created_at: created })
      .execute();
    await sql`insert into task_follows (task_id, due_at) values (${id}, now() + ${`${dueInMs} milliseconds`}::interval)`.execute(
      db,
    );
  }
}
const ids = (count: number, prefix = 'i2v') => Array.from({ length: count }, (_, n) => `${prefix}-${n}`);

/** The team's one-second window: begun `agoMs` ago with `used` requests in it. */
const windowOf = (agoMs: number, used: number) =>
  sql`update follow_brake set window_start = now() - ${`${agoMs} milliseconds`}::interval, window_used = ${used}`.execute(
    db,
  );
const brakeRow = () => db.selectFrom('follow_brake').selectAll().executeTakeFirstOrThrow();
const follows = () => db.selectFrom('task_follows').selectAll().orderBy('task_id').execute();
const followOf = (id: string) =>
  db.selectFrom('task_follows').selectAll().where('task_id', '=', id).executeTakeFirstOrThrow();

describe('claimDue', () => {
  it('takes no more than asked, and says to look again at once when more may be due', async () => {
    await seed(ids(5));
    const claim = await claimDue(db, 2, 10, LEASE);
    expect(claim.tasks).toHaveLength(2);
    expect(claim.tasks[0]).toMatchObject({ kind: 'image_to_video', claim: 1, failures: 0 });
    expect(claim.nextAt).toEqual(claim.now);
    expect((await brakeRow()).window_used).toBe(2);
  });

  it('takes exactly what the rate leaves in this window, and looks again when the window ends', async () => {
    await seed(ids(10));
    await windowOf(300, 3);
    const claim = await claimDue(db, 10, 5, LEASE);
    expect(claim.tasks).toHaveLength(2);
    const row = await brakeRow();
    expect(row.window_used).toBe(5);
    expect(claim.nextAt!.getTime()).toBe(row.window_start.getTime() + 1000);
    expect(claim.nextAt!.getTime() - claim.now.getTime()).toBeGreaterThan(0);
  });

  it('asked for exactly what the rate leaves, looks again at once', async () => {
    await seed(ids(10));
    const claim = await claimDue(db, 5, 5, LEASE);
    expect(claim.tasks).toHaveLength(5);
    expect(claim.nextAt).toEqual(claim.now);
  });

  it('takes none while the window is spent, and says when it ends', async () => {
    await seed(ids(3));
    await windowOf(300, 5);
    const claim = await claimDue(db, 10, 5, LEASE);
    expect(claim.tasks).toEqual([]);
    const row = await brakeRow();
    expect(row.window_used).toBe(5);
    expect(claim.nextAt!.getTime()).toBe(row.window_start.getTime() + 1000);
  });

  it('starts a new window once the last has ended, however full it was', async () => {
    await seed(ids(10));
    await windowOf(1_500, 5);
    const claim = await claimDue(db, 10, 5, LEASE);
    expect(claim.tasks).toHaveLength(5);
    const row = await brakeRow();
    expect(row).toMatchObject({ window_used: 5 });
    expect(row.window_start).toEqual(claim.now);
  });

  it('takes none while the service asked everyone to wait, and says until when', async () => {
    await seed(ids(2));
    await sql`update follow_brake set not_before = now() + interval '5 seconds'`.execute(db);
    const claim = await claimDue(db, 10, 10, LEASE);
    expect(claim.tasks).toEqual([]);
    expect(claim.nextAt).toEqual((await brakeRow()).not_before);
  });

  it('with nothing due: spends nothing of the rate, and names the earliest task due later', async () => {
    await seed(['i2v-soon'], 10_000);
    await seed(['i2v-later'], 3_600_000);
    const claim = await claimDue(db, 10, 10, LEASE);
    expect(claim.tasks).toEqual([]);
    expect((await brakeRow()).window_start).toEqual(new Date(0));
    expect(claim.nextAt!.getTime() - claim.now.getTime()).toBeCloseTo(10_000, -2);
  });

  it('fewer due than allowed: the next look is when the soonest lease or task comes due', async () => {
    await seed(['i2v-now']);
    await seed(['i2v-later'], 3_600_000);
    const claim = await claimDue(db, 10, 10, 2_000);
    expect(claim.tasks.map((task) => task.id)).toEqual(['i2v-now']);
    expect(claim.nextAt!.getTime() - claim.now.getTime()).toBe(2_000);
    expect((await followOf('i2v-now')).due_at!.getTime() - claim.now.getTime()).toBe(2_000);
  });

  it('with nothing followed at all, has no next look to name', async () => {
    expect((await claimDue(db, 10, 10, LEASE)).nextAt).toBeUndefined();
  });
});

describe('claimNow', () => {
  it('claims a task whenever it is due, counts it in the window, and keeps its failures', async () => {
    await seed(['i2v-later'], 3_600_000);
    await db.updateTable('task_follows').set({ failures: 2, claims: 4 }).execute();
    await windowOf(300, 2);
    expect(await claimNow(db, 'i2v-later', 5, LEASE)).toEqual({ claim: 5, failures: 2 });
    expect((await brakeRow()).window_used).toBe(3);
  });

  it('takes the last request the window has, and refuses one past it until the window ends', async () => {
    await seed(['i2v-a', 'i2v-b']);
    await windowOf(300, 4);
    expect(await claimNow(db, 'i2v-a', 5, LEASE)).toMatchObject({ claim: 1 });
    const refused = await claimNow(db, 'i2v-b', 5, LEASE);
    expect(refused).toHaveProperty('retryAfterMs');
    const wait = (refused as { retryAfterMs: number }).retryAfterMs;
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(700);
    expect((await followOf('i2v-b')).claims).toBe(0);
  });

  it('a new window once the last has ended', async () => {
    await seed(['i2v-a']);
    await windowOf(1_500, 5);
    expect(await claimNow(db, 'i2v-a', 5, LEASE)).toMatchObject({ claim: 1 });
    expect(await brakeRow()).toMatchObject({ window_used: 1 });
  });

  it('waits out the brake', async () => {
    await seed(['i2v-a']);
    await sql`update follow_brake set not_before = now() + interval '5 seconds'`.execute(db);
    const refused = (await claimNow(db, 'i2v-a', 5, LEASE)) as { retryAfterMs: number };
    expect(refused.retryAfterMs).toBeGreaterThan(4_000);
    expect(refused.retryAfterMs).toBeLessThanOrEqual(5_000);
  });

  it('follows again a task of the record that had stopped, or was never followed', async () => {
    await seed(['i2v-ended']);
    await db
      .updateTable('task_follows')
      .set({ due_at: null, ended: 'not_found', ended_at: new Date() })
      .execute();
    await db
      .insertInto('tasks')
      .values({ id: 'i2v-unfollowed', kind: 'image_to_video', source: 'lookup' })
      .execute();
    expect(await claimNow(db, 'i2v-ended', 10, LEASE)).toEqual({ claim: 1, failures: 0 });
    expect(await claimNow(db, 'i2v-unfollowed', 10, LEASE)).toEqual({ claim: 1, failures: 0 });
    for (const row of await follows()) expect(row).toMatchObject({ ended: null, ended_at: null, claims: 1 });
    // An id the record does not have: asked, with nothing to hold.
    expect(await claimNow(db, 'i2v-nobody', 10, LEASE)).toEqual({ claim: 0, failures: 0 });
    expect(await follows()).toHaveLength(2);
  });
});

describe('writes fenced by the claim', () => {
  it('only the claim that holds a task writes it', async () => {
    await seed(['i2v-a', 'i2v-b', 'i2v-c']);
    const { tasks } = await claimDue(db, 3, 10, LEASE);
    const [a, b, c] = tasks;
    await askAgainIn(db, a!.id, a!.claim + 1, 1_000, 3);
    await finished(db, b!.id, b!.claim + 1);
    await ended(db, c!.id, c!.claim + 1, 'not_found');
    expect((await follows()).map((row) => [row.task_id, row.failures, row.ended])).toEqual([
      ['i2v-a', 0, null],
      ['i2v-b', 0, null],
      ['i2v-c', 0, null],
    ]);
    await askAgainIn(db, a!.id, a!.claim, 1_500.4, 3);
    await finished(db, b!.id, b!.claim);
    await ended(db, c!.id, c!.claim, 'unavailable');
    const [rowA, rowC] = await follows();
    expect(rowA).toMatchObject({ task_id: 'i2v-a', failures: 3 });
    const { rows } = await sql<{ ms: number }>`select extract(epoch from due_at - now()) * 1000 as ms
      from task_follows where task_id = 'i2v-a'`.execute(db);
    expect(Number(rows[0]!.ms)).toBeCloseTo(1_500, -2);
    expect(rowC).toMatchObject({ task_id: 'i2v-c', due_at: null, ended: 'unavailable', failures: 0 });
    expect(rowC!.ended_at).not.toBeNull();
  });
});

describe('brake and followStats', () => {
  it('a shorter brake never shortens a longer one', async () => {
    await brake(db, 5_000);
    const first = (await brakeRow()).not_before;
    await brake(db, 1_000);
    expect((await brakeRow()).not_before).toEqual(first);
    expect((await followStats(db)).brakedUntil).toEqual(first);
  });

  it('counts what is followed and what ended, the oldest followed, no brake once passed, the last error', async () => {
    const old = new Date('2026-01-01T00:00:00Z');
    await seed(['i2v-old'], -1_000, old);
    await seed(['i2v-new', 'i2v-gone']);
    await db
      .updateTable('task_follows')
      .set({ due_at: null, ended: 'not_found' })
      .where('task_id', '=', 'i2v-gone')
      .execute();
    await db
      .updateTable('tasks')
      .set({ created_at: new Date('2025-01-01T00:00:00Z') })
      .where('id', '=', 'i2v-gone')
      .execute();
    await sql`update follow_brake set not_before = now() - interval '1 second'`.execute(db);
    expect(await followStats(db)).toEqual({
      following: 2,
      ended: 1,
      oldestCreatedAt: old,
      brakedUntil: null,
      lastError: null,
    });
    // Half an error (one of its two columns) is none.
    await db.updateTable('follow_brake').set({ last_error_at: new Date() }).execute();
    expect((await followStats(db)).lastError).toBeNull();
    await db
      .updateTable('follow_brake')
      .set({ last_error: JSON.stringify({ kind: 'server' }), last_error_at: null })
      .execute();
    expect((await followStats(db)).lastError).toBeNull();
    await noteError(db, 'i2v-new', { kind: 'server', httpStatus: 500, msg: 'HTTP 500' });
    const { lastError } = await followStats(db);
    expect(lastError).toMatchObject({ kind: 'server', httpStatus: 500, msg: 'HTTP 500', taskId: 'i2v-new' });
    expect(lastError!.at).toBeInstanceOf(Date);
  });
});
