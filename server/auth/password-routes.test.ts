// The sign-in page, the password form (a local account or the team's shared password), the brake in
// front of it and signing out: passwordRoutes in-process on the shared PGlite, with a clock.
import { Hono, type Context } from 'hono';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../identity/passwords';
import { createIdentityStore } from '../identity/store';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { LOGIN_CSS } from './auth-page';
import { LoginRateLimiter } from './auth-rate-limit';
import { passwordRoutes, settleSharedPassword } from './password-routes';
import { createSignInKit, SESSION_COOKIE } from './sign-in-kit';

const SHARED = 'the team password';
const LOCAL = 'ann local password';
const peer = { incoming: { socket: { remoteAddress: '203.0.113.9' } } };

interface Setup {
  password?: string;
  localAccounts?: boolean;
  sso?: boolean;
  required?: boolean;
  identify?: (c: Context) => Promise<unknown>;
}

function setUp(over: Setup = {}) {
  const clock = { now: Date.UTC(2026, 0, 1) };
  const store = createIdentityStore(testDatabase(), () => clock.now);
  const limiter = new LoginRateLimiter(testDatabase(), 2, 60_000, () => clock.now, 1000);
  const app = new Hono();
  app.route(
    '/',
    passwordRoutes(createSignInKit(store, undefined), {
      password: SHARED,
      localAccounts: true,
      sso: false,
      required: true,
      limiter,
      identify: async () => undefined,
      sharedReady: Promise.resolve(),
      ...over,
    }),
  );
  const login = (fields: Record<string, string>, cookie?: string) =>
    app.request(
      '/login',
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
        body: new URLSearchParams(fields).toString(),
      },
      peer,
    );
  return { app, store, clock, login };
}

async function ann(store: ReturnType<typeof setUp>['store']) {
  const person = await store.upsertPerson({
    source: 'local',
    subject: 'ann@example.com',
    name: 'Ann',
    email: 'ann@example.com',
    defaultRole: 'creator',
  });
  await store.setPasswordHash(person.id, await hashPassword(LOCAL));
  return person;
}

beforeEach(async () => {
  await resetTestDatabase();
});

describe('the sign-in page', () => {
  it('serves its stylesheet, cached for an hour', async () => {
    const res = await setUp().app.request('/login.css');
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await res.text()).toBe(LOGIN_CSS);
  });

  it('goes straight on when no sign-in is required or the browser is signed in already', async () => {
    const free = await setUp({ required: false }).app.request('/login?next=%2Ftasks');
    expect(free.status).toBe(303);
    expect(free.headers.get('location')).toBe('/tasks');
    const signedIn = await setUp({ identify: async () => ({}) }).app.request(
      '/login?next=https://evil.example',
    );
    expect(signedIn.headers.get('location')).toBe('/');
  });

  it('offers the ways in set up: the account form only once an account exists', async () => {
    const { app, store } = setUp({ sso: true });
    const before = await app.request('/login?next=%2Fx');
    expect(before.status).toBe(200);
    expect(before.headers.get('cache-control')).toBe('no-store');
    const page = await before.text();
    expect(page).toContain('href="/auth/start?next=%2Fx"');
    expect(page).toContain('value="shared"');
    expect(page).not.toContain('value="local"');
    await ann(store);
    expect(await (await app.request('/login')).text()).toContain('value="local"');
    const none = await setUp({ password: undefined, localAccounts: false }).app.request('/login');
    expect(await none.text()).toContain('No way to sign in is set up yet');
  });
});

