// Spending limits: an admin sets, per person and for the team, how many tasks, images and video
// minutes may be created per UTC day and per UTC month. What was spent is counted from the team's
// record (the tasks table, by creator_id) with SQL; a creation being made counts as a hold from its
// check until its tasks are recorded, so two parallel submissions cannot both take the last unit:
// the check and the hold happen in one transaction under an advisory lock (the team's when the team
// has limits, else the person's).
import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import type { Db } from '../db/database';
import type { SpendingLimitsTable } from '../db/schema';
import {
  LIMIT_MEASURES,
  LIMIT_PERIODS,
  type LimitMeasure,
  type LimitPeriod,
  type LimitScope,
  type LimitStatus,
  type LimitRefusal,
} from '../../src/api/limits';
import { costOf, DEFAULT_SECONDS, type CreationCost as Cost } from '../../src/api/creation-cost';

export { LIMIT_MEASURES, LIMIT_PERIODS, type LimitMeasure, type LimitPeriod, type LimitScope };
// The cost of a creation is the console's to say too (before a re-run): it lives with the limits' words.
export { costOf, DEFAULT_SECONDS };

/** Advisory lock class of the limit checks (the callbacks' lock is another number). */
export const LIMITS_LOCK = 7_310_010;
/** A hold older than this belongs to a creation that never finished (a crash): it no longer counts. */
const HOLD_TTL_MS = 10 * 60_000;
export type LimitRow = Selectable<SpendingLimitsTable>;

/**
 * Why a translation's language list cannot be taken, or undefined when it can: at most as many
 * languages as the service offers (`offered`, its own list), none twice (compared trimmed and
 * without case: the service would make a second task of the same language). Judged before the
 * limits, so a list is never charged for more than it can make.
 */
export function translationListProblem(body: unknown, offered: readonly string[]): string | undefined {
  const list = (body && typeof body === 'object' ? (body as Record<string, unknown>) : {}).target_languages;
  if (!Array.isArray(list)) return undefined; // the service's own validation answers that
  if (list.length > offered.length)
    return `target_languages: at most ${offered.length} languages (the service offers ${offered.length}); ${list.length} were sent`;
  const seen = new Set<string>();
  for (const item of list) {
    if (typeof item !== 'string') continue;
    const key = item.trim().toLowerCase();
    if (seen.has(key))
      return `target_languages: ${item.trim()} is listed twice; each language makes one task`;
    seen.add(key);
  }
  return undefined;
}

/** Start of the UTC day or month holding `now`, and the start of the next one. */
export function windowOf(period: LimitPeriod, now: number): { start: Date; end: Date } {
  const d = new Date(now);
  if (period === 'day') {
    const start = Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
    return { start: new Date(start), end: new Date(start + 24 * 3600_000) };
  }
  return {
    start: new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)),
    end: new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)),
  };
}

interface Usage {
  tasks: number;
  images: number;
  videoSeconds: number;
}

/**
 * Tasks, images and seconds of video created since `start`, by `userId` (undefined: the whole team),
 * holds of creations under way included. Images are image generation tasks (one per image asked
 * for); seconds are each task's `video_seconds_charged`, computed once when its row is written
 * (migration 0026): image to video's asked-for duration (the answer's when it gave one, its model's
 * default when it named none) and a translation's once the service reported its duration.
 */
async function usageSince(db: Db, start: Date, userId: string | undefined, now: number): Promise<Usage> {
  const who = userId === undefined ? sql`true` : sql`creator_id = ${userId}`;
  const holdWho = userId === undefined ? sql`true` : sql`user_id = ${userId}`;
  const { rows } = await sql<{ tasks: unknown; images: unknown; seconds: unknown }>`
    select
      (select count(*) from tasks where source = 'created' and ${who} and created_at >= ${start})
        + (select coalesce(sum(tasks), 0) from limit_holds where ${holdWho} and created_at >= ${new Date(now - HOLD_TTL_MS)})
        as tasks,
      (select count(*) from tasks where source = 'created' and kind = 'image_generate' and ${who} and created_at >= ${start})
        + (select coalesce(sum(images), 0) from limit_holds where ${holdWho} and created_at >= ${new Date(now - HOLD_TTL_MS)})
        as images,
      (select coalesce(sum(video_seconds_charged), 0)
        from tasks where source = 'created' and kind in ('image_to_video', 'video_translate') and ${who} and created_at >= ${start})
        + (select coalesce(sum(video_seconds), 0) from limit_holds where ${holdWho} and created_at >= ${new Date(now - HOLD_TTL_MS)})
        as seconds`.execute(db);
  const row = rows[0]!;
  return { tasks: Number(row.tasks), images: Number(row.images), videoSeconds: Number(row.seconds) };
}

