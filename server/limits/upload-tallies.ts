// Each person's uploaded bytes per UTC day, in the database every instance shares: a person who
// uploads through two instances has one day's allowance, not two. Adding is one statement that
// checks the limit and adds in the same step, so uploads running side by side on any instances
// cannot pass the limit together.
import { sql } from 'kysely';
import type { Database } from '../db/database';
import type { UploadTallies } from '../http/upload-quota';

export function databaseUploadTallies(database: Promise<Database>): UploadTallies {
  // Stryker disable next-line UnaryOperator: any day number no upload has (days since 1970) will do
  let sweptDay = -1;
  /** Days before yesterday are worth nothing: dropped once a day per instance, on its first upload. */
  async function sweep(day: number) {
    if (day === sweptDay) return;
    sweptDay = day;
    const { db } = await database;
    await db
      .deleteFrom('upload_tallies')
      .where('day', '<', day - 1)
      .execute();
  }
  return {
    async add(person, day, bytes, limit) {
      await sweep(day);
      const { db } = await database;
      const { rows } = await sql<{ bytes: number }>`
        insert into upload_tallies as t (person, day, bytes)
        select ${person}, ${day}::int, ${bytes}::bigint where ${bytes}::bigint <= ${limit}::bigint
        on conflict (person, day) do update set bytes = t.bytes + excluded.bytes
          where t.bytes + excluded.bytes <= ${limit}::bigint
        returning bytes`.execute(db);
      return rows[0]?.bytes;
    },
    async subtract(person, day, bytes) {
      const { db } = await database;
      await db
        .updateTable('upload_tallies')
        .set({ bytes: sql`greatest(0, bytes - ${bytes}::bigint)` })
        .where('person', '=', person)
        .where('day', '=', day)
        .execute();
    },
    async used(person, day) {
      const { db } = await database;
      const row = await db
        .selectFrom('upload_tallies')
        .select('bytes')
        .where('person', '=', person)
        .where('day', '=', day)
        .executeTakeFirst();
      return row?.bytes ?? 0;
    },
  };
}
