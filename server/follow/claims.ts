// The follower's SQL: claiming due tasks under the team's request rate and the service's brake, and
// writing back what an answer means for each. Every instance runs the same statements on one
// database, so the rate, the brake and each task's lease hold across instances: the brake row is
// locked for the length of a claim (a few milliseconds), and a claimed task's `due_at` moves a lease
// ahead, so no other instance takes it until its answer is written or the lease runs out (a crash).
import { sql } from 'kysely';
import type { TaskType } from '../../src/api/core/rules';
import type { Db } from '../db/database';
import type { FollowEnd } from '../db/schema';
import type { FollowError } from './answer';

/** The brake row, locked for the claim's transaction: no other claim runs until it commits. */
async function lockBrake(trx: Db) {
  const { rows } = await sql<{ now: Date; not_before: Date; window_start: Date; window_used: number }>`
    select now() as now, not_before, window_start, window_used from follow_brake where id = 1 for update`.execute(
    trx,
  );
  return rows[0]!;
}

export interface ClaimedTask {
  id: string;
  kind: TaskType;
  createdAt: Date;
  /** The claim's number: only the claim that holds it may write the task's row (the fence). */
  claim: number;
  /** Failed status requests in a row before this one. */
  failures: number;
}

export interface Claim {
  tasks: ClaimedTask[];
  /** The database's clock when the claim was made. */
  now: Date;
  /** When to look again (no task is due before it, or the rate or the brake allow none before it). */
  nextAt: Date | undefined;
}

/**
 * Claims up to `want` due tasks, as many as the team's rate (`perSecond`, all instances together)
 * and the brake allow now; each is leased for `leaseMs`.
 */
export async function claimDue(db: Db, want: number, perSecond: number, leaseMs: number): Promise<Claim> {
  return db.transaction().execute(async (trx) => {
    const brake = await lockBrake(trx);
    const now = brake.now;
    if (brake.not_before > now) return { tasks: [], now, nextAt: brake.not_before };
    const windowEnd = new Date(brake.window_start.getTime() + 1000);
    const sameWindow = windowEnd > now;
    const used = sameWindow ? brake.window_used : 0;
    const allowed = Math.max(0, Math.min(want, perSecond - used));
    if (allowed === 0) return { tasks: [], now, nextAt: sameWindow ? windowEnd : now };
    const claimed = await sql<{
      task_id: string;
      claims: number;
      failures: number;
      kind: TaskType;
      created_at: Date;
    }>`
      update task_follows f set due_at = now() + ${`${leaseMs} milliseconds`}::interval, claims = f.claims + 1
      from tasks t
      where t.id = f.task_id and f.task_id in (
        select task_id from task_follows where due_at <= now() order by due_at limit ${allowed}
        for update skip locked)
      returning f.task_id, f.claims, f.failures, t.kind, t.created_at`.execute(trx);
    const tasks = claimed.rows.map((row) => ({
      id: row.task_id,
      kind: row.kind,
      createdAt: row.created_at,
      claim: row.claims,
      failures: row.failures,
    }));
    if (tasks.length)
      await trx
        .updateTable('follow_brake')
        .set(
          sameWindow
            ? { window_used: used + tasks.length }
            : { window_start: now, window_used: tasks.length },
        )
        .where('id', '=', 1)
        .execute();
    let nextAt: Date | undefined;
    if (tasks.length === allowed) nextAt = allowed < want ? windowEnd : now;
    else {
      const next = await trx
        .selectFrom('task_follows')
        .select((eb) => eb.fn.min('due_at').as('due'))
        .where('due_at', 'is not', null)
        .executeTakeFirstOrThrow(); // an aggregate always has its one row
      nextAt = next.due ?? undefined;
    }
    return { tasks, now, nextAt };
  });
}

/**
 * Claims one task now, whenever it is due (support's "Check again", a lookup), under the same rate
 * and brake: `retryAfterMs` when they allow none now. A task being asked elsewhere is waited for.
 * A task that had stopped being asked (not found) is asked again.
 */
