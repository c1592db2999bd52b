// People in the database every instance shares: made or updated at each sign-in from what the way
// in says (the identity provider, the proxy's header, a local account), their roles, their removal
// (which ends their sessions), and the shared password account's hash.
import { randomUUID } from 'node:crypto';
import type { Db } from '../db/database';
import type { UserSource } from '../db/schema';
import type { Role } from '../../src/api/roles';
import { LOCAL_ADMIN } from './request-identity';

export interface Person {
  id: string;
  source: UserSource;
  name: string;
  email: string | null;
  role: Role;
  createdAt: number;
  lastSignInAt: number | null;
}

export type StoredPerson = Person & { removed: boolean };

export interface ExternalPerson {
  source: UserSource;
  subject: string;
  name: string;
  email?: string | null;
  /** Set: the role comes from the identity provider at each sign-in. Unset: a new person gets `defaultRole`. */
  role?: Role;
  defaultRole?: Role;
  /** false: a known person is returned as stored (a proxy's header on every request). */
  touch?: boolean;
}

interface UserRow {
  id: string;
  source: UserSource;
  display_name: string;
  email: string | null;
  role: Role;
  created_at: Date;
  last_sign_in_at: Date | null;
}

export const PERSON_COLUMNS = [
  'id',
  'source',
  'display_name',
  'email',
  'role',
  'created_at',
  'last_sign_in_at',
] as const;

export const toPerson = (row: UserRow): Person => ({
  id: row.id,
  source: row.source,
  name: row.display_name,
  email: row.email,
  role: row.role,
  createdAt: row.created_at.getTime(),
  lastSignInAt: row.last_sign_in_at ? row.last_sign_in_at.getTime() : null,
});

export interface UserStore {
  /** The person of `source`+`subject`, made or updated (name, email, and the role when given). */
  upsertPerson(person: ExternalPerson): Promise<StoredPerson>;
  findBySubject(source: UserSource, subject: string): Promise<StoredPerson | undefined>;
  /** Notes a sign-in. */
  touch(id: string): Promise<void>;
  ensureLocalAdmin(): Promise<void>;
  findPerson(id: string): Promise<StoredPerson | undefined>;
  findLocal(email: string): Promise<{ person: Person; passwordHash: string | null } | undefined>;
  countPeople(source?: UserSource): Promise<number>;
  /** The shared APP_PASSWORD account's stored password hash, and setting it. */
  passwordHashOf(userId: string): Promise<string | null | undefined>;
  setPasswordHash(userId: string, hash: string | null): Promise<void>;
  listPeople(): Promise<Person[]>;
  setRole(id: string, role: Role): Promise<Person | undefined>;
  /** Marks the person removed and ends every session of theirs. */
  removePerson(id: string): Promise<Person | undefined>;
}

/** The person of `source`+`subject`, made or updated; `forgetSessionsOf` when their name or role may change. */
async function upsertPerson(
  d: Db,
  person: ExternalPerson,
  signIn: Date,
  forgetSessionsOf: (userId: string) => void,
): Promise<StoredPerson> {
  const columns = PERSON_COLUMNS;
  const existing = await d
    .selectFrom('users')
    .select([...columns, 'removed_at'])
    .where('source', '=', person.source)
    .where('subject', '=', person.subject)
    .executeTakeFirst();
  if (existing && person.touch === false)
    return { ...toPerson(existing), removed: existing.removed_at !== null };
  if (!existing) {
    const row = await d
      .insertInto('users')
      .values({
        id: randomUUID(),
        source: person.source,
        subject: person.subject,
        display_name: person.name,
        email: person.email ?? null,
        role: person.role ?? person.defaultRole ?? 'viewer',
        last_sign_in_at: signIn,
      })
      // Two first requests at once: the second finds the first's row.
      .onConflict((oc) => oc.columns(['source', 'subject']).doUpdateSet({ last_sign_in_at: signIn }))
      .returning([...columns, 'removed_at'])
      .executeTakeFirstOrThrow();
    // Stryker disable next-line ConditionalExpression: a row made here is not removed; only another instance's row, made between the select and this insert, could be
    return { ...toPerson(row), removed: row.removed_at !== null };
  }
  // A removed person stays removed, whatever the identity provider says: only an admin brings them back.
  if (existing.removed_at !== null) return { ...toPerson(existing), removed: true };
  const row = await d
    .updateTable('users')
    .set({
      display_name: person.name,
      email: person.email ?? existing.email,
      ...(person.role && { role: person.role }),
      last_sign_in_at: signIn,
    })
    .where('id', '=', existing.id)
    .returning(columns)
    .executeTakeFirstOrThrow();
  // A new name or role from the identity provider: the person's open sessions show it at once.
  forgetSessionsOf(existing.id);
  return { ...toPerson(row), removed: false };
}

