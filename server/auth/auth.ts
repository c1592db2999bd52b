// Sign-in for the production server (APP_PASSWORD). Whoever reaches the server can spend the service
// token through the proxy, so everything is behind a session cookie except the sign-in page itself,
// the favicon, the emulator's sample media (server-side fetches carry no cookie) and POST
// /callbacks/<secret>, which the service must reach and which its secret path protects.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Hono, type Context, type MiddlewareHandler } from 'hono';
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie';
import { LOGIN_CSS, LOGIN_CSS_PATH, loginPage } from './auth-page';
import { LoginRateLimiter } from './auth-rate-limit';
import { clientKey } from '../http/client-address';
import { bodyLimit } from 'hono/body-limit';
import { memorySignedOutSessions, type SignedOutSessions } from './signed-out-sessions';
import { cleanDisplayName } from '../../src/api/display-name';
import type { TrustedProxies } from '../http/trusted-proxies';
import { SESSION_ID_KEY } from '../http/stream-limits';

export const SESSION_COOKIE = 'mc_session';
/** Context key of the signed-in user's name. */
export const SESSION_USER_KEY = 'consoleUser';
const SESSION_MAX_AGE_S = 7 * 24 * 3600;

export interface AuthOptions {
  password: string;
  /** HMAC key of session cookies; random per process when unset. */
  sessionSecret?: string;
  /** `https://…` here makes cookies Secure even when TLS ends at a reverse proxy. */
  publicBaseUrl?: string;
  maxFailures?: number;
  /** Failed sign-ins from all clients together within the window before everyone waits. */
  maxFailuresTotal?: number;
  failureWindowMs?: number;
  /** Peers whose X-Forwarded-For names the client (TRUSTED_PROXIES); loopback when unset. */
  trustedProxies?: TrustedProxies;
  now?: () => number;
  /** Where sign-outs are remembered; in memory when unset (tests). */
  signedOut?: SignedOutSessions;
}

