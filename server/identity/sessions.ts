// Sessions in the database every instance shares: a session is a row, so signing out, removing a
// person or changing a role holds on every instance: at the next request on the instance that made
// the change, within SESSION_CACHE_MS on the others (each keeps the sessions it has just looked up
// in memory). The cookie holds a random token; the table holds its sha256 only.
import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/database';
import { IdentityCache, identityOfUser } from './identity-cache';
import type { Identity } from './request-identity';

export const SESSION_MAX_AGE_S = 7 * 24 * 3600;
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
  /** Token hash -> the session's identity, while it may be used without asking again. */
  const sessions = new IdentityCache(now, SESSION_CACHE_MAX);
  const forgetSessionsOf = (userId: string) => sessions.forgetUser(userId);
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
      if (cached) return cached;
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
      const identity = identityOfUser(row, { sessionId: id });
      sessions.set(id, identity, row.expires_at);
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
