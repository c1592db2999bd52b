// Sign-in for the production server. Whoever reaches the server can spend the service token through
// the proxy, so everything is behind a verified identity except the sign-in pages themselves, the
// favicon, the emulator's public media and POST /callbacks/<secret> (its secret path protects it).
// An identity comes from, in this order: the TRUSTED_AUTH_HEADER of a TRUSTED_PROXIES peer, a
// server-side session (single sign-on, a local account, the APP_PASSWORD), or, on loopback with
// nothing configured, the local admin. The Node side then checks the role (server/identity/access.ts).
import { randomBytes } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { LOOPBACK_PROXIES, type TrustedProxies } from '../http/trusted-proxies';
import type { ApiTokens } from '../identity/api-tokens';
import { createOidc, type OidcSettings } from '../identity/oidc';
import { LOCAL_ADMIN, type Identity } from '../identity/request-identity';
import type { IdentityStore } from '../identity/store';
import { LoginRateLimiter } from './auth-rate-limit';
import { createGuard } from './guard';
import { linkRoutes } from './link-routes';
import { oidcRoutes } from './oidc-routes';
import { passwordRoutes, settleSharedPassword } from './password-routes';
import { createSignInKit, SESSION_COOKIE } from './sign-in-kit';
import { trustedHeaderIdentity } from './trusted-header';

export { isPublicPath, LOGIN_BODY_MAX_BYTES, LOGOUT_BODY_MAX_BYTES, safeNext } from './paths';
export { SESSION_COOKIE } from './sign-in-kit';

interface AuthOptions {
  store: IdentityStore;
  /** APP_PASSWORD: one shared password, signing in as one shared account. */
  password?: string;
  /** Everyone is the local admin (loopback with nothing configured, or ALLOW_OPEN_ACCESS=1). */
  open?: boolean;
  /** E-mail and password accounts (made from invitations and the set-up link). */
  localAccounts?: boolean;
  oidc?: OidcSettings;
  /** TRUSTED_AUTH_HEADER: the authenticated user's name, set by the proxy in front. */
  trustedHeader?: string;
  /** TRUSTED_AUTH_ADMINS: header values that are admins. */
  trustedHeaderAdmins?: string[];
  /** Signs the short-lived single sign-on cookie; random per process when unset. */
  sessionSecret?: string;
  /** `https://…` here makes cookies Secure even when TLS ends at a reverse proxy. */
  publicBaseUrl?: string;
  maxFailures?: number;
  /** Failed sign-ins from all clients together within the window before everyone waits. */
  maxFailuresTotal?: number;
  failureWindowMs?: number;
  /** Peers whose X-Forwarded-For and TRUSTED_AUTH_HEADER are believed (TRUSTED_PROXIES); loopback when unset. */
  trustedProxies?: TrustedProxies;
  now?: () => number;
  /** Personal API tokens: `Authorization: Bearer mct_…` on /v1 and /__console acts as its person. */
  apiTokens?: ApiTokens;
}

export interface Auth {
  /** /login, /logout, /login.css, /auth/start, /auth/callback, /invite/<token>, /setup/<token>. */
  routes: Hono;
  /** Settles who the request is (IDENTITY_KEY), or answers 401 / a redirect to /login. */
  guard: MiddlewareHandler;
  /** Whether a sign-in is asked for at all (false: everyone is the local admin). */
  required: boolean;
}

/** One Hono app per way in (password and accounts, single sign-on, one-time links), the trusted header, and the guard. */
export function createAuth(options: AuthOptions): Auth {
  const { store } = options;
  const kit = createSignInKit(store, options.publicBaseUrl);
  const sharedReady = settleSharedPassword(store, options.password);
  const fromHeader = options.trustedHeader
    ? trustedHeaderIdentity(store, {
        header: options.trustedHeader,
        admins: options.trustedHeaderAdmins,
        trustedProxies: options.trustedProxies ?? LOOPBACK_PROXIES,
      })
    : undefined;

  async function identify(c: Context): Promise<Identity | undefined> {
    const proxied = await fromHeader?.(c);
    if (proxied) return proxied;
    const token = getCookie(c, SESSION_COOKIE);
    // Stryker disable next-line ConditionalExpression: without a cookie the store finds no session either
    if (token) {
      await sharedReady;
      const session = await store.identityOfSession(token);
      if (session) return session;
    }
    return options.open ? LOCAL_ADMIN : undefined;
  }

  const limiter = new LoginRateLimiter(
    store.database,
    options.maxFailures ?? 5,
    options.failureWindowMs ?? 10 * 60_000,
    options.now ?? Date.now,
    options.maxFailuresTotal,
  );
  const routes = new Hono();
  // Stryker disable StringLiteral: '' and '/' mount the same routes
  routes.route(
    '/',
    passwordRoutes(kit, {
      password: options.password,
      localAccounts: options.localAccounts,
      sso: Boolean(options.oidc),
      required: !options.open,
      limiter,
      trustedProxies: options.trustedProxies,
      identify,
      sharedReady,
    }),
  );
  if (options.oidc) {
    const flowSecret = options.sessionSecret ?? randomBytes(32).toString('base64url');
    routes.route('/', oidcRoutes(kit, createOidc(options.oidc), options.oidc, flowSecret));
  }
  routes.route('/', linkRoutes(kit));
  // Stryker restore StringLiteral
  return { routes, guard: createGuard(identify, options.apiTokens), required: !options.open };
}
