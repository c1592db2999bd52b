// The results back-fill at start reads the last week's succeeded tasks through the index made for it
// (migration 0026), not every task: its condition matches the index's expression and predicate.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { resetTestDatabase } from '../testing/database';
import { LINK_LIFETIME_MS, succeededSince } from './queue';

describe('the results back-fill', () => {
  it('finds the recently succeeded tasks through tasks_succeeded_recent', async () => {
    const { db } = await resetTestDatabase();
    const plan = await db.transaction().execute(async (trx) => {
      // A table this small would be read whole anyway: only whether the index can serve is asked.
      await sql`set local enable_seqscan = off`.execute(trx);
      const { rows } = await sql<{ 'QUERY PLAN': string }>`explain select t.id from tasks t
        where ${succeededSince(new Date(Date.now() - LINK_LIFETIME_MS))}`.execute(trx);
      return rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    // The index bounds the range (an Index Cond on its expression), not only its predicate.
    expect(plan).toMatch(/tasks_succeeded_recent[\s\S]*Index Cond: \(COALESCE\(finished_at, created_at\) >/);
  });
});
