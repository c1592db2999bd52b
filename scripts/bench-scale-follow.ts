// The follower's claim at scale (a part of scripts/bench-scale.ts): after a size's other calls are
// timed, FOLLOWED of its newest tasks are made running and followed, as the console holds them, and
// `claimDue` is timed as the follower calls it. Its plan (EXPLAIN ANALYZE of the claim's statement)
// is printed so a plan that grows with the table shows.
import { sql } from 'kysely';
import type { Database } from '../server/db/database';
import { claimDue } from '../server/follow/claims';

type Db = Database['db'];

/** Running tasks the follower asks about, at every size. */
export const FOLLOWED = 50_000;
/** The follower's default lease (server/follow/follower.ts). */
const LEASE_MS = 60_000;
/**
 * A team rate no claim reaches: with the default, the rate's one-second window fills after a few
 * claims and the next ones end before their statement, which would time the brake, not the claim.
 */
const UNBOUND_RATE = 1_000_000_000;

/**
 * The newest FOLLOWED of every second task (fewer in a smaller seed) (the seed's running ones, and more at smaller sizes)
 * running, each with its `task_follows` row as the recorder and the follower keep it: a third due
 * in the last 30 s (not yet asked), the rest due over the next minute (asked again after a poll).
 * The writes go through the triggers, as the console's do.
 */
export async function followRunning(db: Db, size: number): Promise<void> {
  const last = Math.min(2 * FOLLOWED, size);
  await sql`update tasks set status = 'PROCESSING', result = jsonb_build_object('status', 'PROCESSING'),
      finished_at = null
    where id in (select 'scale-' || g from generate_series(2, ${last}, 2) g)
      and status <> 'PROCESSING'`.execute(db);
  await sql`insert into task_follows (task_id, due_at)
    select 'scale-' || g, now() + make_interval(secs => (g / 2) % 90 - 30)
    from generate_series(2, ${last}, 2) g
    on conflict (task_id) do update set due_at = excluded.due_at`.execute(db);
  await sql`vacuum analyze task_follows`.execute(db);
}

/** The claims to time: the follower claims as many as it has free request slots (8, or 1 as one ends). */
export function claimCalls(db: Db): [string, () => Promise<unknown>][] {
  return [
    [
      `follower's claim of 8 due tasks (${FOLLOWED / 1000}k followed)`,
      () => claimDue(db, 8, UNBOUND_RATE, LEASE_MS),
    ],
    [
      `follower's claim of 1 due task (${FOLLOWED / 1000}k followed)`,
      () => claimDue(db, 1, UNBOUND_RATE, LEASE_MS),
    ],
  ];
}

/** EXPLAIN (ANALYZE, BUFFERS) of the claim's statement as claimDue sends it, rolled back. */
export async function explainClaim(db: Db): Promise<string[]> {
  let plan: string[] = [];
  await db
    .transaction()
    .execute(async (trx) => {
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain (analyze, buffers, costs off)
        update task_follows f set due_at = now() + interval '60 seconds', claims = f.claims + 1
        from tasks t
        where t.id = f.task_id and f.task_id in (
          select task_id from task_follows where due_at <= now() order by due_at limit 8
          for update skip locked)
        returning f.task_id, f.claims, f.failures, t.kind, t.created_at`.execute(trx);
      plan = rows.map((row) => row['QUERY PLAN']);
      throw new RolledBack();
    })
    .catch((error: unknown) => {
      if (!(error instanceof RolledBack)) throw error;
    });
  return plan;
}

class RolledBack extends Error {}
