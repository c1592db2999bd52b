// A per-sender brake for the callback inbox: a token bucket per client network (IPv4 address or
// IPv6 /64). The service delivers callbacks as tasks finish, in bursts at most; a sender that keeps
// going far beyond that is flooding the log, and gets 429 with Retry-After (a real service retries).
//
// The buckets are rows in the database, so every instance on one PostgreSQL draws from the same
// one: N instances allow the rule once, not N times. So that the inbox's throughput does not pay a
// query per callback, an instance takes tokens a lease at a time (a hundredth of the burst, at
// least one) and hands them out from memory for at most a second; a lease's unused tokens are
// simply not used, so the leases can only make the brake stricter, never looser.
import { sql } from 'kysely';
import type { Database } from '../db/database';

interface SenderLimitOptions {
  database: Promise<Database>;
  /** Sustained callbacks per second per sender; 0 turns the brake off. */
  perSecond: number;
  /** How many may arrive at once before the brake applies. */
  burst: number;
  now?: () => number;
}

export interface SenderLimit {
  /** 0 when the callback may be taken now, else the seconds to wait. */
  take(sender: string): Promise<number>;
}

/** How long an instance hands out a lease's tokens before it asks the shared bucket again. */
export const LEASE_MS = 1000;
/** Senders with a lease in this instance's memory at most (the rest ask the database each time). */
const MAX_LEASES = 10_000;

interface Lease {
  left: number;
  until: number;
}

export function createSenderLimit({
  database,
  perSecond,
  burst,
  now = Date.now,
}: SenderLimitOptions): SenderLimit {
  const leaseSize = Math.max(1, Math.floor(burst / 100));
  /** Milliseconds after which an untouched bucket is full again: its row says nothing any more. */
  const refillMs = Math.ceil((burst / Math.max(perSecond, Number.MIN_VALUE)) * 1000);
  const leases = new Map<string, Lease>();
  /** One ask of the database per sender at a time: callbacks arriving meanwhile wait for it. */
  const asking = new Map<string, Promise<number>>();
  let prunedAt = -Infinity;

  async function ask(sender: string, t: number): Promise<{ granted: number; tokens: number }> {
    const { db } = await database;
    // The bucket refilled for the time since its last ask (never backwards, whatever the clocks of
    // the instances say), then as many tokens as the lease wants and it holds, whole ones only.
    const refilled = sql`least(${burst}::float8, s.tokens + greatest(0, ${t}::bigint - s.at) / 1000.0 * ${perSecond}::float8)`;
    const grant = sql`least(${leaseSize}, floor(${refilled}))::int`;
    const firstGrant = Math.min(leaseSize, Math.floor(burst));
    const { rows } = await sql<{ granted: number; tokens: number }>`
      insert into callback_senders as s (sender, tokens, at, granted)
      values (${sender}, ${burst - firstGrant}, ${t}, ${firstGrant})
      on conflict (sender) do update set
        granted = ${grant},
        tokens = ${refilled} - ${grant},
        at = greatest(s.at, ${t}::bigint)
      returning granted, tokens`.execute(db);
    if (t - prunedAt >= refillMs) {
      prunedAt = t;
      await db
        .deleteFrom('callback_senders')
        .where('at', '<=', t - refillMs)
        .execute();
    }
    return rows[0] ?? { granted: 0, tokens: 0 };
  }

  /**
   * Waits for (or starts) the one ask of `sender`: 0 when it brought a lease (whose tokens may be
   * gone by the time the caller looks), else the seconds to wait, for every caller that waited.
   */
  function renew(sender: string): Promise<number> {
    const pending = asking.get(sender);
    if (pending) return pending;
    const done = (async () => {
      try {
        const t = now();
        const { granted, tokens } = await ask(sender, t);
        if (granted === 0) return Math.max(1, Math.ceil((1 - tokens) / perSecond));
        // A bound on memory under a flood from many senders: a lease forgotten is only a lease unused.
        if (leases.size >= MAX_LEASES) leases.clear();
        leases.set(sender, { left: granted, until: t + LEASE_MS });
        return 0;
      } finally {
        asking.delete(sender);
      }
    })();
    asking.set(sender, done);
    return done;
  }

  function fromLease(sender: string): boolean {
    const lease = leases.get(sender);
    if (!lease || lease.until <= now() || lease.left < 1) {
      leases.delete(sender);
      return false;
    }
    lease.left -= 1;
    return true;
  }

  return {
    async take(sender) {
      if (perSecond <= 0) return 0;
      // Callbacks that waited for another's ask may find its lease spent: they ask again. Each ask
      // takes tokens from the bucket or answers everyone waiting, so this ends.
      for (;;) {
        if (fromLease(sender)) return 0;
        const wait = await renew(sender);
        if (wait > 0) return wait;
      }
    },
  };
}
