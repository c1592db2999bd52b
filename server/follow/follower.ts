// The server follows every unfinished task in the record to its end, whether or not a browser is
// open: it claims the tasks that are due (server/follow/claims.ts), asks the service about each
// through the Node side's own /v1 (so the proxy adds the token, or the emulator answers, and the
// traffic recorder writes the answer into the record as for any status answer), then schedules the
// next question by the task's age (src/api/core/follow-schedule.ts), backs off after failures,
// brakes every instance after a 429, and stops at a final status or when there is nothing left to
// ask (an id the service does not know, a kind with no status query here).
import { nextPollDelay } from '../../src/api/core/follow-schedule';
import type { TaskType } from '../../src/api/core/rules';
import type { Database, Db } from '../db/database';
import type { FollowEnd } from '../db/schema';
import { networkOutcome, outcomeOf, type FollowOutcome } from './answer';
import {
  askAgainIn,
  brake,
  claimDue,
  claimNow,
  ended,
  finished,
  followStats,
  noteError,
  type ClaimedTask,
  type FollowStats,
} from './claims';

/** The provider's advice after a 429 without Retry-After. */
const RATE_LIMIT_WAIT_MS = 30_000;

export interface FollowerOptions {
  database: Promise<Database>;
  /** The task's status query, sent through the Node side as a browser's would be. */
  ask(kind: TaskType, id: string): Promise<Response>;
  /** Status requests per second for the whole team, every instance together (FOLLOW_RATE_PER_SECOND). */
  ratePerSecond: number;
  /** Status requests in flight in this process; default 8. */
  concurrency?: number;
  /** How long a claimed task is held by this process before another may take it; default 60 s. */
  leaseMs?: number;
  /** The longest an idle follower waits before looking again (other instances add tasks); default 5 s. */
  idleMs?: number;
  /** A task stopped being asked about (the callback inbox takes its callback as the only news). */
  onEnded?(id: string, end: FollowEnd): Promise<void>;
  log?: (line: string) => void;
}

export interface Follower {
  /** Follows until closed. */
  start(): void;
  /** A task became due now (created, or a callback named it): look at once. */
  wake(): void;
  /**
   * Asks the service about one task now, whenever it was due (support's "Check again", a lookup):
   * resolves once its answer is in the record, or to the wait the rate or the service's brake asks for.
   */
  checkNow(
    id: string,
    kind: TaskType,
  ): Promise<{ asked: true; outcome: FollowOutcome } | { asked: false; retryAfterMs: number }>;
  /** Asks every task that is due now, until none is (tests). */
  drain(): Promise<void>;
  stats(): Promise<FollowStats>;
  close(): Promise<void>;
}

/** Writes what the answer means for the task, fenced by its claim. */
async function settleOutcome(
  database: Db,
  task: ClaimedTask,
  outcome: FollowOutcome,
  now: number,
  onEnded: FollowerOptions['onEnded'],
) {
  const ageMs = now - task.createdAt.getTime();
  switch (outcome.type) {
    case 'final':
      return finished(database, task.id, task.claim);
    case 'running':
      return askAgainIn(database, task.id, task.claim, nextPollDelay({ ageMs }) || 0, 0);
    case 'brake': {
      const wait = outcome.waitMs ?? RATE_LIMIT_WAIT_MS;
      await brake(database, wait);
      await noteError(database, task.id, outcome.error);
      return askAgainIn(database, task.id, task.claim, wait, task.failures + 1);
    }
    case 'ended':
      await noteError(database, task.id, outcome.error);
      await ended(database, task.id, task.claim, outcome.end);
      await onEnded?.(task.id, outcome.end);
      return;
    case 'failed': {
      await noteError(database, task.id, outcome.error);
      const failures = task.failures + 1;
      // A refused token or an answer without a status is the console's setup or the service's
      // bug, not the task's: asked again as after a 5xx, never given up.
      const errorKind = outcome.kind === 'network' ? 'network' : 'server';
      const delay = nextPollDelay({ ageMs, errorStreak: failures, errorKind }) || 0;
      return askAgainIn(database, task.id, task.claim, delay, failures);
    }
  }
}

