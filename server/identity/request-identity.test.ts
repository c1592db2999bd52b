// Who a request is: the identity the access guard set, else a well-formed one in the env the sign-in
// layer hands over (a person's id, name and one of the roles), never anything less; and a route for
// one's own list refusing a request with nobody behind it.
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { creatorOf } from './creator';
import {
  IDENTITY_KEY,
  identityOf,
  LOCAL_ADMIN,
  requireUserId,
  SYSTEM_IDENTITY,
  type Identity,
} from './request-identity';

const ada: Identity = { userId: 'u-ada', name: 'Ada', role: 'viewer', source: 'local' };

/** An app that answers who identityOf finds; `own` is set in the context first, as the guard does. */
function whoApp(own?: Identity) {
  const app = new Hono();
  if (own)
    app.use(async (c, next) => {
      c.set(IDENTITY_KEY as never, own as never);
      await next();
    });
  app.get('/', (c) => c.json({ who: identityOf(c) ?? null }));
  return async (env?: Record<string, unknown>) =>
    ((await (await app.request('/', {}, env)).json()) as { who: Identity | null }).who;
}

describe('identityOf', () => {
  it("takes the env's identity when it is whole, and nothing less", async () => {
    const who = whoApp();
    expect(await who({ [IDENTITY_KEY]: ada })).toEqual(ada);
    for (const broken of [
      null,
      'Ada',
      { ...ada, userId: 7 },
      { ...ada, name: undefined },
      { ...ada, role: 'owner' },
      { name: 'Ada', role: 'admin' },
    ])
      expect(await who({ [IDENTITY_KEY]: broken }), JSON.stringify(broken)).toBeNull();
    expect(await who()).toBeNull();
  });

  it("prefers the identity set on the request to the env's", async () => {
    const ben = { ...ada, userId: 'u-ben', name: 'Ben' };
    expect(await whoApp(ben)({ [IDENTITY_KEY]: ada })).toEqual(ben);
  });
});

describe('requireUserId', () => {
  it('refuses a request with nobody behind it with the reason given, and lets a person through', async () => {
    const app = new Hono();
    app.use(requireUserId('Sign in to star results'));
    app.get('/', (c) => c.text('mine'));
    const nobody = await app.request('/');
    expect(nobody.status).toBe(401);
    expect(nobody.headers.get('cache-control')).toBe('no-store');
    expect(await nobody.json()).toEqual({ code: 401, msg: 'Sign in to star results' });
    expect((await app.request('/', {}, { [IDENTITY_KEY]: { ...ada, userId: '' } })).status).toBe(401);
    expect(await (await app.request('/', {}, { [IDENTITY_KEY]: ada })).text()).toBe('mine');
  });
});

describe('the identities of no sign-in', () => {
  it('are the local admin on loopback, and the console asking itself, which reads only', () => {
    expect(LOCAL_ADMIN).toEqual({
      userId: 'local-admin',
      name: 'Local admin',
      role: 'admin',
      source: 'local-admin',
    });
    expect(SYSTEM_IDENTITY).toEqual({ userId: 'system', name: 'Console', role: 'viewer', source: 'system' });
  });
});

describe('creatorOf', () => {
  it("is the verified person's id and name, or null", async () => {
    const app = new Hono();
    app.get('/', (c) => c.json({ creator: creatorOf(c) }));
    const creator = async (env: Record<string, unknown>) =>
      ((await (await app.request('/', {}, env)).json()) as { creator: unknown }).creator;
    expect(await creator({ [IDENTITY_KEY]: ada })).toEqual({ id: 'u-ada', name: 'Ada' });
    expect(await creator({})).toBeNull();
  });
});
