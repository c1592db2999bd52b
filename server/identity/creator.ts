// Who made a request: the verified person (server/identity/access.ts), never a name the browser
// declares (an `X-Console-User` header is ignored). Used by the team's record and the proxy's and
// the emulator's upload quotas.
import type { Context } from 'hono';
import { identityOf } from './request-identity';

/** A verified person (user id and display name); a bare name is recorded as unverified. */
export interface Creator {
  id: string | null;
  name: string;
}

/** The request's verified person, or null when it has none (the sign-in layer refuses those). */
export function creatorOf(c: Context): Creator | null {
  const who = identityOf(c);
  return who ? { id: who.userId, name: who.name } : null;
}
