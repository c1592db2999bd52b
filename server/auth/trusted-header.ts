// Signing in by a header: the reverse proxy in front authenticated the person and names them in
// TRUSTED_AUTH_HEADER. Believed only from a TRUSTED_PROXIES peer: anyone else could simply send it.
import type { Context } from 'hono';
import type { Role } from '../../src/api/roles';
import { cleanDisplayName } from '../http/display-text';
import { peerAddress } from '../http/request-origin';
import type { TrustedProxies } from '../http/trusted-proxies';
import type { Identity } from '../identity/request-identity';
import type { IdentityStore } from '../identity/store';

interface TrustedHeaderOptions {
  /** The header's name (any case). */
  header: string;
  /** Header values that are admins (TRUSTED_AUTH_ADMINS). */
  admins?: string[];
  trustedProxies: TrustedProxies;
}

/** Who the trusted header names, made a person on first sight (a viewer unless an admin). */
export function trustedHeaderIdentity(store: IdentityStore, options: TrustedHeaderOptions) {
  return async (c: Context): Promise<Identity | undefined> => {
    // Header names are matched in any case (the Fetch API's Headers); cleanDisplayName trims the value.
    const value = c.req.header(options.header);
    if (!value) return undefined;
    const peer = peerAddress(c);
    if (!peer || !options.trustedProxies(peer)) return undefined;
    const subject = cleanDisplayName(value, 254);
    if (!subject) return undefined;
    const person = await store.upsertPerson({
      source: 'proxy',
      subject,
      name: subject,
      email: subject.includes('@') ? subject.toLowerCase() : null,
      ...(options.admins?.includes(subject) ? { role: 'admin' as Role } : {}),
      defaultRole: 'viewer',
      touch: false,
    });
    if (person.removed) return undefined;
    return { userId: person.id, name: person.name, role: person.role, source: 'proxy' };
  };
}
