// Sign-in as `npm start` runs it, in front of the real Node side: server-side sessions (a role
// change and a removal hold at the next request), local accounts from one-time links, the set-up
// link, TRUSTED_AUTH_HEADER only from TRUSTED_PROXIES, session fixation, X-Console-User ignored.
import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  vi,
  type MockInstance,
} from 'vitest';
import { createProdApp } from '../app/prod-app';
import { makeDist, prodConfig } from '../testing/prod-server';
import { useTestNodeApp } from '../testing/test-node-app';
import { SESSION_COOKIE } from '../auth/auth';

const server = useTestNodeApp('sign-in-test', { options: { anonymous: null } });
const ORIGIN = 'http://127.0.0.1:8080';
let dist: ReturnType<typeof makeDist>;
let log: MockInstance<typeof console.log>;
beforeAll(() => {
  dist = makeDist();
});
afterAll(() => dist.cleanup());
beforeEach(() => {
  log = vi.spyOn(console, 'log').mockImplementation(() => {});
});
afterEach(() => log.mockRestore());

/** The production app on a published address with no sign-in configured: accounts only. */
async function start(env: Record<string, string> = {}) {
  const prod = createProdApp(prodConfig(dist.dir, { PUBLIC_BASE_URL: ORIGIN, ...env }), {
    nodeApp: server.nodeApp,
  });
  await prod.ready;
  return prod.app;
}

const peer = (address: string) => ({ incoming: { socket: { remoteAddress: address } } });
const form = (fields: Record<string, string>, cookie = '') => ({
  method: 'POST',
  body: new URLSearchParams(fields),
  headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie && { cookie }) },
});
const cookieOf = (res: Response) =>
  (res.headers.get('set-cookie') ?? '')
    .split(/,\s*(?=mc_)/)
    .find((c) => c.startsWith(`${SESSION_COOKIE}=`))
    ?.split(';')[0] ?? '';
const json = (body: unknown, cookie: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', cookie },
  body: JSON.stringify(body),
});

/** The set-up link npm start printed. */
function printedSetupPath(): string {
  const line = log.mock.calls.map((call) => String(call[0])).find((text) => text.includes('/setup/'));
  return new URL(line!.split(/\s+/).find((word) => word.includes('/setup/'))!).pathname;
}

async function makeAccount(
  app: Awaited<ReturnType<typeof start>>,
  path: string,
  name: string,
  email: string,
) {
  const res = await app.request(path, form({ name, email, password: `${name} has a long password` }));
  expect(res.status, await res.clone().text()).toBe(303);
  return cookieOf(res);
}

async function firstAdmin(app: Awaited<ReturnType<typeof start>>) {
  return makeAccount(app, printedSetupPath(), 'Ada', 'ada@example.com');
}

async function invite(app: Awaited<ReturnType<typeof start>>, admin: string, role: string, name: string) {
  const res = await app.request('/__console/invitations', json({ role }, admin));
  expect(res.status).toBe(201);
  const { path } = (await res.json()) as { path: string };
  return makeAccount(app, path, name, `${name.toLowerCase()}@example.com`);
}

const create = (
  app: Awaited<ReturnType<typeof start>>,
  cookie: string,
  headers: Record<string, string> = {},
) =>
  app.request('/v1/image_generate', {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, ...headers },
    body: JSON.stringify({ prompt: 'a lighthouse', generate_count: 1 }),
  });

describe('first admin and local accounts', () => {
  it('prints a one-time set-up link on a published console with no admin; it works once', async () => {
    const app = await start();
    expect((await app.request('/v1/image_generate/x')).status).toBe(401);
    const path = printedSetupPath();
    const admin = await firstAdmin(app);
    const info = (await (await app.request('/__console/config', { headers: { cookie: admin } })).json()) as {
      user: { name: string; role: string };
    };
    expect(info.user).toMatchObject({ name: 'Ada', role: 'admin' });
    // Used: a second visit finds nothing to make.
    expect((await app.request(path)).status).toBe(404);
    const again = await app.request(
      path,
      form({ name: 'Eve', email: 'eve@example.com', password: 'eve has a long password' }),
    );
    expect(again.status).toBe(404);
  });

  it('signs in with e-mail and password; a wrong password is refused', async () => {
    const app = await start();
    await firstAdmin(app);
    const wrong = await app.request(
      '/login',
      form({ method: 'local', email: 'ada@example.com', password: 'nope nope nope' }),
    );
    expect(wrong.status).toBe(401);
    const right = await app.request(
      '/login',
      form({
        method: 'local',
        email: 'ADA@example.com',
        password: 'Ada has a long password',
        next: '/tasks',
      }),
    );
    expect(right.status).toBe(303);
    expect(right.headers.get('location')).toBe('/tasks');
    expect((await app.request('/__console/tasks', { headers: { cookie: cookieOf(right) } })).status).toBe(
      200,
    );
  });

  it('gives a new session token at every sign-in: a cookie planted before is not the one after (session fixation)', async () => {
    const app = await start();
    await firstAdmin(app);
    const planted = `${SESSION_COOKIE}=planted-by-an-attacker`;
    const res = await app.request(
      '/login',
      form({ method: 'local', email: 'ada@example.com', password: 'Ada has a long password' }, planted),
    );
    const fresh = cookieOf(res);
    expect(fresh).not.toBe(planted);
    expect((await app.request('/__console/tasks', { headers: { cookie: planted } })).status).toBe(401);
    expect((await app.request('/__console/tasks', { headers: { cookie: fresh } })).status).toBe(200);
  });
});

