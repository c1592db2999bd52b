// Signing in by OpenID Connect: /auth/start sends the browser to the identity provider with the
// flow's state, nonce and PKCE verifier in a signed, short-lived cookie; /auth/callback checks the
// answer, makes or updates the person (their role from the provider's groups) and signs them in.
import { Hono, type Context } from 'hono';
import { deleteCookie, getSignedCookie, setSignedCookie } from 'hono/cookie';
import { cleanDisplayName } from '../http/display-text';
import { NO_STORE } from '../http/no-store';
import type { OidcFlow, OidcSettings, createOidc } from '../identity/oidc';
import { messagePage } from './auth-page';
import { safeNext } from './paths';
import type { SignInKit } from './sign-in-kit';

const FLOW_COOKIE = 'mc_oidc';
const FLOW_MAX_AGE_S = 10 * 60;

type Oidc = ReturnType<typeof createOidc>;

export function oidcRoutes(kit: SignInKit, oidc: Oidc, settings: OidcSettings, flowSecret: string): Hono {
  const routes = new Hono();
  routes.get('/auth/start', async (c) => {
    const next = safeNext(c.req.query('next'));
    let started: Awaited<ReturnType<Oidc['start']>>;
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
        NO_STORE,
      );
    }
    // Lax: the provider's redirect back is a cross-site navigation, which a Strict cookie misses.
    await setSignedCookie(c, FLOW_COOKIE, JSON.stringify(started.flow), flowSecret, {
      httpOnly: true,
      sameSite: 'Lax',
      secure: kit.isSecure(c),
      path: '/auth/callback',
      maxAge: FLOW_MAX_AGE_S,
    });
    return c.redirect(started.url, 303);
  });
  routes.get('/auth/callback', (c) => callback(c, kit, oidc, settings, flowSecret));
  return routes;
}

/** The flow this browser started, taken from its cookie (gone whatever happens next). */
async function takeFlow(c: Context, kit: SignInKit, flowSecret: string): Promise<OidcFlow | undefined> {
  const raw = await getSignedCookie(c, flowSecret, FLOW_COOKIE);
  // One flow, one callback: the cookie goes whatever happens next, so a replayed state finds none.
  deleteCookie(c, FLOW_COOKIE, {
    path: '/auth/callback',
    httpOnly: true,
    sameSite: 'Lax',
    secure: kit.isSecure(c),
  });
  try {
    const flow = raw ? (JSON.parse(raw) as OidcFlow) : undefined;
    // Stryker disable next-line OptionalChaining: without a flow, reading its state throws here and is caught as none
    return flow?.state && flow.verifier && flow.nonce ? flow : undefined;
  } catch {
    return undefined;
  }
}

async function callback(c: Context, kit: SignInKit, oidc: Oidc, settings: OidcSettings, flowSecret: string) {
  const { store } = kit;
  const flow = await takeFlow(c, kit, flowSecret);
  const refuse = (message: string, status: 400 | 403 = 400) =>
    c.html(messagePage('Sign-in failed', message, 'alert'), status, NO_STORE);
  if (!flow)
    return refuse('This sign-in link has expired or was already used. Start again from the sign-in page.');
  const providerError = c.req.query('error');
  if (providerError)
    return refuse(
      `The identity provider refused the sign-in (${cleanDisplayName(providerError, 100)}).`,
      403,
    );
  const current = new URL(settings.redirectUri);
  current.search = new URL(c.req.url).search;
  let result: Awaited<ReturnType<Oidc['finish']>>;
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
  const before = await store.findBySubject('oidc', who.subject);
  if (before?.removed) return refuse('An admin has removed your access to this console.', 403);
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
  return kit.signInAs(c, person.id, safeNext(flow.next), 'page');
}
