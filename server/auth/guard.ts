// The guard in front of everything but the sign-in pages: settles who the request is (a personal
// API token first, then whatever the ways in say), or answers 401, or sends a browser to /login.
import type { Context, MiddlewareHandler } from 'hono';
import { NO_STORE } from '../http/no-store';
import { refuseToken } from '../identity/access';
import {
  FOREIGN_TOKEN_MESSAGE,
  identityOfBearer,
  INVALID_TOKEN_MESSAGE,
  type ApiTokens,
} from '../identity/api-tokens';
import { IDENTITY_KEY, type Identity } from '../identity/request-identity';
import { isPublicPath } from './paths';

function wantsHtml(c: Context): boolean {
  return c.req.method === 'GET' && Boolean(c.req.header('accept')?.includes('text/html'));
}

export function createGuard(
  identify: (c: Context) => Promise<Identity | undefined>,
  apiTokens: ApiTokens | undefined,
): MiddlewareHandler {
  return async (c, next) => {
    if (isPublicPath(c.req.method, c.req.path)) return next();
    // A script's personal token first: it is what the request chose to be (server/identity/api-tokens.ts).
    const bearer = apiTokens
      ? await identityOfBearer(apiTokens, c.req.path, c.req.header('authorization'))
      : undefined;
    if (bearer === 'refused') return refuseToken(c, INVALID_TOKEN_MESSAGE);
    const identity = bearer && bearer !== 'foreign' ? bearer : await identify(c);
    if (identity) {
      c.set(IDENTITY_KEY as never, identity as never);
      return next();
    }
    if (bearer === 'foreign') return refuseToken(c, FOREIGN_TOKEN_MESSAGE);
    if (wantsHtml(c)) {
      const url = new URL(c.req.url);
      return c.redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`, 303);
    }
    return c.json({ code: 401, msg: 'Sign in to the console first' }, 401, NO_STORE);
  };
}
