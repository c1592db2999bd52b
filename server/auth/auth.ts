// Sign-in for the production server. Whoever reaches the server can spend the service token through
// the proxy, so everything is behind a verified identity except the sign-in pages themselves, the
// favicon, the emulator's public media and POST /callbacks/<secret> (its secret path protects it).
// An identity comes from, in this order: the TRUSTED_AUTH_HEADER of a TRUSTED_PROXIES peer, a
// server-side session (single sign-on, a local account, the APP_PASSWORD), or, on loopback with
// nothing configured, the local admin. The Node side then checks the role (server/identity/access.ts).
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, getCookie, getSignedCookie, setCookie, setSignedCookie } from 'hono/cookie';
import { accountPage, LOGIN_CSS, LOGIN_CSS_PATH, loginPage, messagePage } from './auth-page';
import { LoginRateLimiter } from './auth-rate-limit';
import { clientKey } from '../http/client-address';
import { escapeHtml } from '../http/escape-html';
import { accessRule, refuseToken } from '../identity/access';
import {
  FOREIGN_TOKEN_MESSAGE,
  identityOfBearer,
  INVALID_TOKEN_MESSAGE,
  type ApiTokens,
} from '../identity/api-tokens';
import { createOidc, type OidcFlow, type OidcSettings } from '../identity/oidc';
import { hashPassword, passwordProblem, verifyPassword } from '../identity/passwords';
import { IDENTITY_KEY, LOCAL_ADMIN, type Identity } from '../identity/roles';
import { SESSION_MAX_AGE_S, type IdentityStore } from '../identity/store';
import { peerAddress } from '../http/request-origin';
import { cleanDisplayName } from '../http/display-text';
import { LOOPBACK_PROXIES, type TrustedProxies } from '../http/trusted-proxies';
import type { Role } from '../../src/api/roles';

export const SESSION_COOKIE = 'mc_session';
const FLOW_COOKIE = 'mc_oidc';
const FLOW_MAX_AGE_S = 10 * 60;
/** The shared APP_PASSWORD account: one person for the whole team (move to accounts or SSO). */
const SHARED_SUBJECT = 'app-password';

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

