// Which paths the sign-in leaves open, where a sign-in may send the browser next, and the bounds of
// the sign-in forms: the rules every way in shares.
import { accessRule } from '../identity/access';
import { LOGIN_CSS_PATH } from './auth-page';

/** A sign-in form is a password, an e-mail and a path; an account form a name too. */
export const LOGIN_BODY_MAX_BYTES = 16 * 1024;
/** Signing out reads no body: a stray one is still bounded. */
export const LOGOUT_BODY_MAX_BYTES = 1024;

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
