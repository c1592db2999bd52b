// The search's time limit on a real PostgreSQL server, where it cancels the statement
// (statement_timeout; PGlite has no such thing): a tab's count that runs past it is null, a page
// that does is cut short and goes on from the last row it looked at. A hook slows the index-driven
// query down (pg_sleep) so that the limit is what ends it.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/database';
import { usePostgresInstances } from '../testing/postgres-instances';
import { listTasks } from './list';
import { countTasks } from './list-counts';
import type { SearchOptions } from './list-time-limit';

const { freshDatabase, instance } = usePostgresInstances('search-pg-secret-0123456789');

async function seeded(): Promise<{ db: Db; close: () => Promise<void> }> {
  const app = instance(freshDatabase());
  const { db } = await app.database;
  // Ana's tasks all succeeded, Bo's all failed: searching "ana" leaves Failed empty.
  await sql`insert into tasks (id, kind, source, prompt, creator, status, created_at)
    select 'task-' || lpad(g::text, 5, '0'), 'image_generate', 'created', 'misty fox',
      (array['Ana','Bo'])[1 + g % 2], (array['SUCCEEDED','FAILED'])[1 + g % 2],
      timestamptz '2026-01-01' - make_interval(secs => g)
    from generate_series(1, 4000) g`.execute(db);
  return { db, close: () => app.close() };
}

const slow: SearchOptions = {
  timeLimitMs: 100,
  // Long enough that only a cancelled statement ends in time, whatever the machine's load.
  beforeIndexQuery: (trx) => sql`select pg_sleep(20)`.execute(trx),
};

describe('the search time limit on PostgreSQL', () => {
  it('makes a count it cancels null, and leaves the others exact', async () => {
    const { db, close } = await seeded();
    try {
      // One page read first, then each tab through its trigram index. The exact counts get a limit no
      // loaded machine reaches: only the slowed-down count below may be cancelled.
      const bounds = { firstPages: 1, samplePages: 1, timeLimitMs: 60_000 };
      expect(await countTasks(db, { q: 'ana' }, bounds)).toEqual({
        counts: { all: 1000, running: 0, succeeded: 1000, failed: 0 },
        capped: true,
        unknown: false,
      });
      const started = performance.now();
      const cut = await countTasks(db, { q: 'ana' }, { firstPages: 1, samplePages: 1, ...slow });
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(cut).toEqual({
        counts: { all: null, running: null, succeeded: null, failed: null },
        capped: false,
        unknown: true,
      });
      // The connections the cancelled statements ran on are fine afterwards.
      expect((await countTasks(db, { q: 'ana' }, bounds)).counts.failed).toBe(0);
    } finally {
      await close();
    }
  });

  it('cuts a page short, and the next page goes on from there', async () => {
    const { db, close } = await seeded();
    try {
      const filter = { tab: 'failed', q: 'ana' } as const;
      const started = performance.now();
      const first = await listTasks(db, filter, { limit: 10 }, { ...slow, probeRows: 1500 });
      expect(performance.now() - started).toBeLessThan(10_000);
      expect(first).toMatchObject({ items: [], cutShort: true });
      // 1,500 tasks looked at: the next page starts after the 1,500th.
      const lookedAt = await db
        .selectFrom('tasks')
        .select(['id', 'created_at'])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .offset(1499)
        .limit(1)
        .executeTakeFirstOrThrow();
      expect(first.nextCursor).toBe(`${lookedAt.created_at.getTime()}.${lookedAt.id}`);
      const next = await listTasks(
        db,
        filter,
        { cursor: first.nextCursor!, limit: 10 },
        { probeRows: 1500, timeLimitMs: 60_000 },
      );
      expect(next).toEqual({ items: [], nextCursor: null });
    } finally {
      await close();
    }
  });
});
