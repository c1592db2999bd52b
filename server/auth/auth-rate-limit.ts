// A small brake on password guessing: after a few failures from one client within a window, the
// sign-in form answers 429 until the oldest failure leaves the window; and after many failures from
// everyone together, for everyone, so that clients with many addresses (a /48 holds 65,536 /64s,
// each a fresh bucket) are braked too. The failures are rows in the database, so every instance on
// one PostgreSQL counts the same ones: N instances allow the rule once, not N times. The rows are
// bounded by the overall brake (no one may fail once it holds) and deleted as they leave the window.
import { sql } from 'kysely';
import type { Database } from '../db/database';

/** Failed sign-ins from all clients together within the window before everyone waits (LOGIN_FAILURES_TOTAL). */
export const DEFAULT_LOGIN_FAILURES_TOTAL = 100;

export class LoginRateLimiter {
  private warned = false;

  constructor(
    private readonly database: Promise<Database>,
    private readonly maxFailures: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxTotal: number = DEFAULT_LOGIN_FAILURES_TOTAL,
  ) {}

  /**
   * Seconds until fewer than `max` failures (of `client`, or of everyone when null) are within the
   * window: the `max`-th newest one has to leave it. 0 when there are fewer already.
   */
  private async wait(client: string | null, max: number): Promise<number> {
    const { db } = await this.database;
    const now = this.now();
    const { rows } = await sql<{ at: number }>`select at from sign_in_failures
      where at > ${now - this.windowMs} ${client === null ? sql`` : sql`and client = ${client}`}
      order by at desc offset ${Math.max(0, max - 1)} limit 1`.execute(db);
    const at = rows[0]?.at;
    return at === undefined ? 0 : Math.max(1, Math.ceil((at + this.windowMs - now) / 1000));
  }

  private async failuresInWindow(): Promise<number> {
    const { db } = await this.database;
    const row = await db
      .selectFrom('sign_in_failures')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('at', '>', this.now() - this.windowMs)
      .executeTakeFirst();
    // Stryker disable next-line OptionalChaining: a count always answers one row
    return Number(row?.count ?? 0);
  }

  /** 0 when the client may try now. */
  async retryAfterSeconds(key: string): Promise<number> {
    const overall = await this.wait(null, this.maxTotal);
    if (overall > 0 && !this.warned) {
      // Said once per episode (per instance): the operator should know sign-in is paused for everyone.
      this.warned = true;
      console.warn(
        `[sign-in] ${await this.failuresInWindow()} failed sign-ins within ${Math.round(this.windowMs / 60_000)} minutes from all clients together: sign-in answers 429 to everyone for ${overall} s`,
      );
    } else if (overall === 0) this.warned = false;
    return Math.max(await this.wait(key, this.maxFailures), overall);
  }

  async fail(key: string): Promise<void> {
    const { db } = await this.database;
    const now = this.now();
    await db.insertInto('sign_in_failures').values({ client: key, at: now }).execute();
    // Failures older than the window brake no one: dropped here, where they are made.
    await db
      .deleteFrom('sign_in_failures')
      .where('at', '<=', now - this.windowMs)
      .execute();
  }

  /** The client signed in: its own failures stop braking it, and still count for everyone. */
  async reset(key: string): Promise<void> {
    const { db } = await this.database;
    await db.updateTable('sign_in_failures').set({ client: null }).where('client', '=', key).execute();
  }
}
