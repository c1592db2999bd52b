// Sign-outs that outlive the process and reach every instance. A session cookie cannot be taken
// back, so a signed-out session id is remembered until the cookie would have expired anyway.
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from '../db/database';

interface SignedOutSessions {
  has(id: string): Promise<boolean> | boolean;
  add(id: string, expiresAt: number): Promise<void> | void;
}

/** Where an earlier version kept sign-outs, one `id expiresAt` line each; imported once. */
const SIGNED_OUT_FILE = 'signed-out-sessions';

/** In the database, shared by every instance; expired rows are dropped as new sign-outs come in. */
export function databaseSignedOutSessions(
  database: Promise<Database>,
  now: () => number = Date.now,
): SignedOutSessions {
  return {
    async has(id) {
      const { db } = await database;
      const row = await db
        .selectFrom('signed_out_sessions')
        .select('id')
        .where('id', '=', id)
        .where('expires_at', '>', now())
        .executeTakeFirst();
      return Boolean(row);
    },
    async add(id, expiresAt) {
      const { db } = await database;
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('signed_out_sessions').where('expires_at', '<=', now()).execute();
        await trx
          .insertInto('signed_out_sessions')
          .values({ id, expires_at: expiresAt })
          .onConflict((oc) => oc.column('id').doUpdateSet({ expires_at: expiresAt }))
          .execute();
      });
    },
  };
}

/** Moves an earlier version's file of sign-outs (at most 7 days of them: small) into the database. */
export async function importSignedOutSessions(database: Database, dataDir: string, now = Date.now()) {
  const file = join(dataDir, SIGNED_OUT_FILE);
  if (!existsSync(file)) return;
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .map(([id, expires]) => ({ id: id ?? '', expires_at: Number(expires) }))
    .filter((row) => row.id && row.expires_at > now);
  if (rows.length)
    await database.db
      .insertInto('signed_out_sessions')
      .values(rows)
      .onConflict((oc) => oc.column('id').doNothing())
      .execute();
  renameSync(file, `${file}.imported`);
}
