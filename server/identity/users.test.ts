// People as each way in makes and updates them: a new person's role, a known one's new name, a
// removed one who stays removed whatever the identity provider says, and who is counted.
import { beforeEach, describe, expect, it } from 'vitest';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { createIdentityStore, type IdentityStore } from './store';

let store: IdentityStore;
beforeEach(async () => {
  await resetTestDatabase();
  store = createIdentityStore(testDatabase());
});

const ada = { source: 'oidc' as const, subject: 'sub-ada', name: 'Ada' };

describe('the user store', () => {
  it('makes a person with the default role, then updates the name and keeps the role unless given', async () => {
    const made = await store.upsertPerson({ ...ada, defaultRole: 'creator' });
    expect(made).toMatchObject({ name: 'Ada', role: 'creator', removed: false });
    const renamed = await store.upsertPerson({ ...ada, name: 'Ada L.', defaultRole: 'admin' });
    expect(renamed).toMatchObject({ id: made.id, name: 'Ada L.', role: 'creator' });
    expect(await store.upsertPerson({ ...ada, role: 'viewer' })).toMatchObject({ role: 'viewer' });
  });

  it('returns a known person as stored when asked not to touch them (a header on every request)', async () => {
    const made = await store.upsertPerson(ada);
    expect(await store.upsertPerson({ ...ada, name: 'Someone else', touch: false })).toMatchObject({
      id: made.id,
      name: 'Ada',
    });
  });

  it('keeps a removed person removed, whatever the identity provider says next', async () => {
    const made = await store.upsertPerson(ada);
    await store.removePerson(made.id);
    expect(await store.upsertPerson({ ...ada, role: 'admin' })).toMatchObject({
      removed: true,
      role: 'viewer',
    });
    expect(await store.findPerson(made.id)).toMatchObject({ removed: true });
  });

  it('counts the people not removed, of one source or all', async () => {
    await store.upsertPerson(ada);
    const bo = await store.upsertPerson({ source: 'local', subject: 'bo@example.com', name: 'Bo' });
    await store.upsertPerson({ source: 'local', subject: 'cy@example.com', name: 'Cy' });
    expect(await store.countPeople()).toBe(3);
    expect(await store.countPeople('local')).toBe(2);
    await store.removePerson(bo.id);
    expect(await store.countPeople('local')).toBe(1);
    expect((await store.listPeople()).map((person) => person.name)).toEqual(['Ada', 'Cy']);
  });
});
