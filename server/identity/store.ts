// People, their sessions and the audit log, in the database every instance shares: a session is a
// row, so signing out, removing a person or changing a role holds on every instance: at the next
// request on the instance that made the change, within SESSION_CACHE_MS on the others (each keeps
// the sessions it has just looked up in memory). The cookie holds a random token; the table holds
// its sha256 only.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Database, Db } from '../db/database';
import type { UserSource } from '../db/schema';
import type { Role } from '../../src/api/roles';
import type { Identity } from './roles';
import { LOCAL_ADMIN } from './roles';

export const SESSION_MAX_AGE_S = 7 * 24 * 3600;
/**
 * A session's identity is looked up in the database at most this often per instance: every request
 * of a signed-in browser (status polls every few seconds) needs it. What this instance changes
 * (sign-out, a role, a removal, a new name) takes effect at once; another instance's change, within this.
 */
export const SESSION_CACHE_MS = 5000;
/** Sessions remembered per instance (the least recently used go first). */
const SESSION_CACHE_MAX = 10_000;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');
const newToken = () => randomBytes(32).toString('base64url');

export interface Person {
  id: string;
  source: UserSource;
  name: string;
  email: string | null;
  role: Role;
  createdAt: number;
  lastSignInAt: number | null;
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

const toPerson = (row: UserRow): Person => ({
  id: row.id,
  source: row.source,
  name: row.display_name,
  email: row.email,
  role: row.role,
  createdAt: row.created_at.getTime(),
  lastSignInAt: row.last_sign_in_at ? row.last_sign_in_at.getTime() : null,
});

export interface AuditEntry {
  actor?: Pick<Identity, 'userId' | 'name'> | null;
  action: string;
  target?: string | null;
  detail?: Record<string, unknown> | null;
}

export interface AuditFilter {
  action?: string;
  /** Contains, case-insensitive, in the actor's name, the target or the action. */
  q?: string;
  before?: number;
  limit?: number;
}

export interface AuditView {
  id: number;
  at: number;
  actorId: string | null;
  actorName: string | null;
  action: string;
  target: string | null;
  detail: Record<string, unknown> | null;
}

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

export type StoredPerson = Person & { removed: boolean };

export interface LinkValues {
  name: string;
  email: string;
  passwordHash: string;
}

export interface IdentityStore {
  database: Promise<Database>;
  /** The person of `source`+`subject`, made or updated (name, email, and the role when given). */
  upsertPerson(person: ExternalPerson): Promise<StoredPerson>;
  findBySubject(source: UserSource, subject: string): Promise<StoredPerson | undefined>;
  /** Notes a sign-in. */
  touch(id: string): Promise<void>;
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
  ensureLocalAdmin(): Promise<void>;
  findPerson(id: string): Promise<StoredPerson | undefined>;
  findLocal(email: string): Promise<{ person: Person; passwordHash: string | null } | undefined>;
  countPeople(source?: UserSource): Promise<number>;
  /** A new session for `userId`: its token for the cookie. */
  createSession(userId: string): Promise<{ token: string; id: string; expiresAt: number }>;
  /** The identity of a session token, or undefined (unknown, expired, or the person was removed). */
  identityOfSession(token: string): Promise<Identity | undefined>;
  endSession(token: string): Promise<void>;
  endSessionsOf(userId: string): Promise<void>;
  /** The shared APP_PASSWORD account's stored password hash, and setting it. */
  passwordHashOf(userId: string): Promise<string | null | undefined>;
  setPasswordHash(userId: string, hash: string | null): Promise<void>;
  listPeople(): Promise<Person[]>;
  setRole(id: string, role: Role): Promise<Person | undefined>;
  /** Marks the person removed and ends every session of theirs. */
  removePerson(id: string): Promise<Person | undefined>;
  audit(entry: AuditEntry): Promise<void>;
  listAudit(filter?: AuditFilter): Promise<AuditView[]>;
}

export function createIdentityStore(
  database: Promise<Database>,
  now: () => number = Date.now,
): IdentityStore {
  const db = async (): Promise<Db> => (await database).db;
  /** Token hash -> the session's identity, and until when it may be used without asking again. */
  const sessions = new Map<string, { identity: Identity; until: number }>();
  const forgetSessionsOf = (userId: string) => {
    for (const [id, entry] of sessions) if (entry.identity.userId === userId) sessions.delete(id);
  };
  const columns = ['id', 'source', 'display_name', 'email', 'role', 'created_at', 'last_sign_in_at'] as const;

  async function insertAudit(trx: Db, entry: AuditEntry) {
    await trx
      .insertInto('audit_log')
      .values({
        actor_id: entry.actor?.userId ?? null,
        actor_name: entry.actor?.name ?? null,
        action: entry.action,
        target: entry.target ?? null,
        detail: entry.detail ? JSON.stringify(entry.detail) : null,
      })
      .execute();
  }

  return {
    database,
    async upsertPerson(person) {
      const d = await db();
      const existing = await d
        .selectFrom('users')
        .select([...columns, 'removed_at'])
        .where('source', '=', person.source)
        .where('subject', '=', person.subject)
        .executeTakeFirst();
      const signIn = new Date(now());
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
    },
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
    async touch(id) {
      await (
        await db()
      )
        .updateTable('users')
        .set({ last_sign_in_at: new Date(now()) })
        .where('id', '=', id)
        .execute();
    },
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
    async createSession(userId) {
      const token = newToken();
      const id = tokenHash(token);
      const expiresAt = now() + SESSION_MAX_AGE_S * 1000;
      const d = await db();
      await d.transaction().execute(async (trx) => {
        // Expired sessions go as new ones come in.
        await trx.deleteFrom('sessions').where('expires_at', '<=', new Date(now())).execute();
        await trx
          .insertInto('sessions')
          .values({ id, user_id: userId, expires_at: new Date(expiresAt) })
          .execute();
      });
      return { token, id, expiresAt };
    },
    async identityOfSession(token) {
      if (!token || token.length > 200) return undefined;
      const id = tokenHash(token);
      const cached = sessions.get(id);
      if (cached && cached.until > now()) {
        // Most recently used last: the first entry is the one to drop when the map is full.
        sessions.delete(id);
        sessions.set(id, cached);
        return cached.identity;
      }
      sessions.delete(id);
      const row = await (
        await db()
      )
        .selectFrom('sessions')
        .innerJoin('users', 'users.id', 'sessions.user_id')
        .select([
          'users.id as userId',
          'users.display_name',
          'users.role',
          'users.source',
          'sessions.expires_at',
        ])
        .where('sessions.id', '=', id)
        .where('sessions.expires_at', '>', new Date(now()))
        .where('users.removed_at', 'is', null)
        .executeTakeFirst();
      if (!row) return undefined;
      const identity: Identity = {
        userId: row.userId,
        name: row.display_name,
        role: row.role,
        source: row.source,
        sessionId: id,
      };
      // Never past the session's own end: it is refused from its last millisecond on, cached or not.
      sessions.set(id, { identity, until: Math.min(now() + SESSION_CACHE_MS, row.expires_at.getTime()) });
      if (sessions.size > SESSION_CACHE_MAX) sessions.delete(sessions.keys().next().value!);
      return identity;
    },
    async endSession(token) {
      sessions.delete(tokenHash(token));
      await (await db()).deleteFrom('sessions').where('id', '=', tokenHash(token)).execute();
    },
    async endSessionsOf(userId) {
      forgetSessionsOf(userId);
      await (await db()).deleteFrom('sessions').where('user_id', '=', userId).execute();
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
    async setPasswordHash(userId, hash) {
      await (await db()).updateTable('users').set({ password_hash: hash }).where('id', '=', userId).execute();
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
    async audit(entry) {
      await insertAudit(await db(), entry);
    },
    async listAudit(filter = {}) {
      let query = (await db()).selectFrom('audit_log').selectAll().orderBy('id', 'desc');
      if (filter.action) query = query.where('action', '=', filter.action);
      if (filter.before) query = query.where('id', '<', filter.before);
      if (filter.q) {
        const like = `%${filter.q.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
        query = query.where((eb) =>
          eb.or([
            eb(eb.fn('lower', ['actor_name']), 'like', like),
            eb(eb.fn('lower', ['target']), 'like', like),
            eb(eb.fn('lower', ['action']), 'like', like),
          ]),
        );
      }
      const rows = await query.limit(Math.min(Math.max(filter.limit ?? 100, 1), 500)).execute();
      return rows.map((row) => ({
        id: row.id,
        at: (row.at as Date).getTime(),
        actorId: row.actor_id,
        actorName: row.actor_name,
        action: row.action,
        target: row.target,
        detail: row.detail,
      }));
    },
  };
}
