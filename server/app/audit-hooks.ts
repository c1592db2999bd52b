// Changes made by routes that do not write the audit log themselves (the emulator's settings, a
// task's kept files): a handler ahead of the route writes it once the route has answered ok.
import type { Context, MiddlewareHandler } from 'hono';
import { identityOf } from '../identity/request-identity';
import type { IdentityStore } from '../identity/store';

/** Audits `action` on `target(c)` after the next handlers, when they answered ok. */
export function auditAfter(
  identity: IdentityStore,
  action: string,
  target: (c: Context) => string,
): MiddlewareHandler {
  return async (c, next) => {
    await next();
    if (c.res.ok)
      await identity
        .audit({ actor: identityOf(c), action, target: target(c) })
        .catch((error: Error) => console.error(`[audit] ${error.message}`));
  };
}
