// What the follower's and the webhook sender's tests watch: how often a loop reads its database (once
// per look or round), and one turn of the event loop, after which work the code queued at 0 ms ran.
import type { Database } from '../db/database';

/** A Database whose `db` counts its reads: one per look of the follower, one per round of the sender. */
export function countingReads(db: Database['db']): { database: Database; reads: () => number } {
  let reads = 0;
  const database = {
    get db() {
      reads += 1;
      return db;
    },
  } as Database;
  return { database, reads: () => reads };
}

/** One turn of the event loop: a 0 ms timer queued after the code's own 0 ms timer runs after it. */
export const oneTurn = () => new Promise((resolve) => setTimeout(resolve, 0));