describe('an invitation made for one address', () => {
  it('is refused with another address (the link still works), and taken with its own', async () => {
    const app = await start();
    const admin = await firstAdmin(app);
    const made = await app.request(
      '/__console/invitations',
      json({ role: 'creator', email: 'bo@example.com' }, admin),
    );
    expect(made.status).toBe(201);
    const { path } = (await made.json()) as { path: string };
    const fields = (email: string) => form({ name: 'Bo', email, password: 'Bo has a long password' });
    const other = await app.request(path, fields('eve@example.com'));
    expect(other.status).toBe(400);
    expect(await other.text()).toContain('This invitation is for bo@example.com.');
    // The same address written in capitals is the same address.
    expect((await app.request(path, fields('BO@example.com'))).status).toBe(303);
  });
});

describe('roles held on the server, at once', () => {
  it('a viewer spends nothing; made a creator, the same session creates at its next request', async () => {
    const app = await start();
    const admin = await firstAdmin(app);
    const viewer = await invite(app, admin, 'viewer', 'Vic');
    const refused = await create(app, viewer);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { msg: string }).msg).toMatch(
      /Only creators and admins can create tasks/,
    );
    const people = (await (
      await app.request('/__console/people', { headers: { cookie: admin } })
    ).json()) as {
      people: { id: string; name: string }[];
    };
    const vic = people.people.find((p) => p.name === 'Vic')!;
    expect(
      (await app.request(`/__console/people/${vic.id}/role`, json({ role: 'creator' }, admin))).status,
    ).toBe(200);
    expect((await create(app, viewer)).status).toBe(200);
    // The audit log says who did it.
    const audit = (await (
      await app.request('/__console/audit?action=role.change', { headers: { cookie: admin } })
    ).json()) as {
      entries: { actorName: string; target: string; detail: { from: string; to: string } }[];
    };
    expect(audit.entries[0]).toMatchObject({
      actorName: 'Ada',
      target: 'Vic',
      detail: { from: 'viewer', to: 'creator' },
    });
  });

  it('removing a person ends every session of theirs at once', async () => {
    const app = await start();
    const admin = await firstAdmin(app);
    const creator = await invite(app, admin, 'creator', 'Cy');
    expect((await app.request('/__console/tasks', { headers: { cookie: creator } })).status).toBe(200);
    const people = (await (
      await app.request('/__console/people', { headers: { cookie: admin } })
    ).json()) as {
      people: { id: string; name: string }[];
    };
    const cy = people.people.find((p) => p.name === 'Cy')!;
    expect(
      (await app.request(`/__console/people/${cy.id}`, { method: 'DELETE', headers: { cookie: admin } }))
        .status,
    ).toBe(200);
    expect((await app.request('/__console/tasks', { headers: { cookie: creator } })).status).toBe(401);
    const login = await app.request(
      '/login',
      form({ method: 'local', email: 'cy@example.com', password: 'Cy has a long password' }),
    );
    expect(login.status).toBe(401);
  });

  it('records the verified creator; X-Console-User sent by a creator names nobody', async () => {
    const app = await start();
    const admin = await firstAdmin(app);
    const creator = await invite(app, admin, 'creator', 'Cy');
    const res = await create(app, creator, { 'x-console-user': 'Mallory' });
    const [id] = ((await res.json()) as { data: { task_ids: string[] } }).data.task_ids;
    const task = (await (
      await app.request(`/__console/tasks/${id}`, { headers: { cookie: creator } })
    ).json()) as {
      data: { task: { creator: string; creatorUnverified?: boolean } };
    };
    expect(task.data.task.creator).toBe('Cy');
    expect(task.data.task.creatorUnverified).toBeUndefined();
  });

  it('keeps the last admin: they cannot demote or remove themselves out of the team', async () => {
    const app = await start();
    const admin = await firstAdmin(app);
    const people = (await (
      await app.request('/__console/people', { headers: { cookie: admin } })
    ).json()) as {
      people: { id: string }[];
    };
    const res = await app.request(
      `/__console/people/${people.people[0]!.id}/role`,
      json({ role: 'viewer' }, admin),
    );
    expect(res.status).toBe(409);
  });
});

describe('TRUSTED_AUTH_HEADER', () => {
  const env = {
    TRUSTED_AUTH_HEADER: 'X-Forwarded-User',
    TRUSTED_PROXIES: '10.0.0.5',
    TRUSTED_AUTH_ADMINS: 'boss@example.com',
  };

  it('believes the header from a trusted proxy only; the same header from anyone else is ignored', async () => {
    const app = await start(env);
    const headers = { 'x-forwarded-user': 'boss@example.com' };
    const spoofed = await app.request('/__console/config', { headers }, peer('203.0.113.9'));
    expect(spoofed.status).toBe(401);
    const trusted = await app.request('/__console/config', { headers }, peer('10.0.0.5'));
    expect(trusted.status).toBe(200);
    expect(((await trusted.json()) as { user: unknown }).user).toMatchObject({
      name: 'boss@example.com',
      role: 'admin',
      source: 'proxy',
    });
    // Someone else the proxy names is a viewer until an admin says otherwise.
    const other = await app.request(
      '/__console/config',
      { headers: { 'x-forwarded-user': 'new@example.com' } },
      peer('10.0.0.5'),
    );
    expect(((await other.json()) as { user: unknown }).user).toMatchObject({ role: 'viewer' });
    expect((await create(app, '')).status).toBe(401);
  });
});