/** The reads of people: by id, by sign-in subject, a local account, how many, the list. */
function personReads(db: () => Promise<Db>) {
  const columns = PERSON_COLUMNS;
  return {
    async findBySubject(source, subject) {
      const row = await (
        await db()
      )
        .selectFrom('users')
        .select([...columns, 'removed_at'])
        .where('source', '=', source)
        .where('subject', '=', subject)
        .executeTakeFirst();
      return row ? { ...toPerson(row), removed: row.removed_at !== null } : undefined;
    },
    async findPerson(id) {
      const row = await (
        await db()
      )
        .selectFrom('users')
        .select([...columns, 'removed_at'])
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? { ...toPerson(row), removed: row.removed_at !== null } : undefined;
    },
    async findLocal(email) {
      const row = await (
        await db()
      )
        .selectFrom('users')
        .select([...columns, 'password_hash'])
        .where('source', '=', 'local')
        .where('subject', '=', email.toLowerCase())
        .where('removed_at', 'is', null)
        .executeTakeFirst();
      return row ? { person: toPerson(row), passwordHash: row.password_hash } : undefined;
    },
    async countPeople(source) {
      let query = (await db())
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('removed_at', 'is', null);
      if (source) query = query.where('source', '=', source);
      const row = await query.executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async passwordHashOf(userId) {
      const row = await (
        await db()
      )
        .selectFrom('users')
        .select('password_hash')
        .where('id', '=', userId)
        .executeTakeFirst();
      return row?.password_hash;
    },
    async listPeople() {
      const rows = await (
        await db()
      )
        .selectFrom('users')
        .select(columns)
        .where('removed_at', 'is', null)
        .orderBy('display_name')
        .execute();
      return rows.map(toPerson);
    },
  } satisfies Partial<UserStore>;
}

/**
 * `forgetSessionsOf` drops what this instance remembers of a person's sessions (./sessions.ts):
 * a new name, role or a removal shows in their open sessions at once.
 */
export function createUserStore(
  db: () => Promise<Db>,
  now: () => number,
  forgetSessionsOf: (userId: string) => void,
): UserStore {
  const columns = PERSON_COLUMNS;
  return {
    ...personReads(db),
    async upsertPerson(person) {
      return upsertPerson(await db(), person, new Date(now()), forgetSessionsOf);
    },
    async touch(id) {
      await (
        await db()
      )
        .updateTable('users')
        .set({ last_sign_in_at: new Date(now()) })
        .where('id', '=', id)
        .execute();
    },
    async ensureLocalAdmin() {
      await (
        await db()
      )
        .insertInto('users')
        .values({
          id: LOCAL_ADMIN.userId,
          source: 'local-admin',
          subject: LOCAL_ADMIN.userId,
          display_name: LOCAL_ADMIN.name,
          role: 'admin',
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
    },
    async setPasswordHash(userId, hash) {
      await (await db()).updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
    },
    async setRole(id, role) {
      const row = await (
        await db()
      )
        .updateTable('users')
        .set({ role })
        .where('id', '=', id)
        .where('removed_at', 'is', null)
        .returning(columns)
        .executeTakeFirst();
      forgetSessionsOf(id);
      return row ? toPerson(row) : undefined;
    },
    async removePerson(id) {
      return (await db()).transaction().execute(async (trx) => {
        const row = await trx
          .updateTable('users')
          .set({ removed_at: new Date(now()) })
          .where('id', '=', id)
          .where('removed_at', 'is', null)
          .returning(columns)
          .executeTakeFirst();
        await trx.deleteFrom('sessions').where('user_id', '=', id).execute();
        forgetSessionsOf(id);
        return row ? toPerson(row) : undefined;
      });
    },
  };
}
