// Schema changes, in order, run at start. A database that has run a migration this code does not
// know was upgraded by a newer console: refusing it beats writing rows a newer schema misreads.
import { sql, type Kysely } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';

export const MIGRATIONS: Record<string, Migration> = {
  '0001_callbacks_and_sessions': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('callbacks')
        .addColumn('id', 'bigint', (col) => col.primaryKey().generatedByDefaultAsIdentity())
        .addColumn('key', 'text', (col) => col.notNull().unique())
        .addColumn('task_id', 'text', (col) => col.notNull())
        .addColumn('status', 'text', (col) => col.notNull())
        .addColumn('received_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
        .addColumn('body', 'jsonb', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('callbacks_task_id').on('callbacks').columns(['task_id', 'id']).execute();
      await db.schema
        .createTable('signed_out_sessions')
        .addColumn('id', 'text', (col) => col.primaryKey())
        .addColumn('expires_at', 'bigint', (col) => col.notNull())
        .execute();
    },
  },
};

export class NewerDatabaseError extends Error {}

export async function migrate(db: Kysely<unknown>, migrations: Record<string, Migration> = MIGRATIONS) {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const known = new Set(Object.keys(migrations));
  const applied = await migrator.getMigrations();
  // getMigrations lists only the code's migrations; the table tells what the database has seen.
  const tableExists = applied.some((m) => m.executedAt) || (await hasMigrationTable(db));
  if (tableExists) {
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    const unknown = rows.rows.map((row) => row.name).filter((name) => !known.has(name));
    if (unknown.length) {
      throw new NewerDatabaseError(
        `The database was migrated by a newer version of this console (${unknown.join(', ')}); ` +
          'run that version, or restore a backup made for this one.',
      );
    }
  }
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}

async function hasMigrationTable(db: Kysely<unknown>): Promise<boolean> {
  const { rows } = await sql<{
    found: string | null;
  }>`select to_regclass('kysely_migration') as found`.execute(db);
  return Boolean(rows[0]?.found);
}
