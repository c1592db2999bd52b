// The team record's bulk paths on a real PostgreSQL server: the tab counts' migration backfills
// existing rows, and groups of callbacks from two instances at once keep ids in commit order and,
// being hints for tasks nobody created here, add no task (a callback is anyone's word) and leave the counts exact.
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { NodeApp } from '../app/node-app';
import { countTasks } from '../tasks/list-counts';
import { usePostgresInstances } from '../testing/postgres-instances';
import { scannedCounts as scanned } from '../testing/scanned-counts';
import type { Schema } from './database';
import { migrate, MIGRATIONS } from './migrations';

const SECRET = 'pg-ledger-secret-0123456789';
const ORIGIN = 'http://127.0.0.1:5173';
const { freshDatabase, instance } = usePostgresInstances(SECRET);

describe('tab counts on PostgreSQL', () => {
  it('are backfilled from the tasks a database already holds', async () => {
    const db = new Kysely<Schema>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: freshDatabase(), max: 2 }) }),
    });
    try {
      const before = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name < '0004'));
      await migrate(db as Kysely<unknown>, before);
      await sql`insert into tasks (id, kind, source, creator, status)
        select 't' || g, 'image_generate', 'created', 'Ana', (array['SUCCEEDED','FAILED','PENDING'])[1 + g % 3]
        from generate_series(1, 50) g`.execute(db);
      await migrate(db as Kysely<unknown>);
      expect((await countTasks(db, {})).counts).toEqual({ all: 50, running: 17, succeeded: 16, failed: 17 });
      expect((await countTasks(db, { creator: 'Ana', kind: 'image_generate' })).counts.all).toBe(50);
    } finally {
      await db.destroy();
    }
  });
});

describe('groups of callbacks from two instances at once', () => {
  it('are acknowledged each after its commit, in id order, and add no task the record does not know', async () => {
    const url = freshDatabase();
    const [a, b] = [instance(url), instance(url)];
    const [{ db }] = await Promise.all([a.database, b.database]);
    const send = (app: NodeApp, taskId: string, status: string, extra: Record<string, unknown> = {}) =>
      app.app.request(`${ORIGIN}/callbacks/${SECRET}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          code: 0,
          task_type: 'image_generate',
          data: { task_id: taskId, status, ...extra },
        }),
      });
    try {
      // 120 tasks; each gets a FAILED then a SUCCEEDED callback, some delivered twice.
      const sends = Array.from({ length: 240 }, (_, i) => {
        const task = `i2is-g-${i % 120}`;
        return send(i % 2 ? a : b, task, i < 120 ? 'FAILED' : 'SUCCEEDED', { image_url: `u${i >= 120}` });
      });
      const again = Array.from({ length: 20 }, (_, i) =>
        send(a, `i2is-g-${i}`, 'FAILED', { image_url: 'ufalse' }),
      );
      const replies = await Promise.all([...sends, ...again]);
      expect(replies.map((reply) => reply.status).every((status) => status === 200)).toBe(true);
      const bodies = (await Promise.all(replies.map((reply) => reply.json()))) as {
        data: { id: number; duplicate: boolean };
      }[];
      const fresh = bodies.filter((body) => !body.data.duplicate).map((body) => body.data.id);
      expect(new Set(fresh).size).toBe(240);
      expect(bodies.filter((body) => body.data.duplicate)).toHaveLength(20);
      // Ids are dense and in commit order: what a stream from 0 sends is every id once, ascending.
      const stored = await db.selectFrom('callbacks').select('id').orderBy('id').execute();
      expect(stored.map((row) => row.id)).toEqual(Array.from({ length: 240 }, (_, i) => i + 1));
      // A callback is a hint: for a task nobody created through the console, it stays in the log.
      const counts = (await countTasks(db, {})).counts;
      expect(counts).toEqual(await scanned(db));
      expect(counts.all).toBe(0);
      expect(await db.selectFrom('task_events').select('id').execute()).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  }, 60_000);
});
