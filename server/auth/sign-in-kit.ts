// What every way of signing in shares: the session cookie it ends with, how a form is read and
// bounded, and whether the cookie must be Secure.
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getCookie, setCookie } from 'hono/cookie';
import { html } from 'hono/html';
import { NO_STORE } from '../http/no-store';
import { SESSION_MAX_AGE_S, type IdentityStore } from '../identity/store';
import { LOGIN_CSS_PATH } from './auth-page';
import { LOGIN_BODY_MAX_BYTES } from './paths';

export const SESSION_COOKIE = 'mc_session';

export interface SignInKit {
  store: IdentityStore;
  /** Whether cookies set on this request must be Secure (https here or at the proxy in front). */
  isSecure(c: Context): boolean;
  /** Starts a session for `userId` and sends the browser to `next`, by a redirect or by a page. */
  signInAs(c: Context, userId: string, next: string, how: 'redirect' | 'page'): Promise<Response>;
  /** The sign-in and account forms' body limit. */
  formLimit: MiddlewareHandler;
  /** The form's fields, each a string ('' when absent or not text). */
  readForm(c: Context): Promise<(name: string) => string>;
}

/**
 * A page that moves on to `next` itself: after the identity provider's redirect (a cross-site
 * navigation) a SameSite=Strict cookie is not sent on a plain redirect; a same-site page's own
 * navigation sends it.
 */
function continuePage(next: string) {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${next}"><title>Signed in · Media Console</title><link rel="stylesheet" href="${LOGIN_CSS_PATH}"></head><body><main><p class="hint">Signed in. <a href="${next}">Continue to the console</a>.</p></main></body></html>`;
}

export function createSignInKit(store: IdentityStore, publicBaseUrl: string | undefined): SignInKit {
  const isSecure = (c: Context) =>
    Boolean(
      publicBaseUrl?.startsWith('https:') ||
      new URL(c.req.url).protocol === 'https:' ||
      c.req.header('x-forwarded-proto') === 'https',
    );
  return {
    store,
    isSecure,
    async signInAs(c, userId, next, how) {
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
      if (how === 'page') return c.html(continuePage(next), 200, NO_STORE);
      return c.redirect(next, 303);
    },
    formLimit: bodyLimit({
      maxSize: LOGIN_BODY_MAX_BYTES,
      onError: (c) => c.text('The sign-in form is too large', 413),
    }),
    async readForm(c) {
      const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
      return (name: string) => (typeof form[name] === 'string' ? (form[name] as string) : '');
    },
  };
}
