// An admin's people routes on the store they change (one PGlite, emptied per test): who may lose the
// admin role or be removed (never the local admin, never the last admin), what each refusal says, what
// the audit log keeps, invitations listed and revoked, and how the audit route reads its query.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { createPeopleRoutes } from './people-routes';
import { IDENTITY_KEY, LOCAL_ADMIN, type Identity } from './request-identity';
import { createIdentityStore, type IdentityStore } from './store';

const NOW = Date.UTC(2026, 0, 1);
const WEEK_MS = 7 * 24 * 3600 * 1000;
let store: IdentityStore;
let app: ReturnType<typeof createPeopleRoutes>;

beforeEach(async () => {
  await resetTestDatabase();
  store = createIdentityStore(testDatabase(), () => NOW);
  app = createPeopleRoutes(store);
});

const admin: Identity = { userId: 'u-boss', name: 'Boss', role: 'admin', source: 'local' };
const send = async (method: string, path: string, body?: unknown) => {
  const res = await app.request(
    path,
    body === undefined
      ? { method }
      : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) },
    { [IDENTITY_KEY]: admin },
  );
  expect(res.headers.get('cache-control')).toBe('no-store');
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const person = (subject: string, role: Identity['role']) =>
  store.upsertPerson({ source: 'local', subject, name: subject.toUpperCase(), role });
const setRole = (id: string, role: string) => send('POST', `/__console/people/${id}/role`, { role });
const LAST_ADMIN = 'The team needs at least one admin: make someone else an admin first';

describe("changing a person's role", () => {
  it('refuses an unknown or removed person and the local admin, each with its reason', async () => {
    expect(await setRole('nobody', 'viewer')).toEqual({
      status: 404,
      body: { code: 404, msg: 'No such person' },
    });
    const gone = await person('gone', 'creator');
    await store.removePerson(gone.id);
    expect((await setRole(gone.id, 'viewer')).status).toBe(404);
    await store.ensureLocalAdmin();
    expect(await setRole(LOCAL_ADMIN.userId, 'viewer')).toEqual({
      status: 409,
      body: { code: 409, msg: 'The local admin is always an admin' },
    });
    expect(await store.listAudit()).toEqual([]);
  });

  it('lets anyone but an admin change role in a team that has no admin', async () => {
    const cy = await person('cy', 'creator');
    expect(await setRole(cy.id, 'viewer')).toMatchObject({
      status: 200,
      body: { person: { role: 'viewer' } },
    });
  });

  it('lists the people not removed, by name', async () => {
    await person('zoe', 'viewer');
    await store.removePerson((await person('gone', 'creator')).id);
    await person('ada', 'admin');
    const listed = await send('GET', '/__console/people');
    expect(listed.status).toBe(200);
    expect((listed.body.people as { name: string }[]).map((p) => p.name)).toEqual(['ADA', 'ZOE']);
  });

  it('keeps the last admin (a removed admin counts for nothing); another admin lets one go', async () => {
    const ada = await person('ada', 'admin');
    const former = await person('former', 'admin');
    await store.removePerson(former.id);
    await person('cy', 'creator');
    expect(await setRole(ada.id, 'viewer')).toEqual({ status: 409, body: { code: 409, msg: LAST_ADMIN } });
    // Staying an admin is no demotion, even for the last one.
    expect((await setRole(ada.id, 'admin')).status).toBe(200);
    const bo = await person('bo', 'creator');
    expect(await setRole(bo.id, 'admin')).toMatchObject({
      status: 200,
      body: { person: { id: bo.id, role: 'admin' } },
    });
    expect(await setRole(ada.id, 'creator')).toMatchObject({
      status: 200,
      body: { person: { role: 'creator' } },
    });
    expect((await setRole(bo.id, 'viewer')).status).toBe(409);
    expect((await store.listAudit({ action: 'role.change' }))[0]).toMatchObject({
      actorId: 'u-boss',
      actorName: 'Boss',
      target: 'ADA',
      detail: { userId: ada.id, from: 'admin', to: 'creator' },
    });
  });
});

