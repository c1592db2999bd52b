// The single sign-on routes with the provider stubbed: what /auth/start keeps in its signed cookie and
// where it sends the browser, and every way /auth/callback refuses or signs someone in. The provider's
// own checks (state, nonce, PKCE, the ID token) are server/identity/oidc.test.ts's.
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { createOidc, OidcFlow } from '../identity/oidc';
import { createIdentityStore } from '../identity/store';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { oidcSettings } from '../testing/oidc-settings';
import { oidcRoutes } from './oidc-routes';
import { createSignInKit, SESSION_COOKIE } from './sign-in-kit';

type Oidc = ReturnType<typeof createOidc>;
type Finish = Oidc['finish'];

const SECRET = 'oidc-routes-test-secret';
const FLOW: OidcFlow = { state: 's1', nonce: 'n1', verifier: 'v1', next: '/tasks?page=2' };

function setUp(finish: Finish = async () => ({ refused: 'unused' }), publicBaseUrl?: string) {
  const store = createIdentityStore(testDatabase());
  const start = vi.fn(async (next: string) => ({
    url: 'https://idp.example.com/authorize?x=1',
    flow: { ...FLOW, next },
  }));
  const oidc = { start, finish: vi.fn(finish) } as unknown as Oidc;
  const app = new Hono();
  app.route('/', oidcRoutes(createSignInKit(store, publicBaseUrl), oidc, oidcSettings(), SECRET));
  return { app, store, start, finish: oidc.finish as ReturnType<typeof vi.fn> };
}

/** The signed flow cookie /auth/start sets, as a Cookie header. */
async function startedCookie(app: Hono, next = '/tasks?page=2'): Promise<string> {
  const res = await app.request(`/auth/start?next=${encodeURIComponent(next)}`);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

const callback = (app: Hono, query: string, cookie?: string, url = 'http://console.test') =>
  app.request(`${url}/auth/callback${query}`, { headers: cookie ? { cookie } : {} });

const person = (
  over: Partial<{
    subject: string;
    name: string;
    email: string | null;
    role: 'admin' | 'creator' | 'viewer';
  }> = {},
) => ({
  person: { subject: 'sub-1', name: 'Ada', email: 'ada@example.com', ...over },
});

beforeEach(async () => {
  await resetTestDatabase();
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('GET /auth/start', () => {
  it('sends the browser to the provider with the flow in a signed, HttpOnly, Lax cookie for the callback only, 10 minutes', async () => {
    const { app, start } = setUp();
    const res = await app.request('/auth/start?next=%2Ftasks%3Fpage%3D2');
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('https://idp.example.com/authorize?x=1');
    expect(start).toHaveBeenCalledWith('/tasks?page=2');
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^mc_oidc=/);
    expect(decodeURIComponent(cookie.split(';')[0]!)).toContain(
      JSON.stringify({ ...FLOW, next: '/tasks?page=2' }),
    );
    expect(cookie).toContain('Max-Age=600');
    expect(cookie).toContain('Path=/auth/callback');
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).not.toContain('Secure');
  });

  it('keeps only a same-site next, and marks the cookie Secure behind https', async () => {
    const { app, start } = setUp(undefined, 'https://console.example.com');
    const res = await app.request('/auth/start?next=https%3A%2F%2Fevil.example%2F');
    expect(start).toHaveBeenCalledWith('/');
    expect(res.headers.get('set-cookie')).toContain('Secure');
  });

  it('answers 503 with a page when the provider cannot be reached, and logs the issuer', async () => {
    const { app, start } = setUp();
    start.mockRejectedValueOnce(new Error('connect ECONNREFUSED'));
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await app.request('/auth/start');
    expect(res.status).toBe(503);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('set-cookie')).toBeNull();
    const page = await res.text();
    expect(page).toContain('Sign-in unavailable');
    expect(page).toContain('The identity provider cannot be reached right now. Try again in a minute.');
    expect(page).toContain('role="alert"');
    expect(error).toHaveBeenCalledWith(
      '[auth] single sign-on: cannot reach https://idp.example.com: connect ECONNREFUSED',
    );
  });
});

