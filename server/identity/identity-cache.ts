// The identities this instance has just looked up by a secret (a session's cookie, an API token's
// hash), so that every request of a signed-in browser or a script does not ask the database: each
// is used for SESSION_CACHE_MS at most, never past the secret's own end, and the least recently used
// go first once `max` are held.
import type { Identity } from './request-identity';

/**
 * A request's identity is looked up in the database at most this often per instance: every request
 * of a signed-in browser (status polls every few seconds) needs it. What this instance changes
 * (sign-out, a role, a removal, a new name) takes effect at once; another instance's change, within this.
 */
export const SESSION_CACHE_MS = 5000;

/** The columns of `users` an identity is made of, as the session and token lookups select them. */
export interface IdentityColumns {
  userId: string;
  display_name: string;
  role: Identity['role'];
  source: Identity['source'];
}

/** The person of a user row as a request's identity, with what the secret adds (its session, its token). */
export function identityOfUser(
  row: IdentityColumns,
  secret: Pick<Identity, 'sessionId' | 'tokenId'>,
): Identity {
  return { userId: row.userId, name: row.display_name, role: row.role, source: row.source, ...secret };
}

export class IdentityCache {
  /** Secret's hash -> the identity, and until when it may be used without asking again; oldest use first. */
  private readonly entries = new Map<string, { identity: Identity; until: number }>();

  constructor(
    private readonly now: () => number,
    private readonly max: number,
  ) {}

  /** The identity remembered for `key` while it is fresh (and now the most recently used). */
  get(key: string): Identity | undefined {
    const cached = this.entries.get(key);
    this.entries.delete(key);
    if (!cached || cached.until <= this.now()) return undefined;
    this.entries.set(key, cached);
    return cached.identity;
  }

  /** Remembers `identity` for SESSION_CACHE_MS; never past `expiresAt`, from whose last millisecond it is refused. */
  set(key: string, identity: Identity, expiresAt: Date): void {
    this.entries.set(key, { identity, until: Math.min(this.now() + SESSION_CACHE_MS, expiresAt.getTime()) });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** Forgets every identity of `userId`: their next request asks the database. */
  forgetUser(userId: string): void {
    for (const [key, entry] of this.entries) if (entry.identity.userId === userId) this.entries.delete(key);
  }
}