/** Asks the service about a claimed task and writes what the answer means; never throws. */
async function askAndSettle(
  task: ClaimedTask,
  options: Pick<FollowerOptions, 'ask' | 'onEnded'>,
  db: () => Promise<Db>,
  log: (line: string) => void,
): Promise<FollowOutcome> {
  let outcome: FollowOutcome;
  try {
    outcome = await outcomeOf(await options.ask(task.kind, task.id));
  } catch (error) {
    outcome = networkOutcome(error);
  }
  try {
    await settleOutcome(await db(), task, outcome, Date.now(), options.onEnded);
  } catch (error) {
    // The lease runs out and the task is asked again: nothing is lost.
    log(`[follow] task ${task.id}: could not write what its answer means: ${(error as Error).message}`);
  }
  return outcome;
}

/** A task claimed out of turn, with its kind and age from the record (the caller's kind if unrecorded). */
async function claimedTaskOf(
  database: Db,
  id: string,
  kind: TaskType,
  held: Pick<ClaimedTask, 'claim' | 'failures'>,
): Promise<ClaimedTask> {
  const row = await database
    .selectFrom('tasks')
    .select(['kind', 'created_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return {
    id,
    kind: (row?.kind as TaskType | undefined) ?? kind,
    createdAt: row?.created_at ?? new Date(),
    ...held,
  };
}

export function createFollower(options: FollowerOptions): Follower {
  const concurrency = options.concurrency ?? 8;
  const leaseMs = options.leaseMs ?? 60_000;
  const idleMs = options.idleMs ?? 5_000;
  const log = options.log ?? ((line: string) => console.warn(line));
  const inFlight = new Set<Promise<void>>();
  let started = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;
  let looking: Promise<void> | undefined;
  let lookAgain = false;
  const db = async () => (await options.database).db;

  const follow = (task: ClaimedTask) => askAndSettle(task, options, db, log);

  function run(task: ClaimedTask) {
    const running = follow(task).then(
      () => undefined,
      () => undefined,
    );
    void running.finally(() => {
      inFlight.delete(running);
      schedule(0); // nothing once closed
    });
    inFlight.add(running);
  }

  /** Claims what is due and starts it; says when to look next (undefined: when a request finishes). */
  async function look(): Promise<number | undefined> {
    const free = concurrency - inFlight.size;
    // Stryker disable next-line EqualityOperator,ConditionalExpression: at 0 free a claim of 0 tasks takes nothing; the check only saves its query
    if (free <= 0) return undefined; // a finished request looks again
    let claim;
    try {
      claim = await claimDue(await db(), free, options.ratePerSecond, leaseMs);
    } catch (error) {
      if (!closed) log(`[follow] could not claim due tasks: ${(error as Error).message}`);
      return idleMs;
    }
    if (closed) return undefined; // claimed rows go back when their lease runs out
    for (const task of claim.tasks) run(task);
    const wait = claim.nextAt ? claim.nextAt.getTime() - claim.now.getTime() : idleMs;
    return Math.min(idleMs, Math.max(0, wait));
  }

  function schedule(delayMs: number) {
    if (closed || !started) return;
    clearTimeout(timer);
    if (looking) {
      lookAgain = true;
      return;
    }
    timer = setTimeout(() => {
      timer = undefined;
      // The next look is scheduled once this one has ended: scheduled from inside it, it would read
      // as a wake-up during a look and run again at once, round after round.
      looking = look().then((next) => {
        looking = undefined;
        const again = lookAgain;
        lookAgain = false;
        if (again) schedule(0);
        else if (next !== undefined) schedule(next);
      });
    }, delayMs);
    // Stryker disable next-line OptionalChaining: Node's timers always have unref (the ?. is for other runtimes' typings)
    timer.unref?.();
  }

  return {
    start() {
      if (started || closed) return;
      started = true;
      schedule(0);
    },
    wake() {
      schedule(0);
    },
    async checkNow(id, kind) {
      const held = await claimNow(await db(), id, options.ratePerSecond, leaseMs);
      if ('retryAfterMs' in held) return { asked: false, retryAfterMs: held.retryAfterMs };
      const task = await claimedTaskOf(await db(), id, kind, held);
      return { asked: true, outcome: await follow(task) };
    },
    async drain() {
      for (;;) {
        const claim = await claimDue(await db(), concurrency, Number.MAX_SAFE_INTEGER, leaseMs);
        if (!claim.tasks.length) break;
        await Promise.all(claim.tasks.map(follow));
      }
    },
    async stats() {
      return followStats(await db());
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await looking;
      await Promise.allSettled([...inFlight]);
    },
  };
}
