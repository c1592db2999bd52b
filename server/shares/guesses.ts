// The brake on guessing share tokens: each wrong token (unknown, revoked or expired) a client sends
// is counted in PostgreSQL, per client network and minute, so every instance sees the same count.
// Past SHARE_GUESSES_PER_MINUTE the client's next requests under /s/ answer 429 until the minute
// is over; a right token never counts. One row per client, replaced when its minute has passed.
import { sql } from 'kysely';
import type { Db } from '../db/database';

/** Wrong tokens a client may send in one minute before it is slowed. */
export const SHARE_GUESSES_PER_MINUTE = 20;
const WINDOW_MS = 60_000;

export interface ShareGuesses {
  /** Seconds until the client may try again, or 0 when it is not braked. */
  wait(client: string): Promise<number>;
  /** A wrong token from `client`. */
  miss(client: string): Promise<void>;
}

export function createShareGuesses(db: () => Promise<Db>, now: () => number = Date.now): ShareGuesses {
  const windowStart = () => new Date(Math.floor(now() / WINDOW_MS) * WINDOW_MS);
  return {
    async wait(client) {
      const start = windowStart();
      const row = await (
        await db()
      )
        .selectFrom('share_guesses')
        .select(['misses', 'window_start'])
        .where('client', '=', client)
        .executeTakeFirst();
      if (!row || row.window_start.getTime() !== start.getTime()) return 0;
      if (row.misses < SHARE_GUESSES_PER_MINUTE) return 0;
      return Math.max(1, Math.ceil((start.getTime() + WINDOW_MS - now()) / 1000));
    },
    async miss(client) {
      const start = windowStart();
      const handle = await db();
      await handle
        .insertInto('share_guesses')
        .values({ client, window_start: start, misses: 1 })
        .onConflict((oc) =>
          oc.column('client').doUpdateSet({
            misses: sql`case when share_guesses.window_start = ${start} then share_guesses.misses + 1 else 1 end`,
            window_start: start,
          }),
        )
        .execute();
      // Rows of clients gone quiet: at most one minute's worth of guessers is kept.
      await handle
        .deleteFrom('share_guesses')
        .where('window_start', '<', new Date(start.getTime() - WINDOW_MS))
        .execute();
    },
  };
}
