import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { isPublicPath, LOGIN_BODY_MAX_BYTES, LOGOUT_BODY_MAX_BYTES, SESSION_COOKIE } from './auth';
import { createProdApp } from '../app/prod-app';
import { oversizedChunkedBody } from '../testing/oversized-body';
import { fakeNodeApp, makeDist, prodConfig } from '../testing/prod-server';

const PASSWORD = 'correct horse battery';
const SECRET = 's3cret-s3cret-s3cret';
const HTML = { accept: 'text/html,application/xhtml+xml' };
/** What @hono/node-server hands the app for a request from `address` (getConnInfo reads it). */
const peer = (address: string) => ({ env: { incoming: { socket: { remoteAddress: address } } } });
/** A reverse proxy on the same machine. */
const LOOPBACK_PEER = peer('127.0.0.1').env;

// The fake node app's database (PGlite) opens once per file, before the first test's clock starts.
beforeAll(async () => {
  await testDatabase();
});
let dist: ReturnType<typeof makeDist>;
beforeEach(() => {
  dist = makeDist();
});
afterEach(() => dist.cleanup());

function open(env: Record<string, string> = {}) {
  return createProdApp(prodConfig(dist.dir, { APP_PASSWORD: PASSWORD, ...env }), { nodeApp: fakeNodeApp() })
    .app;
}

function form(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return {
    method: 'POST',
    body: new URLSearchParams(fields),
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  };
}

async function signIn(app: ReturnType<typeof open>, headers: Record<string, string> = {}) {
  const res = await app.request('/login', form({ password: PASSWORD, next: '/tasks' }, headers));
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { res, setCookie, cookie: setCookie.split(';')[0] ?? '' };
}

