import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { MEMORY_URL, openDatabase, PGLITE_DIR, type Database } from './database';
import { MIGRATIONS, migrate, NewerDatabaseError } from './migrations';
import { copyOfTemplate, templateDump } from '../testing/pglite-template';

const open: Database[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((database) => database.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * A PGlite for a test: a copy of the run's migrated template unless the test is about a new
 * database (initdb in WebAssembly costs seconds; a copy opens in about one).
 */
async function pglite(dataDir = copyOfTemplate()) {
  const database = await openDatabase({ dataDir });
  open.push(database);
  return database;
}

describe('openDatabase on PGlite', { timeout: 60_000 }, () => {
  // Making a database runs every migration: the test of an empty DATA_DIR below covers it (and the
  // template copied here was made the same way), so this one skips a second initdb of seconds. One
  // copy serves what an open database does (each copy costs about a second of CPU).
  it('answers typed queries, rolls a failed transaction back as a whole and delivers NOTIFY', async () => {
    const database = await pglite();
    const { db, kind } = database;
    expect(kind).toBe('pglite');
    await db.insertInto('signed_out_sessions').values({ id: 'abc', expires_at: 1_900_000_000_000 }).execute();
    // int8 comes back as a number on both drivers, never as a string.
    expect(await db.selectFrom('signed_out_sessions').selectAll().execute()).toEqual([
      { id: 'abc', expires_at: 1_900_000_000_000 },
    ]);

    await expect(
      db.transaction().execute(async (trx) => {
        await trx.insertInto('signed_out_sessions').values({ id: 'half', expires_at: 1 }).execute();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    // Only the row from before the transaction: 'half' went with it.
    expect(await db.selectFrom('signed_out_sessions').selectAll().execute()).toEqual([
      { id: 'abc', expires_at: 1_900_000_000_000 },
    ]);

    const received: string[] = [];
    const stop = await database.listen('changes', (payload) => received.push(payload));
    await sql`select pg_notify('changes', 'hello')`.execute(db);
    await expect.poll(() => received).toEqual(['hello']);
    await stop();
  });

  it('keeps its data in DATA_DIR across a restart', async () => {
    const dir = copyOfTemplate();
    dirs.push(dir);
    const first = await openDatabase({ dataDir: dir });
    await first.db.insertInto('signed_out_sessions').values({ id: 'kept', expires_at: 1 }).execute();
    await first.close();
    const second = await pglite(dir);
    expect(await second.db.selectFrom('signed_out_sessions').select('id').execute()).toEqual([
      { id: 'kept' },
    ]);
  });

  it('makes a new database in an empty DATA_DIR and opens it again to serve: migrated, answering', async () => {
    // Opened again once its migrations ran (server/db/database.ts), so the memory PGlite grew to make
    // the database is not kept; that figure is the benchmark's (npm run bench -- embedded).
    // initdb runs in a child process (./make-pglite.ts), into a folder renamed into place when done; a
    // start killed halfway left one behind here, and an empty pglite/ folder.
    const dir = mkdtempSync(join(tmpdir(), 'database-new-'));
    dirs.push(dir);
    mkdirSync(join(dir, `.${PGLITE_DIR}-making-1`));
    writeFileSync(join(dir, `.${PGLITE_DIR}-making-1`, 'PG_VERSION'), '17\n');
    mkdirSync(join(dir, PGLITE_DIR));
    const { db } = await pglite(dir);
    expect(readdirSync(dir)).toEqual([PGLITE_DIR]);
    expect(existsSync(join(dir, PGLITE_DIR, 'PG_VERSION'))).toBe(true);
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    expect(rows.map((row) => row.name)).toEqual(Object.keys(MIGRATIONS));
    await db.insertInto('signed_out_sessions').values({ id: 'new', expires_at: 1 }).execute();
    expect(await migrate(db as never)).toBe(0);
  });

  it('in memory from a dump of a data folder: says how many migrations it ran, and refuses a database migrated by newer code', async () => {
    // memory:// started from a tarball of a data folder (the tests' shared database starts from the
    // run's template so): this one is the template with one row added.
    const template = await PGlite.create('memory://', {
      loadDataDir: templateDump(),
      extensions: { pg_trgm },
    });
    await template.exec(`insert into signed_out_sessions (id, expires_at) values ('from-the-dump', 1)`);
    const dump = await template.dumpDataDir('none');
    await template.close();
    const database = await openDatabase({ dataDir: '', databaseUrl: MEMORY_URL, loadDataDir: dump });
    open.push(database);
    const { db } = database;
    expect(await db.selectFrom('signed_out_sessions').select('id').execute()).toEqual([
      { id: 'from-the-dump' },
    ]);
    const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
    expect(rows.map((row) => row.name)).toEqual(Object.keys(MIGRATIONS));
    const next = { ...MIGRATIONS, '9998_next': { up: async () => {} } };
    expect(await migrate(db as never, next)).toBe(1);
    expect(await migrate(db as never, next)).toBe(0);

    const newer = { ...next, '9999_future': { up: async () => {} } };
    await migrate(db as never, newer);
    // This code knows 9998_next (run above) but not 9999_future.
    await expect(migrate(db as never, next)).rejects.toThrow(NewerDatabaseError);
    await expect(migrate(db as never, next)).rejects.toThrow(/newer version of this console \(9999_future\)/);
  });
});