describe('removing a person', () => {
  const remove = (id: string) => send('DELETE', `/__console/people/${id}`);

  it('refuses an unknown or removed person, the local admin and the last admin', async () => {
    expect(await remove('nobody')).toEqual({ status: 404, body: { code: 404, msg: 'No such person' } });
    const ada = await person('ada', 'admin');
    expect(await remove(ada.id)).toEqual({ status: 409, body: { code: 409, msg: LAST_ADMIN } });
    // The local admin is an admin too, so Ada is no longer the last one; it is never removed itself.
    await store.ensureLocalAdmin();
    expect(await remove(LOCAL_ADMIN.userId)).toEqual({
      status: 409,
      body: { code: 409, msg: 'The local admin cannot be removed' },
    });
    expect(await store.listAudit()).toEqual([]);
  });

  it('removes a creator once, ends their sessions, and logs who did it', async () => {
    const cy = await person('cy', 'creator');
    const { token } = await store.createSession(cy.id);
    expect(await remove(cy.id)).toEqual({ status: 200, body: { removed: cy.id } });
    expect(await store.identityOfSession(token)).toBeUndefined();
    expect((await remove(cy.id)).status).toBe(404);
    expect(await store.listAudit()).toEqual([
      expect.objectContaining({
        actorName: 'Boss',
        action: 'person.remove',
        target: 'CY',
        detail: { userId: cy.id, role: 'creator' },
      }),
    ]);
  });

  it('removes an admin while another admin stays', async () => {
    const ada = await person('ada', 'admin');
    await person('bo', 'admin');
    expect((await remove(ada.id)).status).toBe(200);
  });
});

describe('invitations', () => {
  afterEach(() => vi.useRealTimers());

  it('makes a week-long link for whoever the admin is, lists it, and revokes it once', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: NOW });
    const made = await send('POST', '/__console/invitations', { role: 'creator', email: 'bo@example.com' });
    expect(made.status).toBe(201);
    expect(made.body.path).toMatch(/^\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(made.body.expiresAt).toBe(NOW + WEEK_MS);
    const listed = await send('GET', '/__console/invitations');
    expect(listed).toEqual({
      status: 200,
      body: {
        invitations: [
          {
            id: expect.any(String),
            role: 'creator',
            email: 'bo@example.com',
            createdAt: expect.any(Number),
            expiresAt: NOW + WEEK_MS,
          },
        ],
      },
    });
    const { db } = await testDatabase();
    expect(await db.selectFrom('one_time_links').select('created_by').execute()).toEqual([
      { created_by: 'u-boss' },
    ]);
    const id = (listed.body.invitations as { id: string }[])[0]!.id;
    expect(await send('DELETE', `/__console/invitations/${id}`)).toEqual({
      status: 200,
      body: { revoked: true },
    });
    expect(await send('DELETE', `/__console/invitations/${id}`)).toEqual({
      status: 404,
      body: { code: 404, msg: 'No such invitation' },
    });
    expect((await send('GET', '/__console/invitations')).body).toEqual({ invitations: [] });
    const audit = await store.listAudit();
    expect(audit.map((entry) => [entry.action, entry.actorName, entry.target, entry.detail])).toEqual([
      ['invite.revoke', 'Boss', null, null],
      ['invite.create', 'Boss', 'bo@example.com', { role: 'creator' }],
    ]);
  });

  it('logs an invitation for no address with no target', async () => {
    expect((await send('POST', '/__console/invitations', { role: 'viewer' })).status).toBe(201);
    expect((await store.listAudit())[0]).toMatchObject({
      action: 'invite.create',
      target: null,
      detail: { role: 'viewer' },
    });
  });
});

describe('the audit route', () => {
  /** What the route asks the log for, given a query string. */
  async function filterOf(query: string) {
    const listAudit = vi.spyOn(store, 'listAudit');
    const res = await send('GET', `/__console/audit${query}`);
    expect(res.status).toBe(200);
    return listAudit.mock.calls.at(-1)![0];
  }

  it('passes a whole positive before and limit, and drops anything else', async () => {
    expect(await filterOf('?before=7&limit=1')).toEqual({
      action: undefined,
      q: undefined,
      before: 7,
      limit: 1,
    });
    for (const bad of ['0', '-3', '1.5', 'x', '', '9007199254740992'])
      expect(await filterOf(`?before=${bad}&limit=${bad}`), bad).toMatchObject({
        before: undefined,
        limit: undefined,
      });
    expect(await filterOf('')).toEqual({
      action: undefined,
      q: undefined,
      before: undefined,
      limit: undefined,
    });
  });

  it('cuts the action at 60 characters and the text at 200', async () => {
    const filter = await filterOf(`?action=${'a'.repeat(61)}&q=${'q'.repeat(201)}`);
    expect(filter).toMatchObject({ action: 'a'.repeat(60), q: 'q'.repeat(200) });
    expect(await filterOf('?action=&q=')).toMatchObject({ action: undefined, q: undefined });
  });

  it('answers the entries, and refuses text the database cannot store', async () => {
    await store.audit({ action: 'role.change', target: 'Bo' });
    expect((await send('GET', '/__console/audit?action=role.change')).body).toEqual({
      entries: [expect.objectContaining({ action: 'role.change', target: 'Bo' })],
    });
    expect((await send('GET', '/__console/audit?q=%00')).status).toBe(400);
  });
});
