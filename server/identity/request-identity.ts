// Who is asking: the request's identity (the person, their role, where it came from). It is settled
// once per request by the sign-in layer in front (server/auth/auth.ts in `npm start`; the local admin
// in `npm run dev` on loopback) and handed to the Node side in its env under IDENTITY_KEY: never read
// from a header the browser sends.
import type { Context, MiddlewareHandler } from 'hono';
import { isPersonRole, type Role } from '../../src/api/roles';
import type { UserSource } from '../db/schema';
import { NO_STORE } from '../http/no-store';

export interface Identity {
  userId: string;
  /** The display name from the identity provider, the account or the proxy. */
  name: string;
  role: Role;
  source: UserSource | 'system';
  /** The server-side session, when the identity came from one (event streams are counted per session). */
  sessionId?: string;
  /** The personal API token the request came with (server/identity/api-tokens.ts), if any. */
  tokenId?: string;
}

/** Env (and context) key of the request's Identity. */
// Stryker disable next-line StringLiteral: a key's name, only ever used through this constant
export const IDENTITY_KEY = 'consoleIdentity';

/** Loopback with nothing configured: whoever runs the console on their own machine is its admin. */
export const LOCAL_ADMIN: Identity = {
  userId: 'local-admin',
  name: 'Local admin',
  role: 'admin',
  source: 'local-admin',
};

/** The server asking itself (a callback's status check): reads only. */
export const SYSTEM_IDENTITY: Identity = {
  userId: 'system',
  name: 'Console',
  role: 'viewer',
  source: 'system',
};

/** The request's identity: set by the access guard (server/identity/access.ts), else the env's. */
export function identityOf(c: Context): Identity | undefined {
  const own = c.get(IDENTITY_KEY as never) as Identity | undefined;
  if (own) return own;
  const fromEnv = (c.env as Record<string, unknown> | undefined)?.[IDENTITY_KEY];
  return isIdentity(fromEnv) ? fromEnv : undefined;
}

function isIdentity(value: unknown): value is Identity {
  const v = value as Identity | undefined;
  return Boolean(v && typeof v.userId === 'string' && typeof v.name === 'string' && isPersonRole(v.role));
}

/**
 * A route for a signed-in person's own list (stars, hidden tasks): 401 with `reason` when the
 * request has no user behind it, before its body is read.
 */
export const requireUserId =
  (reason: string): MiddlewareHandler =>
  async (c, next) =>
    identityOf(c)?.userId ? next() : c.json({ code: 401, msg: reason }, 401, NO_STORE);
