// Signing in by password: the sign-in page (GET /login, with whichever ways in are configured), its
// form for a local account's e-mail and password or the team's shared APP_PASSWORD (braked per
// client and for everyone, ./auth-rate-limit.ts), signing out, and the page's stylesheet.
import { createHash, timingSafeEqual } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { deleteCookie, getCookie } from 'hono/cookie';
import { clientKey } from '../http/client-address';
import { NO_STORE } from '../http/no-store';
import type { TrustedProxies } from '../http/trusted-proxies';
import { hashPassword, verifyPassword } from '../identity/passwords';
import type { IdentityStore } from '../identity/store';
import { LOGIN_CSS, LOGIN_CSS_PATH, loginPage } from './auth-page';
import type { LoginRateLimiter } from './auth-rate-limit';
import { LOGOUT_BODY_MAX_BYTES, safeNext } from './paths';
import { SESSION_COOKIE, type SignInKit } from './sign-in-kit';

/** The shared APP_PASSWORD account: one person for the whole team (move to accounts or SSO). */
const SHARED_SUBJECT = 'app-password';

interface PasswordRouteOptions {
  /** APP_PASSWORD, when the team shares one. */
  password?: string;
  localAccounts?: boolean;
  /** Whether single sign-on is offered (a button on the page). */
  sso: boolean;
  /** Whether anyone must sign in at all; when not, /login goes straight on. */
  required: boolean;
  limiter: LoginRateLimiter;
  trustedProxies?: TrustedProxies;
  /** Who the request already is, if anyone (a signed-in browser skips the page). */
  identify(c: Context): Promise<unknown>;
  /** Settled once the shared account's sessions match the current APP_PASSWORD. */
  sharedReady: Promise<void>;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

function passwordMatches(expected: string, candidate: string): boolean {
  // Hashing first gives equal lengths, so the comparison is constant-time whatever was typed.
  return timingSafeEqual(digest(expected), digest(candidate));
}

/** The shared account's sessions belong to its password: a changed (or removed) APP_PASSWORD ends them. */
export function settleSharedPassword(store: IdentityStore, password: string | undefined): Promise<void> {
  return (async () => {
    const shared = await store.findBySubject('shared-password', SHARED_SUBJECT).catch(() => undefined);
    if (!shared) return;
    const stored = await store.passwordHashOf(shared.id);
    if (password && stored && (await verifyPassword(password, stored))) return;
    await store.endSessionsOf(shared.id);
    await store.setPasswordHash(shared.id, password ? await hashPassword(password) : null);
  })().catch((error: unknown) => console.error(`[auth] ${(error as Error).message}`));
}

export function passwordRoutes(kit: SignInKit, options: PasswordRouteOptions): Hono {
  const { store } = kit;
  const routes = new Hono();
  routes.get(LOGIN_CSS_PATH, (c) =>
    c.body(LOGIN_CSS, 200, {
      'content-type': 'text/css; charset=utf-8',
      'cache-control': 'public, max-age=3600',
    }),
  );
  const page = async (
    c: Context,
    next: string,
    error?: string,
    status: 200 | 401 | 403 | 429 = 200,
    email?: string,
  ) => {
    const methods = {
      sso: options.sso,
      shared: Boolean(options.password),
      local: Boolean(options.localAccounts) && (await store.countPeople('local')) > 0,
    };
    return c.html(loginPage({ next, error, email, ...methods }), status, NO_STORE);
  };

  routes.get('/login', async (c) => {
    const next = safeNext(c.req.query('next'));
    if (!options.required || (await options.identify(c))) return c.redirect(next, 303);
    return page(c, next);
  });

  routes.post('/login', kit.formLimit, async (c) => {
    const field = await kit.readForm(c);
    const next = safeNext(field('next') || undefined);
    const key = clientKey(c, options.trustedProxies);
    const wait = await options.limiter.retryAfterSeconds(key);
    if (wait > 0) {
      c.header('retry-after', String(wait));
      return page(c, next, `Too many attempts. Try again in ${Math.ceil(wait / 60)} minute(s).`, 429);
    }
    if (field('method') === 'local' && options.localAccounts) return localSignIn(c, field, next, key);
    return sharedSignIn(c, field('password'), next, key);
  });

  async function localSignIn(c: Context, field: (name: string) => string, next: string, key: string) {
    const email = field('email').trim().toLowerCase().slice(0, 254);
    const found = email ? await store.findLocal(email) : undefined;
    if (!(await verifyPassword(field('password'), found?.passwordHash)) || !found) {
      await options.limiter.fail(key);
      return page(c, next, 'That e-mail and password do not match an account.', 401, email);
    }
    await options.limiter.reset(key);
    await store.touch(found.person.id);
    await store.audit({
      actor: { userId: found.person.id, name: found.person.name },
      action: 'sign-in',
      detail: { method: 'local' },
    });
    return kit.signInAs(c, found.person.id, next, 'redirect');
  }

  async function sharedSignIn(c: Context, password: string, next: string, key: string) {
    if (!options.password || !passwordMatches(options.password, password)) {
      await options.limiter.fail(key);
      return page(c, next, 'That password is not correct.', 401);
    }
    await options.limiter.reset(key);
    const person = await store.upsertPerson({
      source: 'shared-password',
      subject: SHARED_SUBJECT,
      name: 'Team (shared password)',
      // Everyone had every power with the shared password; admins may lower it.
      defaultRole: 'admin',
    });
    if (person.removed)
      return page(c, next, 'The team password has been turned off: ask an admin for an account.', 403);
    await options.sharedReady;
    if (!(await store.passwordHashOf(person.id)))
      await store.setPasswordHash(person.id, await hashPassword(options.password));
    await store.audit({
      actor: { userId: person.id, name: person.name },
      action: 'sign-in',
      detail: { method: 'shared-password' },
    });
    return kit.signInAs(c, person.id, next, 'redirect');
  }

  const noBody = bodyLimit({
    maxSize: LOGOUT_BODY_MAX_BYTES,
    onError: (c) => c.text('Signing out takes no form', 413),
  });
  routes.post('/logout', noBody, async (c) => {
    const token = getCookie(c, SESSION_COOKIE);
    if (token) await store.endSession(token);
    deleteCookie(c, SESSION_COOKIE, {
      path: '/',
      httpOnly: true,
      sameSite: 'Strict',
      secure: kit.isSecure(c),
    });
    return c.redirect('/login', 303);
  });
  return routes;
}
