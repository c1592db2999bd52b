// One-time links in the database every instance shares: an admin's invitation (with the role it
// gives) or the first admin's set-up link. The link's token is stored as its sha256 only, used
// once (redeeming makes the local account in the same transaction), and expires.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database';
import type { Role } from '../../src/api/roles';
import { newToken, tokenHash } from './sessions';
import { PERSON_COLUMNS, toPerson, type Person } from './users';

export interface LinkValues {
  name: string;
  email: string;
  passwordHash: string;
}

export interface LinkStore {
  /** A one-time link's token: an invitation (with the role it gives) or the first admin's set-up. */
  createLink(link: {
    purpose: 'invite' | 'setup';
    role: Role;
    email?: string | null;
    createdBy?: string | null;
    ttlMs: number;
  }): Promise<string>;
  findLink(
    token: string,
    purpose: 'invite' | 'setup',
  ): Promise<{ role: Role; email: string | null } | undefined>;
  /** Uses the link (once) and makes its local account. */
  redeemLink(token: string, purpose: 'invite' | 'setup', values: LinkValues): Promise<Person | undefined>;
  listLinks(): Promise<
    { id: string; role: Role; email: string | null; createdAt: number; expiresAt: number }[]
  >;
  revokeLink(id: string): Promise<boolean>;
}

export function createLinkStore(db: () => Promise<Db>, now: () => number): LinkStore {
  const columns = PERSON_COLUMNS;
  return {
    async createLink(link) {
      const token = newToken();
      await (
        await db()
      )
        .insertInto('one_time_links')
        .values({
          id: tokenHash(token),
          purpose: link.purpose,
          role: link.role,
          email: link.email?.toLowerCase() ?? null,
          created_by: link.createdBy ?? null,
          expires_at: new Date(now() + link.ttlMs),
        })
        .execute();
      return token;
    },
    async findLink(token, purpose) {
      if (!token || token.length > 200) return undefined;
      const row = await (
        await db()
      )
        .selectFrom('one_time_links')
        .select(['role', 'email'])
        .where('id', '=', tokenHash(token))
        .where('purpose', '=', purpose)
        .where('used_at', 'is', null)
        .where('expires_at', '>', new Date(now()))
        .executeTakeFirst();
      return row;
    },
    async redeemLink(token, purpose, values) {
      return (await db()).transaction().execute(async (trx) => {
        const link = await trx
          .updateTable('one_time_links')
          .set({ used_at: new Date(now()) })
          .where('id', '=', tokenHash(token))
          .where('purpose', '=', purpose)
          .where('used_at', 'is', null)
          .where('expires_at', '>', new Date(now()))
          .returning(['role'])
          .executeTakeFirst();
        if (!link) return undefined;
        const row = await trx
          .insertInto('users')
          .values({
            id: randomUUID(),
            source: 'local',
            subject: values.email.toLowerCase(),
            display_name: values.name,
            email: values.email.toLowerCase(),
            role: link.role,
            password_hash: values.passwordHash,
            last_sign_in_at: new Date(now()),
          })
          .returning(columns)
          .executeTakeFirstOrThrow();
        return toPerson(row);
      });
    },
    async listLinks() {
      const rows = await (
        await db()
      )
        .selectFrom('one_time_links')
        .select(['id', 'role', 'email', 'created_at', 'expires_at'])
        .where('purpose', '=', 'invite')
        .where('used_at', 'is', null)
        .where('expires_at', '>', new Date(now()))
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        role: row.role,
        email: row.email,
        createdAt: (row.created_at as unknown as Date).getTime(),
        expiresAt: row.expires_at.getTime(),
      }));
    },
    async revokeLink(id) {
      const result = await (
        await db()
      )
        .updateTable('one_time_links')
        .set({ used_at: new Date(now()) })
        .where('id', '=', id)
        .where('used_at', 'is', null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
  };
}