/** The limits that apply to `userId`: the team's and the person's own. */
async function limitsFor(db: Db, userId: string): Promise<LimitRow[]> {
  return db
    .selectFrom('spending_limits')
    .selectAll()
    .where((eb) =>
      eb.or([eb('scope', '=', 'team'), eb.and([eb('scope', '=', 'person'), eb('user_id', '=', userId)])]),
    )
    .execute();
}

const usedOf = (usage: Usage, measure: LimitMeasure) =>
  measure === 'tasks' ? usage.tasks : measure === 'images' ? usage.images : usage.videoSeconds / 60;

const costIn = (cost: Cost, measure: LimitMeasure) =>
  measure === 'tasks' ? cost.tasks : measure === 'images' ? cost.images : cost.videoSeconds / 60;

/** Whether a creation of `cost` is measured by `measure` at all (a text-to-image makes no video). */
const touches = (cost: Cost, measure: LimitMeasure) =>
  costIn(cost, measure) > 0 || (measure === 'video_minutes' && cost.videoUnknown);

const round1 = (n: number) => Math.round(n * 10) / 10;
function unitOf(measure: LimitMeasure, n: number): string {
  const unit = measure === 'tasks' ? 'task' : measure === 'images' ? 'image' : 'video minute';
  return n === 1 ? unit : `${unit}s`;
}

/** "resets at 00:00 UTC" (a day) or "resets on 1 December at 00:00 UTC" (a month). */
function resetsText(period: LimitPeriod, end: Date): string {
  return period === 'day'
    ? 'resets at 00:00 UTC'
    : `resets on ${end.getUTCDate()} ${end.toLocaleString('en-GB', { month: 'long', timeZone: 'UTC' })} at 00:00 UTC`;
}

function statusOf(row: LimitRow, usage: Usage, now: number): LimitStatus {
  const { end } = windowOf(row.period, now);
  const used = round1(usedOf(usage, row.measure));
  return {
    scope: row.scope,
    measure: row.measure,
    period: row.period,
    max: row.max_amount,
    used,
    remaining: Math.max(0, round1(row.max_amount - used)),
    resetsAt: end.toISOString(),
  };
}

/** What applies to `userId` now, the team's limits and the person's, each with what is used. */
export async function limitStatuses(db: Db, userId: string, now: number): Promise<LimitStatus[]> {
  const rows = await limitsFor(db, userId);
  const cache = new Map<string, Promise<Usage>>();
  const usage = (scope: LimitScope, period: LimitPeriod) => {
    const key = `${scope}:${period}`;
    // Stryker disable next-line ConditionalExpression: counting again gives the same figures (the cache only saves queries)
    if (!cache.has(key))
      cache.set(key, usageSince(db, windowOf(period, now).start, scope === 'team' ? undefined : userId, now));
    return cache.get(key)!;
  };
  const statuses: LimitStatus[] = [];
  for (const row of sortLimits(rows)) statuses.push(statusOf(row, await usage(row.scope, row.period), now));
  return statuses;
}

function sortLimits<T extends { scope: string; measure: LimitMeasure; period: LimitPeriod }>(rows: T[]): T[] {
  const rank = (row: T) =>
    (row.scope === 'person' ? 0 : 100) +
    LIMIT_MEASURES.indexOf(row.measure) * 10 +
    LIMIT_PERIODS.indexOf(row.period);
  return [...rows].sort((a, b) => rank(a) - rank(b));
}

/** The sentence of a refusal: "You have used 50 of 50 images today; resets at 00:00 UTC". */
function refusalMessage(status: LimitStatus, cost: number): string {
  const who = status.scope === 'team' ? 'The team has' : 'You have';
  const when = status.period === 'day' ? 'today' : 'this month';
  // Under the limit, only an amount asked for can refuse (nothing asked is refused once it is reached).
  const asked = status.used < status.max ? ` and this asks for ${round1(cost)} more` : '';
  const resets = resetsText(status.period, new Date(status.resetsAt));
  return `${who} used ${status.used} of ${status.max} ${unitOf(status.measure, status.max)} ${when}${asked}; ${resets}`;
}

