// Sessions in the database every instance shares: a session is a row, so signing out, removing a
// person or changing a role holds on every instance: at the next request on the instance that made
// the change, within SESSION_CACHE_MS on the others (each keeps the sessions it has just looked up
// in memory). The cookie holds a random token; the table holds its sha256 only.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database';
import type { Identity } from './request-identity';

export const SESSION_MAX_AGE_S = 7 * 24 * 3600;
/**
 * A session's identity is looked up in the database at most this often per instance: every request
 * of a signed-in browser (status polls every few seconds) needs it. What this instance changes
 * (sign-out, a role, a removal, a new name) takes effect at once; another instance's change, within this.
 */
export const SESSION_CACHE_MS = 5000;
/** Sessions remembered per instance (the least recently used go first). */
const SESSION_CACHE_MAX = 10_000;

/** What the database keeps of a secret token (a session's, a link's): its sha256. */
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('base64url');
export const newToken = () => randomBytes(32).toString('base64url');

export interface SessionStore {
  /** A new session for `userId`: its token for the cookie. */
  createSession(userId: string): Promise<{ token: string; id: string; expiresAt: number }>;
  /** The identity of a session token, or undefined (unknown, expired, or the person was removed). */
  identityOfSession(token: string): Promise<Identity | undefined>;
  endSession(token: string): Promise<void>;
  endSessionsOf(userId: string): Promise<void>;
  /** Drops what this instance remembers of `userId`'s sessions: the next request asks the database. */
  forgetSessionsOf(userId: string): void;
}

export function createSessionStore(db: () => Promise<Db>, now: () => number): SessionStore {
  /** Token hash -> the session's identity, and until when it may be used without asking again. */
  const sessions = new Map<string, { identity: Identity; until: number }>();
  const forgetSessionsOf = (userId: string) => {
    for (const [id, entry] of sessions) if (entry.identity.userId === userId) sessions.delete(id);
  };
  return {
    forgetSessionsOf,
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
  };
}
