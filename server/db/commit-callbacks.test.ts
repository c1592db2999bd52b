// commit_callbacks (./commit-callbacks.ts) on PGlite and on PostgreSQL: how a group of callbacks
// moves its tasks on in its own transaction (several callbacks of one task in one group, known and
// new tasks, duplicates, the NOTIFY payloads), and that it stays an index lookup as the log grows.
// Each group here is formed by appending in one tick (the store groups what arrives before its
// next turn). The fold cases were written against the earlier fold in JavaScript and passed there.
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CallbackBody } from '../../src/api/schemas';
import { CallbackStore } from '../callbacks/store';
import { announcedIds, notifyPayloads } from '../tasks/announce';
import { TASKS_CHANNEL } from '../tasks/recorder';
import { testDatabase } from '../testing/database';
import { testPostgres, type TestPostgres } from '../testing/postgres';
import { openDatabase, type Database } from './database';

let postgres: TestPostgres | undefined;
afterAll(() => postgres?.stop());
const opens: Record<string, () => Promise<Database>> = {
  PGlite: testDatabase,
  PostgreSQL: async () => {
    postgres ??= await testPostgres();
    return openDatabase({ dataDir: '', databaseUrl: postgres.createDatabase('commit_callbacks') });
  },
};

describe.each(Object.keys(opens))('on %s', (kind) => {
  let database: Database;
  let store: CallbackStore;
  let notices: string[];
  let unlisten: () => Promise<void>;

  beforeAll(async () => {
    database = await opens[kind]!();
  }, 120_000);
  afterAll(async () => {
    if (kind === 'PostgreSQL') await database?.close();
  });
  beforeEach(async () => {
    await sql`truncate callbacks, tasks, task_events, task_follows restart identity`.execute(database.db);
    store = new CallbackStore(database, { moveTasks: true });
    notices = [];
    unlisten = await database.listen(TASKS_CHANNEL, (payload) => notices.push(payload));
  });
  afterEach(async () => {
    await unlisten();
    await store.close();
  });

  const callback = (taskType: string, data: Record<string, unknown>) =>
    ({ code: 0, task_type: taskType, data }) as unknown as CallbackBody;
  /** One group: every body appended in the same tick, so one transaction (one received_at). */
  async function group(...bodies: CallbackBody[]) {
    const replies = await Promise.all(bodies.map((body) => store.append(body)));
    const stored = replies.filter(({ duplicate }) => !duplicate);
    expect(new Set(stored.map(({ entry }) => entry.receivedAt)).size).toBeLessThanOrEqual(1);
    return replies;
  }
  const task = (id: string) =>
    database.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const events = async () =>
    (await database.db.selectFrom('task_events').selectAll().orderBy('id').execute()).map((event) => [
      event.task_id,
      event.source,
      event.status,
    ]);
  /**
   * The TASKS_CHANNEL payloads heard since the last call. NOTIFY arrives just after the commit, in
   * commit order: a marker sent now arrives after everything the groups before it sent, so once it
   * is in, nothing more of theirs is on its way (no fixed wait, no guess of how many).
   */
  let barriers = 0;
  async function heard(): Promise<string[]> {
    const marker = `barrier-${++barriers}`;
    await sql`select pg_notify(${TASKS_CHANNEL}, ${marker})`.execute(database.db);
    await vi.waitFor(() => expect(notices).toContain(marker), { timeout: 10_000 });
    const all = notices.splice(0);
    return all.slice(0, all.indexOf(marker));
  }

  describe('a group of callbacks moves its tasks on', () => {
    it('folds the callbacks of one task: merged result, last kind and status, last name, first language', async () => {
      await group(
        callback('video_translate', {
          task_id: 't-1',
          status: 'FAILED',
          name: 'first',
          language: '',
          error_message: 'x',
          a: 1,
          gone: null,
          nested: { kept: null },
        }),
        callback('image_generate', { task_id: 't-2', status: 'SUCCEEDED' }),
        callback('video_translate', {
          task_id: 't-1',
          status: 'FAILED',
          name: 'second',
          language: 'German',
          a: 2,
        }),
        callback('image_generate', {
          task_id: 't-1',
          status: 'SUCCEEDED',
          name: '',
          language: 'French',
          error_message: null,
        }),
        callback('image_to_video', { task_id: 't-1', status: 'SUCCEEDED', name: 7, language: 'Italian' }),
      );
      const one = await task('t-1');
      expect(one).toMatchObject({
        kind: 'image_to_video',
        source: 'callback',
        status: 'SUCCEEDED',
        name: 'second',
        language: 'German',
        last_source: 'callback',
        last_error: null,
      });
      // Top-level nulls never erase a field; nested ones are data.
      expect(one.result).toEqual({
        task_id: 't-1',
        status: 'SUCCEEDED',
        name: 7,
        language: 'Italian',
        error_message: 'x',
        a: 2,
        nested: { kept: null },
      });
      expect(one.finished_at).not.toBeNull();
      // A new task's first callback and each change of status make an event, in callback order.
      expect(await events()).toEqual([
        ['t-1', 'callback', 'FAILED'],
        ['t-2', 'callback', 'SUCCEEDED'],
        ['t-1', 'callback', 'SUCCEEDED'],
      ]);
      expect(await heard()).toEqual(['["t-1","t-2"]']);
    });

    it('moves a known task on: keeps what callbacks do not say, an event on a change only, finished once', async () => {
      await database.db
        .insertInto('tasks')
        .values({
          id: 't-9',
          kind: 'image_to_video',
          source: 'created',
          status: 'PROCESSING',
          name: 'orig',
          language: 'French',
          creator: 'Ana',
          result: JSON.stringify({ keep: 1, a: 0 }),
          last_error: JSON.stringify({ kind: 'http', httpStatus: 500, msg: 'x', at: 1 }),
        })
        .execute();
      await group(callback('image_generate', { task_id: 't-9', status: 'SUCCEEDED', a: 1, name: '' }));
      const first = await task('t-9');
      expect(first).toMatchObject({
        kind: 'image_generate',
        source: 'created',
        creator: 'Ana',
        status: 'SUCCEEDED',
        name: 'orig',
        language: 'French',
        last_source: 'callback',
        last_error: null,
        result: { keep: 1, a: 1, task_id: 't-9', status: 'SUCCEEDED', name: '' },
      });
      expect(first.finished_at).not.toBeNull();
      // Each group must be dated later than the one before: wait for the clock to move on.
      const later = async (than: Date) =>
        vi.waitFor(() => expect(Date.now()).toBeGreaterThan(than.getTime()), { interval: 1 });
      await later(first.updated_at);
      await group(callback('image_generate', { task_id: 't-9', status: 'FAILED' }));
      await later((await task('t-9')).updated_at);
      await group(callback('image_generate', { task_id: 't-9', status: 'FAILED', b: 1 }));
      const last = await task('t-9');
      expect(last.status).toBe('FAILED');
      expect(last.result).toMatchObject({ keep: 1, a: 1, b: 1 });
      // Finished when it first reached SUCCEEDED or FAILED; later callbacks do not move that.
      expect(last.finished_at).toEqual(first.finished_at);
      expect(last.updated_at.getTime()).toBeGreaterThan(first.updated_at.getTime());
      expect(await events()).toEqual([
        ['t-9', 'callback', 'SUCCEEDED'],
        ['t-9', 'callback', 'FAILED'],
      ]);
    });

    it('stores identical deliveries once, spends no id on them and folds only what it stored', async () => {
      const x = callback('image_generate', { task_id: 't-5', status: 'SUCCEEDED', image_url: 'u' });
      const y = callback('image_generate', { task_id: 't-6', status: 'FAILED' });
      const replies = await group(x, structuredClone(x), y);
      expect(replies.map(({ entry, duplicate }) => [entry.id, duplicate])).toEqual([
        [1, false],
        [1, true],
        [2, false],
      ]);
      expect(replies[1]!.entry).toEqual(replies[0]!.entry);
      expect(await heard()).toEqual(['["t-5","t-6"]']);
      const before = await task('t-5');

      const z = callback('image_generate', { task_id: 't-6', status: 'SUCCEEDED' });
      const again = await group(structuredClone(x), z);
      expect(again.map(({ entry, duplicate }) => [entry.id, duplicate])).toEqual([
        [1, true],
        [3, false],
      ]);
      expect(await task('t-5')).toEqual(before);
      expect(await heard()).toEqual(['["t-6"]']);

      expect((await group(structuredClone(x), structuredClone(y))).every((r) => r.duplicate)).toBe(true);
      expect(await heard()).toEqual([]);
      expect(await events()).toEqual([
        ['t-5', 'callback', 'SUCCEEDED'],
        ['t-6', 'callback', 'FAILED'],
        ['t-6', 'callback', 'SUCCEEDED'],
      ]);
    });

    it('announces a large group in payloads short enough for NOTIFY', async () => {
      const ids = Array.from(
        { length: 200 },
        (_, i) => `task-${String(i).padStart(3, '0')}-${'x'.repeat(60)}`,
      );
      await group(
        ...[...ids].reverse().map((id) => callback('image_generate', { task_id: id, status: 'FAILED' })),
      );
      const payloads = await heard();
      expect(payloads).toEqual(notifyPayloads(ids));
      expect(payloads.length).toBeGreaterThan(1);
      expect(payloads.flatMap(announcedIds)).toEqual(ids);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from tasks`.execute(database.db);
      expect(rows[0]!.n).toBe(200);
    });
    it('stores quotes, backslashes, dollar quotes and any Unicode exactly as sent', async () => {
      const id = `it's a "t\\ask" $fn$ \u00fc 𝄞 ';--`;
      const body = callback('image_generate', {
        task_id: id,
        status: 'SUCCEEDED',
        note: 'a\nb\t\\ \u0001 $$ end $fn$; drop table callbacks; --',
        nested: { '"key"': ["'", '\\', '𝄞'] },
      });
      const [reply] = await group(body);
      expect(reply!.entry.body).toEqual(body);
      const [row] = await database.db.selectFrom('callbacks').selectAll().execute();
      expect(row).toMatchObject({ task_id: id, body });
      expect((await task(id)).result).toEqual(body.data);
      expect((await heard()).flatMap(announcedIds)).toEqual([id]);
    });

    it('keeps the log only, for a store that does not move tasks', async () => {
      const logOnly = new CallbackStore(database);
      try {
        const [reply] = await Promise.all([
          logOnly.append(callback('image_generate', { task_id: 't-log', status: 'FAILED' })),
        ]);
        expect(reply).toMatchObject({ entry: { id: 1 }, duplicate: false });
        expect(await database.db.selectFrom('tasks').selectAll().execute()).toEqual([]);
        expect(await heard()).toEqual([]);
      } finally {
        await logOnly.close();
      }
    });

    it('looks keys up in the index however much the log grew after its plans were made', async () => {
      const call = (conn: typeof database.db, n: number, prefix: string) => {
        const arrived = Array.from({ length: n }, (_, i) => ({
          ord: i,
          key: `${prefix}-${i}`,
          task_id: `${prefix}-${i}`,
          status: 'FAILED',
          body: {
            code: 0,
            task_type: 'image_generate',
            data: { task_id: `${prefix}-${i}`, status: 'FAILED' },
          },
        }));
        return sql`select * from commit_callbacks(${JSON.stringify(arrived)}::jsonb, true, '{}'::text[])`.execute(
          conn,
        );
      };
      await database.db.connection().execute(async (conn) => {
        // PL/pgSQL keeps a generic plan after a few calls: made here, on a nearly empty table.
        for (let i = 0; i < 8; i++) await call(conn, 4, `warm-${i}`);
        await sql`insert into callbacks (key, task_id, status, body)
        select 'bulk-' || g, 'bulk-' || g, 'FAILED', '{}' from generate_series(1, 20000) g`.execute(conn);
        await sql`begin`.execute(conn);
        // Counted from here: the view also holds what this connection did before, not yet reported.
        const scans = async () =>
          (
            await sql<{ seq_scan: number; idx_scan: number }>`
              select seq_scan, idx_scan from pg_stat_xact_user_tables where relname = 'callbacks'`.execute(
              conn,
            )
          ).rows[0]!;
        try {
          const before = await scans();
          await call(conn, 16, 'late');
          await call(conn, 4, 'warm-0'); // duplicates: looked up, not stored
          const after = await scans();
          expect(after.seq_scan - before.seq_scan).toBe(0);
          expect(after.idx_scan - before.idx_scan).toBeGreaterThanOrEqual(40);
        } finally {
          await sql`rollback`.execute(conn);
        }
      });
    });
  });
});
