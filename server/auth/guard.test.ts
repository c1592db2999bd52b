// The guard alone, with the ways in stubbed: a personal API token first, then whoever the sign-in
// says, else a 401 (or, for a page load, the sign-in page with the way back).
import { Hono } from 'hono';
import { describe, expect, it, vi } from 'vitest';
import { FOREIGN_TOKEN_MESSAGE, INVALID_TOKEN_MESSAGE, type ApiTokens } from '../identity/api-tokens';
import { IDENTITY_KEY, type Identity } from '../identity/request-identity';
import { createGuard } from './guard';

const SIGNED_IN: Identity = { userId: 'u-cookie', name: 'Cookie', role: 'viewer', source: 'local' };
const BY_TOKEN: Identity = { userId: 'u-token', name: 'Script', role: 'creator', source: 'local' };
const GOOD = `mct_${'a'.repeat(43)}`;

function app(identity: Identity | undefined, withTokens = true) {
  const identify = vi.fn(async () => identity);
  const tokens = { identify: vi.fn(async (token: string) => (token === GOOD ? BY_TOKEN : undefined)) };
  const guarded = new Hono();
  guarded.use('*', createGuard(identify, withTokens ? (tokens as unknown as ApiTokens) : undefined));
  guarded.all('*', (c) => c.json(c.get(IDENTITY_KEY as never) ?? null));
  return { guarded, identify, tokens };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describe('the guard', () => {
  it('lets a sign-in page through without asking who it is', async () => {
    const { guarded, identify } = app(undefined);
    const res = await guarded.request('/login');
    expect(res.status).toBe(200);
    expect(await res.json()).toBeNull();
    expect(identify).not.toHaveBeenCalled();
  });

  it('takes a valid API token as its person, before any cookie', async () => {
    const { guarded, identify } = app(SIGNED_IN);
    const res = await guarded.request('/v1/tasks', { headers: bearer(GOOD) });
    expect(await res.json()).toEqual(BY_TOKEN);
    expect(identify).not.toHaveBeenCalled();
  });

  it('refuses an unknown console token with 401 and its reason, even with a signed-in cookie', async () => {
    const { guarded } = app(SIGNED_IN);
    const res = await guarded.request('/v1/tasks', { headers: bearer(`mct_${'b'.repeat(43)}`) });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(await res.json()).toEqual({ code: 401, msg: INVALID_TOKEN_MESSAGE });
  });

  it('lets a foreign bearer through on a session, and refuses it with its reason without one', async () => {
    expect(
      await (await app(SIGNED_IN).guarded.request('/v1/tasks', { headers: bearer('other') })).json(),
    ).toEqual(SIGNED_IN);
    const res = await app(undefined).guarded.request('/v1/tasks', { headers: bearer('other') });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ code: 401, msg: FOREIGN_TOKEN_MESSAGE });
  });

  it('asks the sign-in when no token store is set up (a console token then means nothing)', async () => {
    const { guarded, identify } = app(SIGNED_IN, false);
    expect(await (await guarded.request('/v1/tasks', { headers: bearer(GOOD) })).json()).toEqual(SIGNED_IN);
    expect(identify).toHaveBeenCalledTimes(1);
    const res = await app(undefined, false).guarded.request('/v1/tasks', { headers: bearer(GOOD) });
    expect(await res.json()).toEqual({ code: 401, msg: 'Sign in to the console first' });
  });

  it('sends a page load to /login with the way back, and answers anything else 401 without storing it', async () => {
    const { guarded } = app(undefined);
    const page = await guarded.request('/tasks/a b?x=1&y=2', { headers: { accept: 'text/html,*/*' } });
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(`/login?next=${encodeURIComponent('/tasks/a%20b?x=1&y=2')}`);
    for (const init of [
      { method: 'POST', headers: { accept: 'text/html' } },
      { headers: { accept: 'application/json' } },
      {},
    ]) {
      const res = await guarded.request('/tasks', init);
      expect(res.status).toBe(401);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toEqual({ code: 401, msg: 'Sign in to the console first' });
    }
  });
});
