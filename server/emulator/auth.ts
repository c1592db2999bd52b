// Bearer authentication of /v1/* (section 5). The provider answers a missing or wrong token with
// HTTP 401 and "Authentication failed" (provider-notes); the emulator does the same.
import type { MiddlewareHandler } from 'hono';
import { timingSafeEqual } from 'node:crypto';
import { fail } from './envelope';

export function bearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer[ ]+(\S.*)$/i.exec(header?.trim() ?? '');
  const token = match?.[1]?.trim();
  return token ? token : undefined;
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** `expected()` is read per request so the token can be checked against the current options. */
export function requireBearer(expected: () => string | undefined): MiddlewareHandler {
  return async (c, next) => {
    const token = bearerToken(c.req.header('authorization'));
    const wanted = expected();
    if (!token || (wanted !== undefined && !sameToken(token, wanted))) {
      return fail(c, 401, 401, 'Authentication failed');
    }
    await next();
  };
}