export async function claimNow(
  db: Db,
  id: string,
  perSecond: number,
  leaseMs: number,
): Promise<{ claim: number; failures: number } | { retryAfterMs: number }> {
  return db.transaction().execute(async (trx) => {
    const brake = await lockBrake(trx);
    const now = brake.now.getTime();
    if (brake.not_before.getTime() > now) return { retryAfterMs: brake.not_before.getTime() - now };
    const windowEnd = brake.window_start.getTime() + 1000;
    const sameWindow = windowEnd > now;
    if (sameWindow && brake.window_used >= perSecond) return { retryAfterMs: windowEnd - now };
    // A task of the record is followed again from this answer on; an id it does not have (a lookup)
    // has no row to hold: its answer, if the service knows it, adds the task (server/tasks/recorder.ts).
    await sql`insert into task_follows (task_id) select id from tasks where id = ${id}
      on conflict (task_id) do nothing`.execute(trx);
    const row = await sql<{ claims: number; failures: number }>`
      update task_follows set due_at = now() + ${`${leaseMs} milliseconds`}::interval, claims = claims + 1,
        ended = null, ended_at = null
      where task_id = ${id} returning claims, failures`.execute(trx);
    await trx
      .updateTable('follow_brake')
      .set(sameWindow ? { window_used: brake.window_used + 1 } : { window_start: brake.now, window_used: 1 })
      .where('id', '=', 1)
      .execute();
    return { claim: row.rows[0]?.claims ?? 0, failures: row.rows[0]?.failures ?? 0 };
  });
}

/** The fence: only the claim that holds the row writes it. */
const heldBy = (id: string, claim: number) => sql<boolean>`task_id = ${id} and claims = ${claim}`;

/** Asked again in `delayMs`, with `failures` failed requests in a row. */
export async function askAgainIn(db: Db, id: string, claim: number, delayMs: number, failures: number) {
  await sql`update task_follows set due_at = now() + ${`${Math.round(delayMs)} milliseconds`}::interval,
    failures = ${failures} where ${heldBy(id, claim)}`.execute(db);
}

/** Its status is final: the task is no longer followed. */
export async function finished(db: Db, id: string, claim: number) {
  await sql`delete from task_follows where ${heldBy(id, claim)}`.execute(db);
}

/** Not asked again: the service does not know the id, or this backend has no status query for its kind. */
export async function ended(db: Db, id: string, claim: number, end: FollowEnd) {
  await sql`update task_follows set due_at = null, ended = ${end}, ended_at = now(), failures = 0
    where ${heldBy(id, claim)}`.execute(db);
}

/** The service asked everyone to wait: no instance asks before `waitMs` from now. */
export async function brake(db: Db, waitMs: number) {
  await sql`update follow_brake set not_before = greatest(not_before, now() + ${`${Math.round(waitMs)} milliseconds`}::interval)
    where id = 1`.execute(db);
}

/** The last thing that went wrong with a status request, for /healthz and the admin's screen. */
export async function noteError(db: Db, taskId: string, error: FollowError) {
  await db
    .updateTable('follow_brake')
    .set({ last_error: JSON.stringify({ ...error, taskId }), last_error_at: sql<Date>`now()` })
    .where('id', '=', 1)
    .execute();
}

export interface FollowStats {
  /** Tasks being asked about. */
  following: number;
  /** Tasks no longer asked about (not found, or no status query for their kind). */
  ended: number;
  /** When the oldest followed task was created, if any. */
  oldestCreatedAt: Date | null;
  /** No status request before this, when the service asked everyone to wait. */
  brakedUntil: Date | null;
  lastError: (FollowError & { taskId: string; at: Date }) | null;
}

export async function followStats(db: Db): Promise<FollowStats> {
  const { rows } = await sql<{
    following: number;
    ended: number;
    oldest: Date | null;
    not_before: Date;
    now: Date;
    last_error: (FollowError & { taskId: string }) | null;
    last_error_at: Date | null;
  }>`
    select
      (select count(*)::int from task_follows where due_at is not null) as following,
      (select count(*)::int from task_follows where due_at is null) as ended,
      (select min(t.created_at) from task_follows f join tasks t on t.id = f.task_id where f.due_at is not null) as oldest,
      b.not_before, now() as now, b.last_error, b.last_error_at
    from follow_brake b where b.id = 1`.execute(db);
  const row = rows[0]!;
  return {
    following: row.following,
    ended: row.ended,
    oldestCreatedAt: row.oldest,
    brakedUntil: row.not_before > row.now ? row.not_before : null,
    lastError: row.last_error && row.last_error_at ? { ...row.last_error, at: row.last_error_at } : null,
  };
}
