// createAuth's wiring, in-process on the shared PGlite: which ways in it mounts for which options, and
// what the guard makes of a request with none of them. The ways in themselves have their own tests.
import { Hono } from 'hono';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { LOCAL_ADMIN, IDENTITY_KEY } from '../identity/request-identity';
import { createIdentityStore } from '../identity/store';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { oidcSettings } from '../testing/oidc-settings';
import { createAuth } from './auth';

type Options = Parameters<typeof createAuth>[0];

function appWith(options: Partial<Options>) {
  const auth = createAuth({ store: createIdentityStore(testDatabase()), ...options });
  const app = new Hono();
  app.route('/', auth.routes);
  app.use('*', auth.guard);
  app.get('/__console/me', (c) => c.json(c.get(IDENTITY_KEY as never)));
  return { app, auth };
}

const loopback = { incoming: { socket: { remoteAddress: '127.0.0.1' } } };

beforeEach(async () => {
  await resetTestDatabase();
});

describe('createAuth', () => {
  it('open: everyone is the local admin and no sign-in is required; closed: 401', async () => {
    const open = appWith({ open: true });
    expect(open.auth.required).toBe(false);
    expect(await (await open.app.request('/__console/me')).json()).toEqual(LOCAL_ADMIN);
    // A cookie of no session changes nothing: still the local admin.
    const stale = await open.app.request('/__console/me', { headers: { cookie: 'mc_session=gone' } });
    expect(await stale.json()).toEqual(LOCAL_ADMIN);
    expect((await open.app.request('/login')).status).toBe(303);
    const closed = appWith({});
    expect(closed.auth.required).toBe(true);
    expect((await closed.app.request('/__console/me')).status).toBe(401);
    expect((await closed.app.request('/login')).status).toBe(200);
  });

  it('believes the trusted header from a loopback proxy when no proxies are named, with its admins', async () => {
    const { app } = appWith({ trustedHeader: 'X-User', trustedHeaderAdmins: ['root'] });
    const me = (user: string, env = loopback) =>
      app.request('/__console/me', { headers: { 'x-user': user } }, env);
    expect(await (await me('root')).json()).toMatchObject({ name: 'root', role: 'admin', source: 'proxy' });
    expect(await (await me('ann')).json()).toMatchObject({ name: 'ann', role: 'viewer' });
    expect((await me('root', { incoming: { socket: { remoteAddress: '10.1.1.1' } } })).status).toBe(401);
  });

  it('mounts the single sign-on routes only when configured', async () => {
    expect((await appWith({}).app.request('/auth/start')).status).toBe(404);
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { app } = appWith({ oidc: oidcSettings({ issuer: 'http://127.0.0.1:9', allowHttp: true }) });
    // The provider cannot be reached (nothing listens there): the route answers for itself.
    expect((await app.request('/auth/start')).status).toBe(503);
    error.mockRestore();
    expect(await (await app.request('/login')).text()).toContain('Sign in with single sign-on');
    expect(await (await appWith({}).app.request('/login')).text()).not.toContain('single sign-on');
  });

  it('checks the flow cookie with SESSION_SECRET when it is set', async () => {
    const { serializeSigned } = await import('hono/utils/cookie');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { app } = appWith({
      oidc: oidcSettings({ issuer: 'http://127.0.0.1:9', allowHttp: true }),
      sessionSecret: 'the-session-secret',
    });
    const flow = JSON.stringify({ state: 's', nonce: 'n', verifier: 'v', next: '/' });
    const cookie = (await serializeSigned('mc_oidc', flow, 'the-session-secret')).split(';')[0]!;
    const res = await app.request('/auth/callback?code=c&state=s', { headers: { cookie } });
    // Its flow was taken: the provider's answer (unreachable) is what failed, not the cookie.
    expect(await res.text()).toContain('could not be verified');
    warn.mockRestore();
  });

  it('brakes after 5 failures by default, for 10 minutes', async () => {
    const clock = { now: Date.UTC(2026, 0, 1) };
    const { app } = appWith({ password: 'right password 1', now: () => clock.now });
    const attempt = () =>
      app.request(
        '/login',
        {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'password=wrong',
        },
        loopback,
      );
    for (let i = 0; i < 4; i++) expect((await attempt()).status).toBe(401);
    expect((await attempt()).status).toBe(401);
    const braked = await attempt();
    expect(braked.status).toBe(429);
    expect(braked.headers.get('retry-after')).toBe('600');
    clock.now += 10 * 60_000;
    expect((await attempt()).status).toBe(401);
  });
});
