// What an admin sends to change a role or invite someone: checked before anything is looked up or
// written, each refusal a 400 with its reason; an invitation's e-mail kept trimmed and lower-cased.
import { describe, expect, it, vi } from 'vitest';
import { createPeopleRoutes } from './people-routes';
import type { IdentityStore } from './store';

function routes() {
  const store = {
    createLink: vi.fn(async () => 'token-1'),
    audit: vi.fn(async () => {}),
  };
  return { app: createPeopleRoutes(store as unknown as IdentityStore), store };
}

const post = (app: ReturnType<typeof routes>['app'], path: string, body: string) =>
  app.request(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
const answer = async (response: Response) => [
  response.status,
  ((await response.json()) as { msg?: string }).msg,
];

const ROLE_RULE = 'role must be viewer, creator or admin';

describe('changing a role', () => {
  it('takes viewer, creator or admin, and nothing else', async () => {
    const { app } = routes();
    for (const body of ['{}', '{"role":"owner"}', '{"role":null}', '[]', 'not json'])
      expect(await answer(await post(app, '/__console/people/u1/role', body)), body).toEqual([
        400,
        ROLE_RULE,
      ]);
  });
});

describe('inviting someone', () => {
  it('takes a role and, if any, an e-mail address, kept trimmed and lower-cased', async () => {
    const { app, store } = routes();
    const made = await post(app, '/__console/invitations', '{"role":"creator","email":"  Bo@Example.COM "}');
    expect(made.status).toBe(201);
    expect(store.createLink).toHaveBeenCalledWith(
      expect.objectContaining({ purpose: 'invite', role: 'creator', email: 'bo@example.com' }),
    );
    expect((await post(app, '/__console/invitations', '{"role":"viewer","email":""}')).status).toBe(201);
    expect(store.createLink).toHaveBeenLastCalledWith(expect.objectContaining({ email: null }));
  });

  it('refuses a missing role first, then an address that is not one, at the bounds of its parts', async () => {
    const { app, store } = routes();
    const invite = async (email: unknown, role = 'viewer') =>
      answer(await post(app, '/__console/invitations', JSON.stringify({ role, email })));
    expect(await invite('not an address', 'owner')).toEqual([400, ROLE_RULE]);
    const rule = [400, 'email is not an e-mail address'];
    for (const email of ['bo', 'bo@', '@example.com', 'b o@example.com', 7])
      expect(await invite(email), String(email)).toEqual(rule);
    expect((await invite(`${'b'.repeat(64)}@${'e'.repeat(190)}`))[0]).toBe(201);
    expect(await invite(`${'b'.repeat(65)}@example.com`)).toEqual(rule);
    expect(await invite(`bo@${'e'.repeat(191)}`)).toEqual(rule);
    expect(store.createLink).toHaveBeenCalledTimes(1);
  });
});
