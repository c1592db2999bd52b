// What every way in shares, in-process on the shared PGlite: when a cookie must be Secure, the session
// cookie a sign-in ends with (a planted one ended), the two ways on, the form's bound and its fields.
import { Hono } from 'hono';
import { beforeEach, describe, expect, it } from 'vitest';
import { createIdentityStore } from '../identity/store';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { LOGIN_BODY_MAX_BYTES } from './paths';
import { createSignInKit, SESSION_COOKIE } from './sign-in-kit';

const store = createIdentityStore(testDatabase());

function appFor(publicBaseUrl?: string) {
  const kit = createSignInKit(store, publicBaseUrl);
  const app = new Hono();
  app.get('/secure', (c) => c.json(kit.isSecure(c)));
  app.post('/in/:how', async (c) => {
    const person = await store.upsertPerson({
      source: 'local',
      subject: 'a@b.c',
      name: 'A',
      email: 'a@b.c',
      defaultRole: 'viewer',
    });
    return kit.signInAs(c, person.id, '/next?x=1', c.req.param('how') as 'page' | 'redirect');
  });
  app.post('/form', kit.formLimit, async (c) => {
    const field = await kit.readForm(c);
    return c.json([field('a'), field('file'), field('missing')]);
  });
  return app;
}

beforeEach(async () => {
  await resetTestDatabase();
});

describe('the sign-in kit', () => {
  it('marks cookies Secure behind an https PUBLIC_BASE_URL, on https, or behind a proxy that says https', async () => {
    const secure = async (app: Hono, url: string, headers: Record<string, string> = {}) =>
      (await app.request(url, { headers })).json();
    expect(await secure(appFor(), 'http://console.test/secure')).toBe(false);
    expect(await secure(appFor('http://console.test'), 'http://console.test/secure')).toBe(false);
    expect(await secure(appFor('https://console.test'), 'http://console.test/secure')).toBe(true);
    expect(await secure(appFor(), 'https://console.test/secure')).toBe(true);
    expect(await secure(appFor(), 'http://console.test/secure', { 'x-forwarded-proto': 'https' })).toBe(true);
    expect(await secure(appFor(), 'http://console.test/secure', { 'x-forwarded-proto': 'http' })).toBe(false);
  });

  it('starts a session in a Strict, HttpOnly cookie for a week, ending one planted before', async () => {
    const app = appFor('https://console.test');
    const first = await app.request('/in/redirect', { method: 'POST' });
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe('/next?x=1');
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(
      new RegExp(`^${SESSION_COOKIE}=[^;]+; Max-Age=604800; Path=/; HttpOnly; Secure; SameSite=Strict$`),
    );
    const planted = cookie.split(';')[0]!;
    const second = await app.request('/in/page', { method: 'POST', headers: { cookie: planted } });
    expect(second.status).toBe(200);
    expect(second.headers.get('cache-control')).toBe('no-store');
    const page = await second.text();
    expect(page).toContain('<meta http-equiv="refresh" content="0;url=/next?x=1">');
    expect(page).toContain('<a href="/next?x=1">Continue to the console</a>');
    expect(await store.identityOfSession(planted.split('=')[1]!)).toBeUndefined();
  });

  it('reads text fields only, and bounds the form at its limit: 413 one byte past, with its words', async () => {
    const app = appFor();
    const form = new FormData();
    form.set('a', 'text');
    form.set('file', new Blob(['x']), 'x.txt');
    expect(await (await app.request('/form', { method: 'POST', body: form })).json()).toEqual([
      'text',
      '',
      '',
    ]);
    const sized = (n: number) =>
      app.request('/form', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `a=${'x'.repeat(n - 2)}`,
      });
    expect((await sized(LOGIN_BODY_MAX_BYTES)).status).toBe(200);
    const big = await sized(LOGIN_BODY_MAX_BYTES + 1);
    expect(big.status).toBe(413);
    expect(await big.text()).toBe('The sign-in form is too large');
    // A body that is no form reads as no fields.
    const broken = await app.request('/form', {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data' },
      body: 'x',
    });
    expect(await broken.json()).toEqual(['', '', '']);
  });
});