interface Auth {
  /** /login, /logout, /login.css, /auth/start, /auth/callback, /invite/<token>, /setup/<token>. */
  routes: Hono;
  /** Settles who the request is (IDENTITY_KEY), or answers 401 / a redirect to /login. */
  guard: MiddlewareHandler;
  /** Whether a sign-in is asked for at all (false: everyone is the local admin). */
  required: boolean;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

function passwordMatches(expected: string, candidate: string): boolean {
  // Hashing first gives equal lengths, so the comparison is constant-time whatever was typed.
  return timingSafeEqual(digest(expected), digest(candidate));
}

const SIGN_IN_PATHS = new Set([
  '/login',
  LOGIN_CSS_PATH,
  '/logout',
  '/favicon.svg',
  '/auth/start',
  '/auth/callback',
]);

export function isPublicPath(method: string, path: string): boolean {
  if (SIGN_IN_PATHS.has(path)) return true;
  if (/^\/(invite|setup)\/[^/]+$/.test(path)) return true;
  return accessRule(method, path).need === 'public';
}

/** Any origin: a path is resolved against it only to see where a browser would go. */
const PROBE_ORIGIN = 'http://next.invalid';

/**
 * Only same-site paths, so the sign-in page cannot be used to redirect elsewhere. The path is
 * normalised as a browser would resolve it (dot segments, `//`), and the normalised form is both
 * what is judged and what is returned: `/.//evil.example/x` resolves to `//evil.example/x`, which a
 * browser reads as another host.
 */
export function safeNext(raw: string | undefined): string {
  if (
    !raw ||
    !raw.startsWith('/') ||
    // Browsers drop tabs and newlines from URLs and read a backslash as a slash, so `/\t/evil` and
    // `/\\evil` would leave the site; any control character or backslash is refused outright.
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    /[\u0000-\u001f\u007f\\]/.test(raw)
  )
    return '/';
  let url: URL;
  try {
    url = new URL(raw, PROBE_ORIGIN);
  } catch {
    return '/';
  }
  const path = url.pathname;
  if (
    url.origin !== PROBE_ORIGIN ||
    path.startsWith('//') ||
    path.startsWith('/login') ||
    path.startsWith('/auth/')
  )
    return '/';
  return `${path}${url.search}${url.hash}`;
}

/** A sign-in form is a password, an e-mail and a path; an account form a name too. */
export const LOGIN_BODY_MAX_BYTES = 16 * 1024;
/** Signing out reads no body: a stray one is still bounded. */
export const LOGOUT_BODY_MAX_BYTES = 1024;

function wantsHtml(c: Context): boolean {
  return c.req.method === 'GET' && (c.req.header('accept') ?? '').includes('text/html');
}

const noStore = { 'cache-control': 'no-store' };

/**
 * A page that moves on to `next` itself: after the identity provider's redirect (a cross-site
 * navigation) a SameSite=Strict cookie is not sent on a plain redirect; a same-site page's own
 * navigation sends it.
 */
function continuePage(next: string): string {
  const href = escapeHtml(next);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${href}"><title>Signed in · Media Console</title><link rel="stylesheet" href="${LOGIN_CSS_PATH}"></head><body><main><p class="hint">Signed in. <a href="${href}">Continue to the console</a>.</p></main></body></html>`;
}

export function createAuth(options: AuthOptions): Auth {
  const now = options.now ?? Date.now;
  const { store } = options;
  const flowSecret = options.sessionSecret ?? randomBytes(32).toString('base64url');
  const limiter = new LoginRateLimiter(
    store.database,
    options.maxFailures ?? 5,
    options.failureWindowMs ?? 10 * 60_000,
    now,
    options.maxFailuresTotal,
  );
  const oidc = options.oidc ? createOidc(options.oidc) : undefined;
  const trustedProxies = options.trustedProxies ?? LOOPBACK_PROXIES;
  const trustedHeader = options.trustedHeader?.toLowerCase();
  const required = !options.open;

  // The shared account's sessions belong to its password: a changed (or removed) APP_PASSWORD ends them.
  const sharedReady = (async () => {
    const shared = await store.findBySubject('shared-password', SHARED_SUBJECT).catch(() => undefined);
    if (!shared) return;
    const stored = await store.passwordHashOf(shared.id);
    if (options.password && stored && (await verifyPassword(options.password, stored))) return;
    await store.endSessionsOf(shared.id);
    await store.setPasswordHash(shared.id, options.password ? await hashPassword(options.password) : null);
  })().catch((error: unknown) => console.error(`[auth] ${(error as Error).message}`));

  const isSecure = (c: Context) =>
    options.publicBaseUrl?.startsWith('https:') ||
    new URL(c.req.url).protocol === 'https:' ||
    c.req.header('x-forwarded-proto') === 'https';

  async function signInAs(c: Context, userId: string, next: string, how: 'redirect' | 'page') {
    // A new token at every sign-in: a cookie planted before (session fixation) is ended, never kept.
    const before = getCookie(c, SESSION_COOKIE);
    if (before) await store.endSession(before);
    const session = await store.createSession(userId);
    setCookie(c, SESSION_COOKIE, session.token, {
      httpOnly: true,
      sameSite: 'Strict',
      secure: isSecure(c),
      path: '/',
      maxAge: SESSION_MAX_AGE_S,
    });
    if (how === 'page') return c.html(continuePage(next), 200, noStore);
    return c.redirect(next, 303);
  }

  async function fromTrustedHeader(c: Context): Promise<Identity | undefined> {
    if (!trustedHeader) return undefined;
    const value = c.req.header(trustedHeader)?.trim();
    if (!value) return undefined;
    // Believed only from a trusted proxy: anyone else could simply send the header.
    const peer = peerAddress(c);
    if (!peer || !trustedProxies(peer)) return undefined;
    const subject = cleanDisplayName(value, 254);
    if (!subject) return undefined;
    const person = await store.upsertPerson({
      source: 'proxy',
      subject,
      name: subject,
      email: subject.includes('@') ? subject.toLowerCase() : null,
      ...(options.trustedHeaderAdmins?.includes(subject) ? { role: 'admin' as Role } : {}),
      defaultRole: 'viewer',
      touch: false,
    });
    if (person.removed) return undefined;
    return { userId: person.id, name: person.name, role: person.role, source: 'proxy' };
  }

  async function identify(c: Context): Promise<Identity | undefined> {
    const proxied = await fromTrustedHeader(c);
    if (proxied) return proxied;
    const token = getCookie(c, SESSION_COOKIE);
    if (token) {
      await sharedReady;
      const session = await store.identityOfSession(token);
      if (session) return session;
    }
    return options.open ? LOCAL_ADMIN : undefined;
  }

  const routes = new Hono();
  routes.get(LOGIN_CSS_PATH, (c) =>
    c.body(LOGIN_CSS, 200, {
      'content-type': 'text/css; charset=utf-8',
      'cache-control': 'public, max-age=3600',
    }),
  );

  const methods = async () => ({
    sso: Boolean(oidc),
    shared: Boolean(options.password),
    local: Boolean(options.localAccounts) && (await store.countPeople('local')) > 0,
  });
  const page = async (
    c: Context,
    next: string,
    error?: string,
    status: 200 | 401 | 403 | 429 = 200,
    email?: string,
  ) => c.html(loginPage({ next, error, email, ...(await methods()) }), status, noStore);

  routes.get('/login', async (c) => {
    const next = safeNext(c.req.query('next'));
    if (!required || (await identify(c))) return c.redirect(next, 303);
    return page(c, next);
  });

  const formLimit = bodyLimit({
    maxSize: LOGIN_BODY_MAX_BYTES,
    onError: (c) => c.text('The sign-in form is too large', 413),
  });
  const readForm = async (c: Context) => {
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    const field = (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');
    return field;
  };

  routes.post('/login', formLimit, async (c) => {
    const field = await readForm(c);
    const next = safeNext(field('next') || undefined);
    const key = clientKey(c, options.trustedProxies);
    const wait = await limiter.retryAfterSeconds(key);
    if (wait > 0) {
      c.header('retry-after', String(wait));
      return page(c, next, `Too many attempts. Try again in ${Math.ceil(wait / 60)} minute(s).`, 429);
    }
    const password = field('password');
    if (field('method') === 'local' && options.localAccounts) {
      const email = field('email').trim().toLowerCase().slice(0, 254);
      const found = email ? await store.findLocal(email) : undefined;
      if (!(await verifyPassword(password, found?.passwordHash)) || !found) {
        await limiter.fail(key);
        return page(c, next, 'That e-mail and password do not match an account.', 401, email);
      }
      await limiter.reset(key);
      await store.touch(found.person.id);
      await store.audit({
        actor: { userId: found.person.id, name: found.person.name },
        action: 'sign-in',
        detail: { method: 'local' },
      });
      return signInAs(c, found.person.id, next, 'redirect');
    }
    if (!options.password || !passwordMatches(options.password, password)) {
      await limiter.fail(key);
      return page(c, next, 'That password is not correct.', 401);
    }
    await limiter.reset(key);
    const person = await store.upsertPerson({
      source: 'shared-password',
      subject: SHARED_SUBJECT,
      name: 'Team (shared password)',
      // Everyone had every power with the shared password; admins may lower it.
      defaultRole: 'admin',
    });
    if (person.removed)
      return page(c, next, 'The team password has been turned off: ask an admin for an account.', 403);
    await sharedReady;
    if (!(await store.passwordHashOf(person.id)))
      await store.setPasswordHash(person.id, await hashPassword(options.password));
    await store.audit({
      actor: { userId: person.id, name: person.name },
      action: 'sign-in',
      detail: { method: 'shared-password' },
    });
    return signInAs(c, person.id, next, 'redirect');
  });

  const noBody = bodyLimit({
    maxSize: LOGOUT_BODY_MAX_BYTES,
    onError: (c) => c.text('Signing out takes no form', 413),
  });
  routes.post('/logout', noBody, async (c) => {
    const token = getCookie(c, SESSION_COOKIE);
    if (token) await store.endSession(token);
    deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Strict', secure: isSecure(c) });
    return c.redirect('/login', 303);
  });

  if (oidc && options.oidc) {
    const settings = options.oidc;
    routes.get('/auth/start', async (c) => {
      const next = safeNext(c.req.query('next'));
      let started: Awaited<ReturnType<typeof oidc.start>>;
      try {
        started = await oidc.start(next);
      } catch (error) {
        console.error(`[auth] single sign-on: cannot reach ${settings.issuer}: ${(error as Error).message}`);
        return c.html(
          messagePage(
            'Sign-in unavailable',
            'The identity provider cannot be reached right now. Try again in a minute.',
            'alert',
          ),
          503,
          noStore,
        );
      }
      // Lax: the provider's redirect back is a cross-site navigation, which a Strict cookie misses.
      await setSignedCookie(c, FLOW_COOKIE, JSON.stringify(started.flow), flowSecret, {
        httpOnly: true,
        sameSite: 'Lax',
        secure: isSecure(c),
        path: '/auth/callback',
        maxAge: FLOW_MAX_AGE_S,
      });
      return c.redirect(started.url, 303);
    });

    routes.get('/auth/callback', async (c) => {
      const raw = await getSignedCookie(c, flowSecret, FLOW_COOKIE);
      // One flow, one callback: the cookie goes whatever happens next, so a replayed state finds none.
      deleteCookie(c, FLOW_COOKIE, {
        path: '/auth/callback',
        httpOnly: true,
        sameSite: 'Lax',
        secure: isSecure(c),
      });
      let flow: OidcFlow | undefined;
      try {
        flow = raw ? (JSON.parse(raw) as OidcFlow) : undefined;
      } catch {
        flow = undefined;
      }
      const refuse = (message: string, status: 400 | 403 = 400) =>
        c.html(messagePage('Sign-in failed', message, 'alert'), status, noStore);
      if (!flow?.state || !flow.verifier || !flow.nonce)
        return refuse(
          'This sign-in link has expired or was already used. Start again from the sign-in page.',
        );
      const providerError = c.req.query('error');
      if (providerError)
        return refuse(
          `The identity provider refused the sign-in (${cleanDisplayName(providerError, 100)}).`,
          403,
        );
      const current = new URL(settings.redirectUri);
      current.search = new URL(c.req.url).search;
      let result: Awaited<ReturnType<typeof oidc.finish>>;
      try {
        result = await oidc.finish(current, flow);
      } catch (error) {
        console.warn(`[auth] single sign-on refused: ${(error as Error).message}`);
        await store.audit({
          action: 'sign-in.refused',
          detail: { method: 'oidc', reason: (error as Error).message.slice(0, 200) },
        });
        return refuse(
          'The answer of the identity provider could not be verified. Start again from the sign-in page.',
        );
      }
      if ('refused' in result) {
        await store.audit({ action: 'sign-in.refused', detail: { method: 'oidc', reason: result.refused } });
        return refuse(result.refused, 403);
      }
      const { person: who } = result;
      if ((await store.findBySubject('oidc', who.subject))?.removed)
        return refuse('An admin has removed your access to this console.', 403);
      const before = await store.findBySubject('oidc', who.subject);
      const person = await store.upsertPerson({
        source: 'oidc',
        subject: who.subject,
        name: who.name,
        email: who.email,
        ...(who.role && { role: who.role }),
        defaultRole: settings.defaultRole === 'none' ? 'viewer' : settings.defaultRole,
      });
      if (before && before.role !== person.role)
        await store.audit({
          actor: { userId: person.id, name: person.name },
          action: 'role.change',
          target: person.name,
          detail: { from: before.role, to: person.role, by: 'identity provider' },
        });
      await store.audit({
        actor: { userId: person.id, name: person.name },
        action: 'sign-in',
        detail: { method: 'oidc' },
      });
      return signInAs(c, person.id, safeNext(flow.next), 'page');
    });
  }

  // Local accounts from one-time links: an invitation (any role) or the first admin's set-up.
  const linkPage = (
    c: Context,
    token: string,
    purpose: 'invite' | 'setup',
    error?: string,
    values: { name?: string; email?: string } = {},
    status: 200 | 400 = 200,
  ) =>
    c.html(
      accountPage({
        title: purpose === 'setup' ? 'Set up the first admin' : 'Join the team',
        intro:
          purpose === 'setup'
            ? 'This one-time link makes the first admin account of this console.'
            : 'You were invited to this console. Choose your name and a password.',
        action: `/${purpose}/${token}`,
        error,
        ...values,
      }),
      status,
      noStore,
    );
  for (const purpose of ['invite', 'setup'] as const) {
    routes.get(`/${purpose}/:token`, async (c) => {
      const token = c.req.param('token');
      const link = await store.findLink(token, purpose);
      if (!link)
        return c.html(
          messagePage(
            'Link not valid',
            'This link has expired or was already used. Ask an admin for a new one.',
          ),
          404,
          noStore,
        );
      return linkPage(c, token, purpose, undefined, { email: link.email ?? '' });
    });
    routes.post(`/${purpose}/:token`, formLimit, async (c) => {
      const token = c.req.param('token');
      const field = await readForm(c);
      const name = cleanDisplayName(field('name'));
      const email = field('email').trim().toLowerCase().slice(0, 254);
      const password = field('password');
      const link = await store.findLink(token, purpose);
      if (!link)
        return c.html(
          messagePage(
            'Link not valid',
            'This link has expired or was already used. Ask an admin for a new one.',
          ),
          404,
          noStore,
        );
      const problem =
        (!name && 'Enter your name.') ||
        (!/^[^\s@]+@[^\s@]+$/.test(email) && 'Enter an e-mail address.') ||
        (link.email && link.email !== email && `This invitation is for ${link.email}.`) ||
        passwordProblem(password) ||
        ((await store.findLocal(email)) && 'An account with this e-mail already exists: sign in instead.');
      if (problem) return linkPage(c, token, purpose, problem, { name, email }, 400);
      const person = await store.redeemLink(token, purpose, {
        name,
        email,
        passwordHash: await hashPassword(password),
      });
      if (!person)
        return c.html(
          messagePage('Link not valid', 'This link was used a moment ago. Ask an admin for a new one.'),
          404,
          noStore,
        );
      await store.audit({
        actor: { userId: person.id, name: person.name },
        action: purpose === 'setup' ? 'setup.admin' : 'invite.accept',
        target: person.name,
        detail: { role: person.role, email },
      });
      return signInAs(c, person.id, '/', 'redirect');
    });
  }

  const guard: MiddlewareHandler = async (c, next) => {
    if (isPublicPath(c.req.method, c.req.path)) return next();
    // A script's personal token first: it is what the request chose to be (server/identity/api-tokens.ts).
    const bearer = options.apiTokens
      ? await identityOfBearer(options.apiTokens, c.req.path, c.req.header('authorization'))
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
    return c.json({ code: 401, msg: 'Sign in to the console first' }, 401, noStore);
  };

  return { routes, guard, required };
}