export interface Auth {
  /** /login, /logout and /login.css. */
  routes: Hono;
  /** Lets signed-in requests and public paths through; answers the rest with 401 or a redirect. */
  guard: MiddlewareHandler;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

export function passwordMatches(expected: string, candidate: string): boolean {
  // Hashing first gives equal lengths, so the comparison is constant-time whatever was typed.
  return timingSafeEqual(digest(expected), digest(candidate));
}

export function isPublicPath(method: string, path: string): boolean {
  if (path === '/login' || path === LOGIN_CSS_PATH || path === '/logout' || path === '/favicon.svg')
    return true;
  if (method === 'POST' && /^\/callbacks\/[^/]+\/?$/.test(path)) return true;
  // The emulator's media are what the service would host publicly (result links, samples); its
  // settings are not: they steer the backend, so they stay behind the sign-in.
  if ((method === 'GET' || method === 'HEAD') && /^\/emulator\/(media|samples)\//.test(path)) return true;
  return false;
}

/** Only same-site paths, so the sign-in page cannot be used to redirect elsewhere. */
export function safeNext(raw: string | undefined): string {
  if (
    !raw ||
    !raw.startsWith('/') ||
    raw.startsWith('//') ||
    // Browsers drop tabs and newlines from URLs and read a backslash as a slash, so `/\t/evil` and
    // `/\\evil` would leave the site; any control character or backslash is refused outright.
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    /[\u0000-\u001f\u007f\\]/.test(raw) ||
    raw.startsWith('/login')
  )
    return '/';
  return raw;
}

/** A password and a `next` path fit many times over. */
export const LOGIN_BODY_MAX_BYTES = 16 * 1024;

function wantsHtml(c: Context): boolean {
  return c.req.method === 'GET' && (c.req.header('accept') ?? '').includes('text/html');
}

export function createAuth(options: AuthOptions): Auth {
  const now = options.now ?? Date.now;
  // Cookies are signed with a key derived from the secret AND the password, so changing
  // APP_PASSWORD signs everyone out, even with a fixed SESSION_SECRET.
  const secret = createHash('sha256')
    .update(`${options.sessionSecret ?? randomBytes(32).toString('base64url')}\0${options.password}`)
    .digest('base64url');
  const signedOut = options.signedOut ?? memorySignedOutSessions(now);
  const limiter = new LoginRateLimiter(
    options.maxFailures ?? 5,
    options.failureWindowMs ?? 10 * 60_000,
    now,
    options.maxFailuresTotal,
  );

  const isSecure = (c: Context) =>
    options.publicBaseUrl?.startsWith('https:') ||
    new URL(c.req.url).protocol === 'https:' ||
    c.req.header('x-forwarded-proto') === 'https';

  async function session(c: Context): Promise<{ id: string; expiresAt: number; name: string } | undefined> {
    const value = await getSignedCookie(c, secret, SESSION_COOKIE);
    if (!value) return undefined;
    const [id, expires, encodedName = ''] = value.split('.');
    const expiresAt = Number(expires);
    if (!id || !(expiresAt > now()) || (await signedOut.has(id))) return undefined;
    return { id, expiresAt, name: Buffer.from(encodedName, 'base64url').toString('utf8') };
  }

  const routes = new Hono();
  routes.get(LOGIN_CSS_PATH, (c) =>
    c.body(LOGIN_CSS, 200, {
      'content-type': 'text/css; charset=utf-8',
      'cache-control': 'public, max-age=3600',
    }),
  );

  const page = (c: Context, next: string, error?: string, status: 200 | 401 | 429 = 200, name?: string) =>
    c.html(loginPage({ next, error, name }), status, { 'cache-control': 'no-store' });

  routes.get('/login', async (c) => {
    const next = safeNext(c.req.query('next'));
    if (await session(c)) return c.redirect(next, 303);
    return page(c, next);
  });

  routes.post(
    '/login',
    // A sign-in form is a password and a path. Cut anything longer off while it streams, before any
    // check: a chunked body without a size must not be read whole (hono's bodyLimit counts bytes).
    bodyLimit({
      maxSize: LOGIN_BODY_MAX_BYTES,
      onError: (c) => c.text('The sign-in form is too large', 413),
    }),
    async (c) => {
      const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      const next = safeNext(typeof form.next === 'string' ? form.next : undefined);
      const key = clientKey(c, options.trustedProxies);
      const wait = limiter.retryAfterSeconds(key);
      if (wait > 0) {
        c.header('retry-after', String(wait));
        return page(c, next, `Too many attempts. Try again in ${Math.ceil(wait / 60)} minute(s).`, 429);
      }
      const password = typeof form.password === 'string' ? form.password : '';
      // The name the team sees on this user's tasks.
      const name = typeof form.name === 'string' ? cleanDisplayName(form.name) : '';
      if (!passwordMatches(options.password, password)) {
        limiter.fail(key);
        return page(c, next, 'That password is not correct.', 401, name);
      }
      limiter.reset(key);
      const id = randomBytes(16).toString('base64url');
      const value = `${id}.${now() + SESSION_MAX_AGE_S * 1000}.${Buffer.from(name).toString('base64url')}`;
      await setSignedCookie(c, SESSION_COOKIE, value, secret, {
        httpOnly: true,
        sameSite: 'Strict',
        secure: isSecure(c),
        path: '/',
        maxAge: SESSION_MAX_AGE_S,
      });
      return c.redirect(next, 303);
    },
  );

  const logout = async (c: Context) => {
    const current = await session(c);
    if (current) await signedOut.add(current.id, current.expiresAt);
    deleteCookie(c, SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'Strict', secure: isSecure(c) });
    return c.redirect('/login', 303);
  };
  routes.post('/logout', logout);

  const guard: MiddlewareHandler = async (c, next) => {
    if (isPublicPath(c.req.method, c.req.path)) return next();
    const current = await session(c);
    if (current) {
      // Event streams are capped per session (server/http/stream-limits.ts): only a verified one counts.
      (c as unknown as { set(key: string, value: unknown): void }).set(SESSION_ID_KEY, current.id);
      // The recorder takes the creator of a task from here first (server/tasks/record-traffic.ts).
      if (current.name)
        (c as unknown as { set(key: string, value: unknown): void }).set(SESSION_USER_KEY, current.name);
      return next();
    }
    if (wantsHtml(c)) {
      const url = new URL(c.req.url);
      return c.redirect(`/login?next=${encodeURIComponent(url.pathname + url.search)}`, 303);
    }
    return c.json({ code: 401, msg: 'Sign in to the console first' }, 401, { 'cache-control': 'no-store' });
  };

  return { routes, guard };
}