type Admission = { ok: true; release: () => Promise<void> } | { ok: false; refusal: LimitRefusal };

/**
 * Checks a creation of `cost` by `userId` against every limit that applies and, when it fits, holds
 * its amounts until `release` (called once its tasks are recorded or it failed).
 */
export async function admit(db: Db, userId: string, cost: Cost, now: number): Promise<Admission> {
  const outcome = await db.transaction().execute(async (trx) => {
    const rows = await limitsFor(trx, userId);
    if (!rows.length) return { ok: true as const, hold: undefined };
    const teamWide = rows.some((row) => row.scope === 'team');
    // One lock for everyone when the team has limits (its count is everyone's); else the person's.
    if (teamWide) await sql`select pg_advisory_xact_lock(${LIMITS_LOCK}, 0)`.execute(trx);
    else await sql`select pg_advisory_xact_lock(${LIMITS_LOCK}, hashtext(${userId}))`.execute(trx);
    const cache = new Map<string, Usage>();
    for (const row of sortLimits(rows)) {
      if (!touches(cost, row.measure)) continue;
      const key = `${row.scope}:${row.period}`;
      let usage = cache.get(key);
      // Stryker disable next-line ConditionalExpression: counting again under the same lock gives figures as good (the cache only saves queries)
      if (!usage) {
        usage = await usageSince(
          trx,
          windowOf(row.period, now).start,
          row.scope === 'team' ? undefined : userId,
          now,
        );
        cache.set(key, usage);
      }
      const status = statusOf(row, usage, now);
      const asked = costIn(cost, row.measure);
      const used = usedOf(usage, row.measure);
      // Stryker disable next-line EqualityOperator: a sum lands exactly on max + 1e-9 never (the 1e-9 absorbs float error)
      const over = asked > 0 ? used + asked > row.max_amount + 1e-9 : used >= row.max_amount;
      if (over)
        return {
          ok: false as const,
          refusal: { ...status, asked: round1(asked), message: refusalMessage(status, asked) },
        };
    }
    const hold = randomUUID();
    await trx
      .insertInto('limit_holds')
      .values({
        id: hold,
        user_id: userId,
        tasks: cost.tasks,
        images: cost.images,
        video_seconds: cost.videoSeconds,
        created_at: new Date(now),
      })
      .execute();
    return { ok: true as const, hold };
  });
  if (!outcome.ok) return outcome;
  const hold = outcome.hold;
  return {
    ok: true,
    release: async () => {
      if (!hold) return;
      await db
        .deleteFrom('limit_holds')
        .where((eb) => eb.or([eb('id', '=', hold), eb('created_at', '<', new Date(now - HOLD_TTL_MS))]))
        .execute();
    },
  };
}

export interface LimitInput {
  measure: LimitMeasure;
  period: LimitPeriod;
  /** null: no limit. */
  max: number | null;
}

/** Replaces the limits of one scope (the team, or one person); returns the rows before and after. */
export async function setLimits(
  db: Db,
  scope: LimitScope,
  userId: string,
  limits: LimitInput[],
  by: string | null,
): Promise<{ before: LimitRow[]; after: LimitRow[] }> {
  const owner = scope === 'team' ? '' : userId;
  return db.transaction().execute(async (trx) => {
    const mine = () =>
      trx
        .selectFrom('spending_limits')
        .selectAll()
        .where('scope', '=', scope)
        .where('user_id', '=', owner)
        .execute();
    const before = await mine();
    await trx.deleteFrom('spending_limits').where('scope', '=', scope).where('user_id', '=', owner).execute();
    const rows = limits.filter((limit) => limit.max !== null);
    if (rows.length)
      await trx
        .insertInto('spending_limits')
        .values(
          rows.map((limit) => ({
            scope,
            user_id: owner,
            measure: limit.measure,
            period: limit.period,
            max_amount: limit.max!,
            updated_by: by,
          })),
        )
        .execute();
    return { before, after: await mine() };
  });
}

/** Every configured limit, for the admin's editor. */
export async function allLimits(db: Db): Promise<LimitRow[]> {
  return sortLimits(await db.selectFrom('spending_limits').selectAll().execute());
}