describe('signing in with a password', () => {
  it('signs a local account in: session, last seen, audit, on to next', async () => {
    const { store, login, clock } = setUp();
    const person = await ann(store);
    clock.now += 5000;
    const res = await login({ method: 'local', email: ' ANN@example.com ', password: LOCAL, next: '/tasks' });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/tasks');
    expect(res.headers.get('set-cookie')).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
    expect((await store.listPeople()).find((p) => p.id === person.id)).toMatchObject({
      lastSignInAt: clock.now,
    });
    expect((await store.listAudit())[0]).toMatchObject({
      action: 'sign-in',
      actorName: 'Ann',
      detail: { method: 'local' },
    }); // The sign-in cleared the client's own failure: one more is not yet the brake's two.
    const wrongThenRight = async () => {
      await login({ method: 'local', email: 'ann@example.com', password: 'wrong wrong wrong' });
      return login({ method: 'local', email: 'ann@example.com', password: LOCAL });
    };
    expect((await wrongThenRight()).status).toBe(303);
    expect((await wrongThenRight()).status).toBe(303);
  });

  it('refuses a wrong account password or an unknown e-mail with 401, keeping the e-mail', async () => {
    const { store, login } = setUp();
    await ann(store);
    for (const fields of [
      { method: 'local', email: 'ann@example.com', password: 'wrong wrong wrong' },
      { method: 'local', email: 'bob@example.com', password: LOCAL },
      { method: 'local', email: '', password: LOCAL },
    ]) {
      const res = await login(fields);
      expect(res.status).toBe(401);
      const page = await res.text();
      expect(page).toContain('That e-mail and password do not match an account.');
      expect(page).toContain(`value="${fields.email}"`);
      // Two failures brake this client: forget them between the cases.
      await (await testDatabase()).db.deleteFrom('sign_in_failures').execute();
    }
  });

  it('takes the team password as the shared admin account, its hash stored once; a wrong one is 401', async () => {
    const { store, login } = setUp();
    const wrong = await login({ password: 'not it' });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('That password is not correct.');
    const res = await login({ password: SHARED, next: '/a' });
    expect(res.headers.get('location')).toBe('/a');
    const shared = await store.findBySubject('shared-password', 'app-password');
    expect(shared).toMatchObject({ name: 'Team (shared password)', role: 'admin' });
    const hash = await store.passwordHashOf(shared!.id);
    expect(hash).toMatch(/^scrypt\$/);
    await login({ password: SHARED });
    expect(await store.passwordHashOf(shared!.id)).toBe(hash);
    expect((await store.listAudit())[0]).toMatchObject({
      action: 'sign-in',
      detail: { method: 'shared-password' },
    });
  });

  it('takes the account form as the team password when accounts are off, and refuses a removed team account', async () => {
    const { store, login } = setUp({ localAccounts: false });
    expect((await login({ method: 'local', email: 'x@example.com', password: SHARED })).status).toBe(303);
    const shared = await store.findBySubject('shared-password', 'app-password');
    await store.removePerson(shared!.id);
    const res = await login({ password: SHARED });
    expect(res.status).toBe(403);
    expect(await res.text()).toContain('The team password has been turned off: ask an admin for an account.');
    expect((await setUp({ password: undefined }).login({ password: '' })).status).toBe(401);
  });

  it('brakes a client at its limit with 429, Retry-After and whole minutes; a sign-in clears its own failures', async () => {
    const { login, clock } = setUp();
    expect((await login({ password: 'x' })).status).toBe(401);
    expect((await login({ password: SHARED })).status).toBe(303);
    expect((await login({ password: 'x' })).status).toBe(401);
    expect((await login({ password: 'x' })).status).toBe(401);
    const braked = await login({ password: SHARED });
    expect(braked.status).toBe(429);
    expect(braked.headers.get('retry-after')).toBe('60');
    expect(await braked.text()).toContain('Too many attempts. Try again in 1 minute(s).');
    clock.now += 59_000;
    const late = await login({ password: SHARED });
    expect(late.headers.get('retry-after')).toBe('1');
    expect(await late.text()).toContain('Try again in 1 minute(s).');
    clock.now += 1000;
    expect((await login({ password: SHARED })).status).toBe(303);
  });
});

describe('signing out', () => {
  it('ends the session, clears the cookie and goes to /login; a body is bounded at 1 KB', async () => {
    const { app, store, login } = setUp();
    const cookie = (await login({ password: SHARED })).headers.get('set-cookie')!.split(';')[0]!;
    const out = (body?: string) => app.request('/logout', { method: 'POST', headers: { cookie }, body });
    const res = await out('x'.repeat(1024));
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login');
    expect(res.headers.get('set-cookie')).toMatch(/^mc_session=;.*Path=\/.*HttpOnly.*SameSite=Strict/);
    expect(await store.identityOfSession(cookie.split('=')[1]!)).toBeUndefined();
    const big = await out('x'.repeat(1025));
    expect(big.status).toBe(413);
    expect(await big.text()).toBe('Signing out takes no form');
    expect((await app.request('/logout', { method: 'POST' })).status).toBe(303);
  });
});

describe('settleSharedPassword', () => {
  it('ends the shared sessions when the password changed or went, and keeps them when it did not', async () => {
    const { store, login } = setUp();
    const res = await login({ password: SHARED });
    const first = res.headers.get('set-cookie')!.split(';')[0]!.split('=')[1]!;
    await settleSharedPassword(store, SHARED);
    expect(await store.identityOfSession(first)).toBeDefined();
    await settleSharedPassword(store, 'a new password');
    expect(await store.identityOfSession(first)).toBeUndefined();
    const shared = await store.findBySubject('shared-password', 'app-password');
    expect(await store.passwordHashOf(shared!.id)).toMatch(/^scrypt\$/);
    await settleSharedPassword(store, undefined);
    expect(await store.passwordHashOf(shared!.id)).toBeNull();
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    await settleSharedPassword(
      {
        ...store,
        endSessionsOf: async () => {
          throw new Error('database down');
        },
      },
      SHARED,
    );
    expect(error).toHaveBeenCalledWith('[auth] database down');
    error.mockRestore();
  });
});
