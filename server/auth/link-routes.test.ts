// Accounts made from one-time links, in-process on the shared PGlite: the page each link shows, every
// field the form refuses (with the words and the values kept), the account made once, and its audit.
import { Hono } from 'hono';
import { beforeEach, describe, expect, it } from 'vitest';
import { createIdentityStore } from '../identity/store';
import { verifyPassword } from '../identity/passwords';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { linkRoutes } from './link-routes';
import { createSignInKit, SESSION_COOKIE } from './sign-in-kit';

const store = createIdentityStore(testDatabase());
const app = new Hono();
app.route('/', linkRoutes(createSignInKit(store, undefined)));

const PASSWORD = 'twelve chars';
const link = (purpose: 'invite' | 'setup', email: string | null = null) =>
  store.createLink({ purpose, role: purpose === 'setup' ? 'admin' : 'creator', email, ttlMs: 60_000 });
const post = (path: string, fields: Record<string, string>) =>
  app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
const GONE = 'This link has expired or was already used. Ask an admin for a new one.';

beforeEach(async () => {
  await resetTestDatabase();
});

describe('one-time links', () => {
  it('shows the set-up and the invitation pages with their own words, the invited e-mail filled in', async () => {
    const setup = await app.request(`/setup/${await link('setup')}`);
    expect(setup.status).toBe(200);
    expect(setup.headers.get('cache-control')).toBe('no-store');
    const setupPage = await setup.text();
    expect(setupPage).toContain('<h2>Set up the first admin</h2>');
    expect(setupPage).toContain('This one-time link makes the first admin account of this console.');
    const token = await link('invite', 'Ann@Example.com');
    const invite = await (await app.request(`/invite/${token}`)).text();
    expect(invite).toContain('<h2>Join the team</h2>');
    expect(invite).toContain('You were invited to this console. Choose your name and a password.');
    expect(invite).toContain(`action="/invite/${token}"`);
    expect(invite).toContain('value="ann@example.com"');
  });

  it('answers 404 to an unknown link, or one used for the other purpose, on GET and POST', async () => {
    const invite = await link('invite');
    for (const res of [
      await app.request('/invite/nope'),
      await app.request(`/setup/${invite}`),
      await post('/invite/nope', { name: 'A', email: 'a@b.c', password: PASSWORD }),
    ]) {
      expect(res.status).toBe(404);
      expect(await res.text()).toContain(GONE);
    }
  });

  it('refuses each missing or wrong field with 400, its words, and what was typed kept', async () => {
    const token = await link('invite', 'ann@example.com');
    const cases: [Record<string, string>, string][] = [
      [{ name: ' \u0001 ', email: 'ann@example.com', password: PASSWORD }, 'Enter your name.'],
      [{ name: 'Ann', email: 'ann@', password: PASSWORD }, 'Enter an e-mail address.'],
      [{ name: 'Ann', email: 'a nn@example.com', password: PASSWORD }, 'Enter an e-mail address.'],
      [{ name: 'Ann', email: '@example.com', password: PASSWORD }, 'Enter an e-mail address.'],
      [{ name: 'Ann', email: 'ann@ex ample.com', password: PASSWORD }, 'Enter an e-mail address.'],
      [{ name: 'Ann', email: 'ann@example.com@x', password: PASSWORD }, 'Enter an e-mail address.'],
      [
        { name: 'Ann', email: 'x@example.com', password: PASSWORD },
        'This invitation is for ann@example.com.',
      ],
      [{ name: 'Ann', email: 'ann@example.com', password: 'eleven char' }, 'at least 12 characters'],
    ];
    for (const [fields, words] of cases) {
      const res = await post(`/invite/${token}`, fields);
      expect(res.status, words).toBe(400);
      const page = await res.text();
      expect(page, words).toContain(words);
      expect(page, words).toContain('role="alert"');
    }
    const kept = await (
      await post(`/invite/${token}`, { name: 'Ann', email: ' X@Example.com ', password: PASSWORD })
    ).text();
    expect(kept).toContain('maxlength="80" value="Ann"');
    expect(kept).toContain('maxlength="254" value="x@example.com"');
  });

  it('makes the account once, signs it in and audits it; the link is gone after', async () => {
    const token = await link('setup');
    const res = await post(`/setup/${token}`, {
      name: ' Ada ',
      email: ' Ada@Example.com ',
      password: PASSWORD,
    });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/');
    expect(res.headers.get('set-cookie')).toMatch(new RegExp(`^${SESSION_COOKIE}=`));
    const found = await store.findLocal('ada@example.com');
    expect(found?.person).toMatchObject({ name: 'Ada', role: 'admin' });
    expect(await verifyPassword(PASSWORD, found?.passwordHash)).toBe(true);
    const [entry] = await store.listAudit();
    expect(entry).toMatchObject({
      action: 'setup.admin',
      actorName: 'Ada',
      target: 'Ada',
      detail: { role: 'admin', email: 'ada@example.com' },
    });
    expect(
      (await post(`/setup/${token}`, { name: 'B', email: 'b@example.com', password: PASSWORD })).status,
    ).toBe(404);
  });

  it('accepts an invitation (audited as one), and refuses an e-mail that has an account already', async () => {
    await post(`/invite/${await link('invite')}`, {
      name: 'Bo',
      email: 'bo@example.com',
      password: PASSWORD,
    });
    const [entry] = await store.listAudit();
    expect(entry).toMatchObject({
      action: 'invite.accept',
      detail: { role: 'creator', email: 'bo@example.com' },
    });
    const again = await post(`/invite/${await link('invite')}`, {
      name: 'Bo',
      email: 'bo@example.com',
      password: PASSWORD,
    });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('An account with this e-mail already exists: sign in instead.');
  });

  it('cuts the e-mail at 254 characters', async () => {
    const token = await link('invite');
    const email = `${'a'.repeat(240)}@example.com`; // 252 characters
    const long = `${email}xyz`; // 255: cut to 254
    const res = await post(`/invite/${token}`, { name: 'Al', email: long, password: PASSWORD });
    expect(res.status).toBe(303);
    expect(await store.findLocal(`${email}xy`)).toBeDefined();
  });
});