describe('GET /auth/callback', () => {
  it('signs a new person in with the default role, hands the flow and the query to the provider, and goes on to next', async () => {
    const { app, store, finish } = setUp(async () => person());
    const cookie = await startedCookie(app);
    const res = await callback(app, '?code=c&state=s1', cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.text()).toContain('url=/tasks?page=2');
    const [current, flow] = finish.mock.calls[0]! as [URL, OidcFlow];
    expect(current.href).toBe('https://console.example.com/auth/callback?code=c&state=s1');
    expect(flow).toEqual(FLOW);
    const cookies = res.headers.getSetCookie();
    // The flow cookie goes, on the path it was set for; the session begins.
    expect(cookies.find((c) => c.startsWith('mc_oidc=;'))).toMatch(
      /Path=\/auth\/callback.*HttpOnly.*SameSite=Lax/,
    );
    expect(cookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBeDefined();
    const stored = await store.findBySubject('oidc', 'sub-1');
    expect(stored).toMatchObject({ name: 'Ada', email: 'ada@example.com', role: 'viewer' });
    const log = await store.listAudit();
    expect(log.map((e) => [e.action, e.actorName, e.detail])).toEqual([
      ['sign-in', 'Ada', { method: 'oidc' }],
    ]);
  });

  it("gives the provider's role, and logs a role changed by the provider; none when it stays", async () => {
    const { app, store, finish } = setUp(async () => person({ role: 'creator' }));
    await callback(app, '?code=c', await startedCookie(app));
    expect(await store.findBySubject('oidc', 'sub-1')).toMatchObject({ role: 'creator' });
    finish.mockImplementation(async () => person({ role: 'admin' }));
    await callback(app, '?code=c', await startedCookie(app));
    await callback(app, '?code=c', await startedCookie(app));
    const log = await store.listAudit();
    expect(log.map((e) => e.action)).toEqual(['sign-in', 'sign-in', 'role.change', 'sign-in']);
    expect(log[2]).toMatchObject({
      actorName: 'Ada',
      target: 'Ada',
      detail: { from: 'creator', to: 'admin', by: 'identity provider' },
    });
  });

  it('gives a new person the default role: a viewer when it is none, else the one set', async () => {
    const store = createIdentityStore(testDatabase());
    const oidc = {
      start: async (next: string) => ({ url: 'https://idp.example.com/a', flow: { ...FLOW, next } }),
      finish: async () => person(),
    } as unknown as Oidc;
    const app = new Hono();
    app.route(
      '/',
      oidcRoutes(createSignInKit(store, undefined), oidc, oidcSettings({ defaultRole: 'none' }), SECRET),
    );
    await callback(app, '?code=c', await startedCookie(app));
    expect(await store.findBySubject('oidc', 'sub-1')).toMatchObject({ role: 'viewer' });
    const creators = new Hono();
    creators.route(
      '/',
      oidcRoutes(createSignInKit(store, undefined), oidc, oidcSettings({ defaultRole: 'creator' }), SECRET),
    );
    (oidc as { finish: unknown }).finish = async () => person({ subject: 'sub-2' });
    await callback(creators, '?code=c', await startedCookie(creators));
    expect(await store.findBySubject('oidc', 'sub-2')).toMatchObject({ role: 'creator' });
  });

  it('refuses a callback without its flow cookie, with a forged one, or one missing a part, before asking the provider', async () => {
    const { app, finish } = setUp(async () => person());
    const expired = 'This sign-in link has expired or was already used. Start again from the sign-in page.';
    const good = await startedCookie(app);
    const forged = good.replace(
      /^mc_oidc=[^.]*/,
      `mc_oidc=${encodeURIComponent(JSON.stringify({ ...FLOW, state: 'x' }))}`,
    );
    for (const cookie of [undefined, forged, 'mc_oidc=garbage']) {
      const res = await callback(app, '?code=c', cookie);
      expect(res.status).toBe(400);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const page = await res.text();
      expect(page).toContain('Sign-in failed');
      expect(page).toContain(expired);
      expect(page).toContain('role="alert"');
    }
    expect(finish).not.toHaveBeenCalled();
  });

  it('refuses a flow that lacks its state, verifier or nonce, or is not JSON', async () => {
    const { hmacCookie } = await signer();
    const { app, finish } = setUp(async () => person());
    for (const flow of [
      { ...FLOW, state: '' },
      { ...FLOW, verifier: '' },
      { ...FLOW, nonce: '' },
    ]) {
      const res = await callback(app, '?code=c', await hmacCookie(JSON.stringify(flow)));
      expect(res.status).toBe(400);
    }
    expect((await callback(app, '?code=c', await hmacCookie('{not json'))).status).toBe(400);
    expect(finish).not.toHaveBeenCalled();
    // The signer itself makes cookies the route takes: the refusals above are the flows', not the signatures'.
    expect((await callback(app, '?code=c', await hmacCookie(JSON.stringify(FLOW)))).status).toBe(200);
  });

  it("answers 403 with the provider's error, cut to 100 characters, without asking it to finish", async () => {
    const { app, finish } = setUp(async () => person());
    const res = await callback(app, `?error=${'e'.repeat(100)}f`, await startedCookie(app));
    expect(res.status).toBe(403);
    const page = await res.text();
    expect(page).toContain(`The identity provider refused the sign-in (${'e'.repeat(100)}).`);
    expect(finish).not.toHaveBeenCalled();
    const exact = await callback(app, `?error=${'e'.repeat(99)}f`, await startedCookie(app));
    expect(await exact.text()).toContain(`(${'e'.repeat(99)}f).`);
  });

  it('answers 400 when the answer cannot be verified, logging and auditing the reason cut to 200 characters', async () => {
    const reason = 'r'.repeat(201);
    const { app, store } = setUp(async () => {
      throw new Error(reason);
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const res = await callback(app, '?code=c', await startedCookie(app));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain(
      'The answer of the identity provider could not be verified. Start again from the sign-in page.',
    );
    expect(warn).toHaveBeenCalledWith(`[auth] single sign-on refused: ${reason}`);
    const [entry] = await store.listAudit();
    expect(entry).toMatchObject({
      action: 'sign-in.refused',
      detail: { method: 'oidc', reason: 'r'.repeat(200) },
    });
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
  });

  it("answers 403 with the claims' refusal, audited", async () => {
    const { app, store } = setUp(async () => ({ refused: 'Your e-mail domain is not allowed.' }));
    const res = await callback(app, '?code=c', await startedCookie(app));
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('Your e-mail domain is not allowed.');
    const [entry] = await store.listAudit();
    expect(entry).toMatchObject({
      action: 'sign-in.refused',
      detail: { method: 'oidc', reason: 'Your e-mail domain is not allowed.' },
    });
    expect(await store.findBySubject('oidc', 'sub-1')).toBeUndefined();
  });

  it('refuses a person an admin removed, with 403 and no session', async () => {
    const { app, store } = setUp(async () => person());
    const made = await store.upsertPerson({
      source: 'oidc',
      subject: 'sub-1',
      name: 'Ada',
      email: null,
      defaultRole: 'viewer',
    });
    await store.removePerson(made.id);
    const res = await callback(app, '?code=c', await startedCookie(app));
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('An admin has removed your access to this console.');
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
  });
});

/** Signs a flow cookie the way hono/cookie's setSignedCookie does, with the routes' secret. */
async function signer() {
  const { serializeSigned } = await import('hono/utils/cookie');
  return {
    hmacCookie: async (value: string) => (await serializeSigned('mc_oidc', value, SECRET)).split(';')[0]!,
  };
}
