// One cross-site rule for every request that changes something, whichever backend answers it (the
// proxy, the built-in emulator, the console's own routes): a page on another site must not act
// through a visitor's browser. A cross-site form can POST a JSON-looking text/plain body with no
// CORS preflight, and on loopback (open access) or behind a header-based sign-in no cookie stands
// in the way. Browsers say where a request comes from in Sec-Fetch-Site; one marked `cross-site`
// or `same-site` (another port or subdomain is another origin) is refused with 403. Requests
// without the header (curl, scripts, old browsers) pass here; the JSON-only routes refuse other
// content types (server/http/body-limits.ts, the proxy).
import type { Context, MiddlewareHandler } from 'hono';
import { NO_STORE } from './no-store';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** True when the browser says the request comes from a page of another origin. */
export function fromAnotherSite(c: Context): boolean {
  const site = c.req.header('sec-fetch-site');
  return Boolean(site && site !== 'same-origin' && site !== 'none');
}

interface SameSiteOptions {
  /**
   * Requests the rule does not apply to: the callback inbox, which the service (never a browser)
   * POSTs to and whose secret path, not a cookie, is what lets it in.
   */
  exempt?: (c: Context) => boolean;
  /**
   * Paths refused from another site whatever the method: `/v1/`, where even a read spends the
   * service token (the proxy's rule, held by the emulator too).
   */
  everyMethodUnder?: string;
}

export function sameSiteOnly(options: SameSiteOptions = {}): MiddlewareHandler {
  return async (c, next) => {
    if (!fromAnotherSite(c)) return next();
    const everyMethod =
      // Stryker disable next-line ConditionalExpression: without the option startsWith would look for "undefined", which no path (always "/…") starts with
      options.everyMethodUnder !== undefined && c.req.path.startsWith(options.everyMethodUnder);
    if ((SAFE_METHODS.has(c.req.method) && !everyMethod) || options.exempt?.(c)) return next();
    return c.json(
      {
        code: 403,
        msg: 'Changes, and any request to the service, can be made only from this console itself, not from another site',
      },
      403,
      NO_STORE,
    );
  };
}

/** The inbox's secret paths: `/callbacks/<secret>` and below. */
export const isCallbackInbox = (c: Context) => c.req.path.startsWith('/callbacks/');
