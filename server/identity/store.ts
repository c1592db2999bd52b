// People, their sessions, one-time links and the audit log, in the database every instance shares:
// one store made of four (./users.ts, ./sessions.ts, ./links.ts, ./audit.ts), so the rest of the
// server asks one thing for who someone is.
import type { Database, Db } from '../db/database';
import { createAuditLog, type AuditLog } from './audit';
import { createLinkStore, type LinkStore } from './links';
import { createSessionStore, type SessionStore } from './sessions';
import { createUserStore, type UserStore } from './users';

export type { AuditEntry, AuditFilter, AuditView } from './audit';
export type { LinkValues } from './links';
export { SESSION_CACHE_MS } from './identity-cache';
export { SESSION_MAX_AGE_S } from './sessions';
export type { ExternalPerson, Person, StoredPerson } from './users';

export interface IdentityStore
  extends UserStore, Omit<SessionStore, 'forgetSessionsOf'>, LinkStore, AuditLog {
  database: Promise<Database>;
}

export function createIdentityStore(
  database: Promise<Database>,
  now: () => number = Date.now,
): IdentityStore {
  const db = async (): Promise<Db> => (await database).db;
  const { forgetSessionsOf, ...sessions } = createSessionStore(db, now);
  return {
    database,
    ...createUserStore(db, now, forgetSessionsOf),
    ...sessions,
    ...createLinkStore(db, now),
    ...createAuditLog(db),
  };
}