describe('sign-in required with APP_PASSWORD', () => {
  beforeEach(async () => {
    await resetTestDatabase();
  });
  it('redirects page loads to the login page, keeping the address', async () => {
    const res = await open().request('/tasks/abc?x=1', { headers: HTML });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login?next=%2Ftasks%2Fabc%3Fx%3D1');
  });

  it('answers 401 to /v1, /__console, the callback events and assets without a session', async () => {
    const app = open();
    for (const path of [
      '/v1/ping',
      '/__console/config',
      `/callbacks/${SECRET}/events`,
      '/__console/callbacks/events',
      '/__console/callbacks/log',
      '/assets/index-abc.js',
      '/',
    ]) {
      const res = await app.request(path);
      expect(res.status, path).toBe(401);
      expect(res.headers.get('content-security-policy'), path).toContain("default-src 'self'");
    }
    // The browser's door to the inbox (a pasted callback) is not the service's: signed in only.
    expect((await app.request('/__console/callbacks', { method: 'POST' })).status).toBe(401);
  });

  it('lets a share link through to the Node side with no session, and nothing else under /s/', async () => {
    const token = 'A'.repeat(43);
    expect(isPublicPath('GET', `/s/${token}`)).toBe(true);
    expect(isPublicPath('GET', `/s/${token}/media/k/image`)).toBe(true);
    expect(isPublicPath('POST', `/s/${token}`)).toBe(false);
    expect(isPublicPath('GET', `/s/${token}/other`)).toBe(false);
    const res = await open().request(`/s/${token}`, { headers: HTML });
    expect(res.status).not.toBe(303);
    expect(res.status).not.toBe(401);
    expect((await open().request(`/s/${token}/other`, { headers: HTML })).status).toBe(303);
  });

  it('never blocks POST /callbacks/<secret> (the service must reach it)', async () => {
    const res = await open().request(`/callbacks/${SECRET}`, { method: 'POST' });
    expect(res.status).toBe(200);
  });

  it('serves a login form that works under the CSP (no inline script or style)', async () => {
    const app = open();
    const res = await app.request('/login?next=/tasks');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<form method="post" action="/login"');
    expect(html).toContain('name="next" value="/tasks"');
    expect(html).not.toMatch(/<script|<style|style=/);
    expect((await app.request('/login.css')).headers.get('content-type')).toMatch(/text\/css/);
  });

  it('signs in with the right password: HttpOnly SameSite=Strict cookie, then everything opens', async () => {
    const app = open();
    const { res, setCookie, cookie } = await signIn(app);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/tasks');
    expect(setCookie).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Strict/);
    expect(setCookie).not.toMatch(/Secure/);
    for (const path of ['/v1/ping', '/__console/config', '/tasks', `/callbacks/${SECRET}/events`]) {
      expect((await app.request(path, { headers: { cookie } })).status, path).toBe(200);
    }
    const info = await (await app.request('/__console/config', { headers: { cookie } })).json();
    expect(info).toMatchObject({ auth: true });
  });

  it('signs in as the one shared account: the verified creator of what anyone signed in so makes', async () => {
    const app = open();
    const { cookie } = await signIn(app);
    // A header the browser sends names nobody.
    const who = await app.request('/v1/whoami', { headers: { cookie, 'x-console-user': 'Mallory' } });
    const { creator } = (await who.json()) as { creator: { id: string; name: string } };
    expect(creator.name).toBe('Team (shared password)');
    expect(creator.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('marks the cookie Secure behind https', async () => {
    const { setCookie } = await signIn(open(), { 'x-forwarded-proto': 'https' });
    expect(setCookie).toMatch(/Secure/);
    const viaConfig = await signIn(open({ PUBLIC_BASE_URL: 'https://console.example.com' }));
    expect(viaConfig.setCookie).toMatch(/Secure/);
  });

  it('rejects a wrong password with 401 and the form again', async () => {
    const res = await open().request('/login', form({ password: 'nope', next: '/' }));
    expect(res.status).toBe(401);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(await res.text()).toContain('That password is not correct.');
  });

  it('rejects forged and tampered cookies', async () => {
    const app = open();
    const { cookie } = await signIn(app);
    const token = cookie.slice(SESSION_COOKIE.length + 1);
    const tampered = `${SESSION_COOKIE}=${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const value of [
      `${SESSION_COOKIE}=abc.99999999999999`,
      tampered,
      `${SESSION_COOKIE}=${'x'.repeat(5000)}`,
    ]) {
      expect((await app.request('/v1/ping', { headers: { cookie: value } })).status).toBe(401);
    }
  });

  it('shares sessions between instances on the same database, whatever their SESSION_SECRET', async () => {
    const { cookie } = await signIn(open({ SESSION_SECRET: 'x'.repeat(40) }));
    expect((await open().request('/v1/ping', { headers: { cookie } })).status).toBe(200);
  });

  it('logs out: clears the cookie and revokes the session', async () => {
    const app = open();
    const { cookie } = await signIn(app);
    const res = await app.request('/logout', { method: 'POST', headers: { cookie } });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/login');
    expect(res.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    expect((await app.request('/v1/ping', { headers: { cookie } })).status).toBe(401);
  });

  it('slows down guessing: 429 with Retry-After after 5 failures, even for the right password', async () => {
    const app = open();
    for (let i = 0; i < 5; i++)
      expect((await app.request('/login', form({ password: `guess-${i}` }))).status).toBe(401);
    const blocked = await app.request('/login', form({ password: PASSWORD }));
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts failures per client behind a reverse proxy (last X-Forwarded-For entry)', async () => {
    const app = open();
    const from = (ip: string) => ({ 'x-forwarded-for': `203.0.113.9, ${ip}` });
    for (let i = 0; i < 5; i++)
      await app.request('/login', form({ password: `guess-${i}` }, from('198.51.100.1')), LOOPBACK_PEER);
    expect(
      (await app.request('/login', form({ password: PASSWORD }, from('198.51.100.1')), LOOPBACK_PEER)).status,
    ).toBe(429);
    expect(
      (await app.request('/login', form({ password: PASSWORD }, from('198.51.100.2')), LOOPBACK_PEER)).status,
    ).toBe(303);
  });

  it('brakes an IPv6 client per /64, whichever of its addresses it uses', async () => {
    const app = open();
    const from = (ip: string) => ({ 'x-forwarded-for': ip });
    for (let i = 0; i < 5; i++)
      await app.request(
        '/login',
        form({ password: `guess-${i}` }, from(`2001:db8:1:2::${i + 1}`)),
        LOOPBACK_PEER,
      );
    const sameNetwork = await app.request(
      '/login',
      form({ password: PASSWORD }, from('2001:db8:1:2:ffff::9')),
      LOOPBACK_PEER,
    );
    expect(sameNetwork.status).toBe(429);
    const otherNetwork = await app.request(
      '/login',
      form({ password: PASSWORD }, from('2001:db8:1:3::1')),
      LOOPBACK_PEER,
    );
    expect(otherNetwork.status).toBe(303);
  });

  // From a loopback peer any X-Forwarded-For value was believed, so each made-up value
  // (`garbage-1`, `garbage-2`, …) was a fresh bucket.
  it('believes X-Forwarded-For only when it is an IP address: made-up values share the peer’s bucket', async () => {
    const app = open();
    for (let i = 1; i <= 5; i++)
      expect(
        (
          await app.request(
            '/login',
            form({ password: 'nope' }, { 'x-forwarded-for': `garbage-${i}` }),
            LOOPBACK_PEER,
          )
        ).status,
      ).toBe(401);
    for (const value of ['garbage-6', '1', '0x7f.1', '', '198.51.100.1:443'])
      expect(
        (
          await app.request(
            '/login',
            form({ password: PASSWORD }, { 'x-forwarded-for': value }),
            LOOPBACK_PEER,
          )
        ).status,
        value,
      ).toBe(429);
  });

  it('believes X-Forwarded-For only from TRUSTED_PROXIES: any other peer is the client', async () => {
    const app = open();
    const forwarded = (ip: string, password = 'nope') => form({ password }, { 'x-forwarded-for': ip });
    const direct = peer('203.0.113.50').env;
    for (let i = 1; i <= 5; i++) await app.request('/login', forwarded(`198.51.100.${i}`), direct);
    // A fresh forwarded address does not help a peer that is not a trusted proxy.
    expect((await app.request('/login', forwarded('198.51.100.99', PASSWORD), direct)).status).toBe(429);

    // A proxy on another machine, named in TRUSTED_PROXIES: 10.0.0.3 is the range's last address.
    const behind = open({ TRUSTED_PROXIES: '10.0.0.0/30' });
    for (let i = 1; i <= 5; i++)
      await behind.request('/login', forwarded('198.51.100.7'), peer('10.0.0.3').env);
    expect(
      (await behind.request('/login', forwarded('198.51.100.7', PASSWORD), peer('10.0.0.3').env)).status,
    ).toBe(429);
    // 10.0.0.4, one past the range, is the client itself: its X-Forwarded-For is ignored.
    expect(
      (await behind.request('/login', forwarded('198.51.100.7', PASSWORD), peer('10.0.0.4').env)).status,
    ).toBe(303);
    // Loopback is not trusted once TRUSTED_PROXIES names something else.
    for (let i = 1; i <= 5; i++)
      await behind.request('/login', forwarded(`198.51.100.${20 + i}`), LOOPBACK_PEER);
    expect((await behind.request('/login', forwarded('198.51.100.30', PASSWORD), LOOPBACK_PEER)).status).toBe(
      429,
    );
  });

  // A /48 holds 65,536 /64 buckets (~327,000 guesses per 10 minutes).
  it('has an overall limit: after LOGIN_FAILURES_TOTAL failures from all clients, everyone waits', async () => {
    const app = open({ LOGIN_FAILURES_TOTAL: '12' });
    const from = (n: number) => ({ 'x-forwarded-for': `2001:db8:7:${n.toString(16)}::1` });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // 11 failures, from 11 networks of one /48: a twelfth network may still try (the bound itself)...
    for (let n = 1; n <= 11; n++)
      expect((await app.request('/login', form({ password: 'nope' }, from(n)), LOOPBACK_PEER)).status).toBe(
        401,
      );
    expect((await app.request('/login', form({ password: 'nope' }, from(12)), LOOPBACK_PEER)).status).toBe(
      401,
    );
    // ...and after the twelfth failure nobody may, not even with the right password, from anywhere.
    for (const headers of [from(13), from(0xffff), { 'x-forwarded-for': '198.51.100.1' }]) {
      const res = await app.request('/login', form({ password: PASSWORD }, headers), LOOPBACK_PEER);
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/12 failed sign-ins .* from all clients together/);
    warn.mockRestore();
  });
  it('leaves everything open without APP_PASSWORD', async () => {
    const app = createProdApp(prodConfig(dist.dir), { nodeApp: fakeNodeApp() }).app;
    expect((await app.request('/v1/ping')).status).toBe(200);
    // Nothing to sign in to: straight on.
    expect((await app.request('/login')).status).toBe(303);
  });
});

describe('auth helpers', () => {
  it('refuses a sign-in or a sign-out posted by a page on another site', async () => {
    const app = open();
    for (const site of ['cross-site', 'same-site']) {
      const login = await app.request(
        '/login',
        form({ password: PASSWORD, next: '/' }, { 'sec-fetch-site': site }),
      );
      expect(login.status, site).toBe(403);
      expect(login.headers.get('set-cookie')).toBeNull();
      const logout = await app.request('/logout', { method: 'POST', headers: { 'sec-fetch-site': site } });
      expect(logout.status, site).toBe(403);
    }
    const own = await app.request(
      '/login',
      form({ password: PASSWORD, next: '/' }, { 'sec-fetch-site': 'same-origin' }),
    );
    expect(own.status).toBe(303);
  });

  // Every route of npm start that takes a body has a limit, read from the app itself (the
  // Node side's routes are walked in server/app/body-limits.test.ts).
  it('bounds the body of every form it takes: 413 one byte past, not at the limit', async () => {
    const app = open();
    const limits: Record<string, number> = {
      '/login': LOGIN_BODY_MAX_BYTES,
      '/logout': LOGOUT_BODY_MAX_BYTES,
      '/invite/:token': LOGIN_BODY_MAX_BYTES,
      '/setup/:token': LOGIN_BODY_MAX_BYTES,
    };
    const posts = new Set(app.routes.filter((r) => r.method === 'POST').map((r) => r.path));
    expect([...posts].sort()).toEqual(Object.keys(limits).sort());
    for (const path of posts) {
      const limit = limits[path]!;
      const send = (bytes: number) => {
        const text = `password=${'a'.repeat(bytes - 'password='.length)}`;
        const body = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode(text));
            controller.close();
          },
        });
        return app.request(path.replace(':token', 'no-such-token'), {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body,
          duplex: 'half',
        } as RequestInit);
      };
      expect((await send(limit + 1)).status, `${path}, ${limit} + 1 bytes`).toBe(413);
      expect((await send(limit)).status, `${path}, exactly ${limit} bytes`).not.toBe(413);
    }
  });

  it('never sends a tricky return path as Location after sign-in', async () => {
    const app = open();
    for (const tricky of [
      '/.//evil.example/x',
      '/..//evil.example',
      '/%2e//evil.example',
      '/./\t/evil.example',
    ]) {
      const response = await app.request('/login', form({ password: PASSWORD, next: tricky }));
      expect(response.status, tricky).toBe(303);
      expect(response.headers.get('location'), tricky).toBe('/');
    }
    const kept = await app.request('/login', form({ password: PASSWORD, next: '/tasks/./i2is-1' }));
    expect(kept.headers.get('location')).toBe('/tasks/i2is-1');
  });

  it('asks no name at sign-in: the account names the user', async () => {
    const page = await (await open().request('/login', { headers: HTML })).text();
    expect(page).not.toContain('Your name');
  });

  it('keeps a sign-out across a restart (same SESSION_SECRET and DATA_DIR)', async () => {
    const env = { SESSION_SECRET: 'k'.repeat(40) };
    const before = open(env);
    const { cookie } = await signIn(before);
    expect((await before.request('/v1/ping', { headers: { cookie } })).status).toBe(200);
    await before.request('/logout', { method: 'POST', headers: { cookie } });
    const restarted = open(env);
    expect((await restarted.request('/v1/ping', { headers: { cookie } })).status).toBe(401);
    // A session that was not signed out survives the restart.
    const { cookie: other } = await signIn(restarted);
    expect((await open(env).request('/v1/ping', { headers: { cookie: other } })).status).toBe(200);
  });

  it('signs everyone out when APP_PASSWORD changes, even with the same SESSION_SECRET', async () => {
    const env = { SESSION_SECRET: 'k'.repeat(40) };
    const { cookie } = await signIn(open(env));
    expect((await open(env).request('/v1/ping', { headers: { cookie } })).status).toBe(200);
    const changed = open({ ...env, APP_PASSWORD: 'a different password' });
    expect((await changed.request('/v1/ping', { headers: { cookie } })).status).toBe(401);
  });

  it('never redirects off-site or fails on control characters in next', async () => {
    const app = open();
    for (const next of ['%2F%09%2Fevil.example', '%2F%0d%0aSet-Cookie%3A%20x%3D1', '%2F%5Cevil.example']) {
      const page = await app.request(`/login?next=${next}`, { headers: HTML });
      expect(page.status, next).toBe(200);
      const decoded = decodeURIComponent(next);
      const res = await app.request('/login', form({ password: PASSWORD, next: decoded }));
      expect(res.status, next).toBe(303);
      expect(res.headers.get('location'), next).toBe('/');
    }
  });

  it('cuts a chunked sign-in body off at its limit while it streams, before any check', async () => {
    const attack = oversizedChunkedBody();
    const res = await open().request('/login', {
      ...attack.init,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(413);
    expect(attack.pulledBytes()).toBeLessThan(1024 * 1024);
  });
});
