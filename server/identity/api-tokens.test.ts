// Personal API tokens through the production server: the sign-in layer (server/auth/auth.ts) in front
// of a real Node side on the emulator. A token made with a session drives /v1 and /__console as its
// person, with their role and limits; revoked, expired or foreign tokens get 401.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  API_TOKEN_PREFIX,
  TOKEN_DAYS_MAX,
  TOKEN_NAME_MAX,
  TOKENS_PER_PERSON_MAX,
  type CreatedToken,
  type TokenList,
} from '../../src/api/api-tokens';
import type { Role } from '../../src/api/roles';
import { createNodeApp, type NodeApp } from '../app/node-app';
import { createProdApp } from '../app/prod-app';
import { SESSION_COOKIE } from '../auth/auth';
import { readServerConfig } from '../config/config';
import { resetTestDatabase, testDatabase } from '../testing/database';
import { makeDist, prodConfig } from '../testing/prod-server';
import { TOKEN_USE_AUDIT_MS } from './api-tokens';

const DAY_MS = 24 * 3600 * 1000;
const JSON_HEADERS = { 'content-type': 'application/json' };

beforeAll(async () => {
  await testDatabase();
});

let dist: ReturnType<typeof makeDist>;
let nodeApp: NodeApp;
const clock = { now: Date.UTC(2026, 10, 1, 12) };

beforeEach(async () => {
  // The app prints the first admin's set-up link: not this file's subject.
  vi.spyOn(console, 'log').mockImplementation(() => {});
  await resetTestDatabase();
  clock.now = Date.UTC(2026, 10, 1, 12);
  dist = makeDist();
  nodeApp = createNodeApp(readServerConfig({ DATA_DIR: dist.dir }), {
    database: await testDatabase(),
    anonymous: null,
    now: () => clock.now,
    emulator: { timeScale: 0, log: () => {} },
  });
});
afterEach(async () => {
  await nodeApp.close();
  dist.cleanup();
});

/** The production app with sign-in required (a shared password nobody uses here: accounts only). */
function open() {
  return createProdApp(prodConfig(dist.dir, { APP_PASSWORD: 'correct horse battery' }), { nodeApp }).app;
}

/** A signed-in person: their row and a session cookie, as a sign-in makes them. */
async function signedIn(name: string, role: Role) {
  const person = await nodeApp.identity.upsertPerson({ source: 'local', subject: name, name, role });
  const session = await nodeApp.identity.createSession(person.id);
  return { id: person.id, name, cookie: `${SESSION_COOKIE}=${session.token}` };
}

type App = ReturnType<typeof open>;

async function makeToken(app: App, cookie: string, body: unknown = { name: 'nightly', expiresInDays: 30 }) {
  return app.request('/__console/tokens', {
    method: 'POST',
    headers: { ...JSON_HEADERS, cookie },
    body: JSON.stringify(body),
  });
}

async function tokenOf(app: App, cookie: string, days = 30): Promise<CreatedToken> {
  const res = await makeToken(app, cookie, { name: 'nightly', expiresInDays: days });
  expect(res.status).toBe(201);
  return (await res.json()) as CreatedToken;
}

const bearer = (token: string, extra: Record<string, string> = {}) => ({
  headers: { authorization: `Bearer ${token}`, ...extra },
});

async function createImage(app: App, token: string, prompt = 'Calm ocean at sunset') {
  return app.request('/v1/image_generate', {
    method: 'POST',
    ...bearer(token, JSON_HEADERS),
    body: JSON.stringify({ prompt, generate_count: 1 }),
  });
}

describe('making a token', () => {
  it('answers the token once, stores only its hash, and lists it without the token', async () => {
    const app = open();
    const ana = await signedIn('Ana', 'creator');
    const made = await tokenOf(app, ana.cookie);
    expect(made.token).toMatch(new RegExp(`^${API_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`));
    expect(made.expiresAt).toBe(clock.now + 30 * DAY_MS);

    const { db } = await testDatabase();
    const rows = await db.selectFrom('api_tokens').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(made.token);

    const list = (await (
      await app.request('/__console/tokens', { headers: { cookie: ana.cookie } })
    ).json()) as TokenList;
    expect(list.tokens).toEqual([
      expect.objectContaining({ id: made.id, name: 'nightly', personName: 'Ana', revokedAt: null }),
    ]);
    expect(JSON.stringify(list)).not.toContain(made.token);
  });

  it('refuses bad names and days at their bounds with a reason', async () => {
    const app = open();
    const { cookie } = await signedIn('Ana', 'viewer');
    const status = async (body: unknown) => {
      const res = await makeToken(app, cookie, body);
      return [res.status, ((await res.json()) as { msg?: string }).msg];
    };
    expect((await status({ name: 'n'.repeat(TOKEN_NAME_MAX), expiresInDays: 1 }))[0]).toBe(201);
    expect(await status({ name: 'n'.repeat(TOKEN_NAME_MAX + 1), expiresInDays: 1 })).toEqual([
      400,
      `A token's name is at most ${TOKEN_NAME_MAX} characters`,
    ]);
    expect(await status({ name: '   ', expiresInDays: 1 })).toEqual([400, 'Give the token a name']);
    expect(await status({ name: '\u0007', expiresInDays: 1 })).toEqual([400, 'Give the token a name']);
    expect((await status({ name: 'a', expiresInDays: TOKEN_DAYS_MAX }))[0]).toBe(201);
    expect(await status({ name: 'a', expiresInDays: TOKEN_DAYS_MAX + 1 })).toEqual([
      400,
      `A token lasts at most ${TOKEN_DAYS_MAX} days`,
    ]);
    expect(await status({ name: 'a', expiresInDays: 0 })).toEqual([400, 'A token lasts at least 1 day']);
    expect((await status({ name: 'a', expiresInDays: 1.5 }))[0]).toBe(400);
    expect((await status({ name: 'a' }))[0]).toBe(400);
    expect((await status('not an object'))[0]).toBe(400);
    const huge = await app.request('/__console/tokens', {
      method: 'POST',
      headers: { ...JSON_HEADERS, cookie },
      body: JSON.stringify({ name: 'a', expiresInDays: 1, pad: 'x'.repeat(5000) }),
    });
    expect(huge.status).toBe(413);
  });

  it(`holds at most ${TOKENS_PER_PERSON_MAX} live tokens per person; a revoked one frees a place`, async () => {
    const app = open();
    const ana = await signedIn('Ana', 'creator');
    const ids: string[] = [];
    for (let i = 0; i < TOKENS_PER_PERSON_MAX; i++) ids.push((await tokenOf(app, ana.cookie)).id);
    const refused = await makeToken(app, ana.cookie);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { msg: string }).msg).toContain('revoke one first');
    // Another person's allowance is their own.
    expect((await makeToken(app, (await signedIn('Ben', 'viewer')).cookie)).status).toBe(201);
    await app.request(`/__console/tokens/${ids[0]}`, { method: 'DELETE', headers: { cookie: ana.cookie } });
    expect((await makeToken(app, ana.cookie)).status).toBe(201);
  });

  it('is refused with a token, from another site, and without a sign-in', async () => {
    const app = open();
    const ana = await signedIn('Ana', 'admin');
    const { token } = await tokenOf(app, ana.cookie);
    const withToken = await app.request('/__console/tokens', {
      method: 'POST',
      ...bearer(token, JSON_HEADERS),
      body: JSON.stringify({ name: 'successor', expiresInDays: 365 }),
    });
    expect(withToken.status).toBe(403);
    expect((await app.request('/__console/tokens', bearer(token))).status).toBe(403);
    const crossSite = await app.request('/__console/tokens', {
      method: 'POST',
      headers: { ...JSON_HEADERS, cookie: ana.cookie, 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify({ name: 'x', expiresInDays: 1 }),
    });
    expect(crossSite.status).toBe(403);
    const nobody = await app.request('/__console/tokens', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ name: 'x', expiresInDays: 1 }),
    });
    expect(nobody.status).toBe(401);
  });
});

describe('a request with a token', () => {
  it("creates, checks and reads as its person: the record carries their name, the audit log the token's life", async () => {
    const app = open();
    const ana = await signedIn('Ana', 'creator');
    const made = await tokenOf(app, ana.cookie);

    const created = await createImage(app, made.token);
    expect(created.status).toBe(200);
    const taskId = ((await created.json()) as { data: { task_ids: string[] } }).data.task_ids[0]!;
    const status = await app.request(`/v1/image_generate/${taskId}`, bearer(made.token));
    expect(status.status).toBe(200);
    const record = await app.request(`/__console/tasks/${taskId}`, bearer(made.token));
    expect(record.status).toBe(200);
    const { task } = ((await record.json()) as { data: { task: { creator: string; creatorId: string } } })
      .data;
    expect(task).toMatchObject({ creator: 'Ana', creatorId: ana.id });
    // The config says who the token acts as, as it does for a browser.
    const config = (await (await app.request('/__console/config', bearer(made.token))).json()) as {
      user: { name: string; role: string };
    };
    expect(config.user).toMatchObject({ name: 'Ana', role: 'creator' });

    const revoked = await app.request(`/__console/tokens/${made.id}`, {
      method: 'DELETE',
      headers: { cookie: ana.cookie },
    });
    expect(revoked.status).toBe(200);
    const after = await app.request(`/v1/image_generate/${taskId}`, bearer(made.token));
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');

    const audit = await nodeApp.identity.listAudit();
    expect(audit.map((entry) => [entry.action, entry.actorName, entry.target]).reverse()).toEqual([
      ['token.create', 'Ana', 'nightly'],
      ['token.use', 'Ana', 'nightly'],
      ['token.revoke', 'Ana', 'nightly'],
    ]);
  });

  it('acts with its person\u2019s current role: a viewer\u2019s token reads but creates nothing', async () => {
    const app = open();
    const vic = await signedIn('Vic', 'viewer');
    const { token } = await tokenOf(app, vic.cookie);
    expect((await app.request('/__console/tasks', bearer(token))).status).toBe(200);
    expect((await createImage(app, token)).status).toBe(403);
    await nodeApp.identity.setRole(vic.id, 'creator');
    // Role changes reach a token within the identity cache's few seconds, as they do sessions.
    clock.now += 6000;
    expect((await createImage(app, token)).status).toBe(200);
  });

  it("counts toward its person's limits", async () => {
    const app = open();
    const admin = await signedIn('Ada', 'admin');
    const ana = await signedIn('Ana', 'creator');
    const setLimit = await app.request('/__console/limits', {
      method: 'PUT',
      headers: { ...JSON_HEADERS, cookie: admin.cookie },
      body: JSON.stringify({
        scope: 'person',
        userId: ana.id,
        limits: [{ measure: 'tasks', period: 'day', max: 1 }],
      }),
    });
    expect(setLimit.status).toBe(200);
    const { token } = await tokenOf(app, ana.cookie);
    expect((await createImage(app, token)).status).toBe(200);
    const second = await createImage(app, token);
    expect(second.status).toBe(429);
  });

  it('works until the last millisecond of its expiry and is refused from its end on', async () => {
    const app = open();
    const ana = await signedIn('Ana', 'viewer');
    const made = await tokenOf(app, ana.cookie, 1);
    const ask = async () => (await app.request('/__console/tasks', bearer(made.token))).status;
    expect(await ask()).toBe(200);
    clock.now = made.expiresAt - 1;
    expect(await ask()).toBe(200);
    clock.now = made.expiresAt;
    expect(await ask()).toBe(401);
    clock.now = made.expiresAt + 1;
    expect(await ask()).toBe(401);
  });

  it('stops with its person: a removed person\u2019s token is refused', async () => {
    const app = open();
    const ana = await signedIn('Ana', 'viewer');
    const { token } = await tokenOf(app, ana.cookie);
    await nodeApp.identity.removePerson(ana.id);
    clock.now += 6000;
    expect((await app.request('/__console/tasks', bearer(token))).status).toBe(401);
  });

  it('audits the first use in each hour, not every request', async () => {
    const app = open();
    const ana = await signedIn('Ana', 'viewer');
    const { token } = await tokenOf(app, ana.cookie);
    const uses = async () =>
      (await nodeApp.identity.listAudit({ action: 'token.use' })).filter((e) => e.actorName === 'Ana').length;
    for (let i = 0; i < 3; i++) {
      await app.request('/__console/tasks', bearer(token));
      clock.now += 6000;
    }
    expect(await uses()).toBe(1);
    clock.now += TOKEN_USE_AUDIT_MS;
    await app.request('/__console/tasks', bearer(token));
    expect(await uses()).toBe(2);
  });

  it('refuses unknown and foreign tokens with 401 and never falls back to the cookie', async () => {
    const app = open();
    const ana = await signedIn('Ana', 'viewer');
    const made = await tokenOf(app, ana.cookie);
    const unknown = `${API_TOKEN_PREFIX}${'A'.repeat(43)}`;
    const withCookie = await app.request('/__console/tasks', {
      headers: { authorization: `Bearer ${unknown}`, cookie: ana.cookie },
    });
    expect(withCookie.status).toBe(401);
    // A one-character change is another token.
    const altered = made.token.slice(0, -1) + (made.token.endsWith('A') ? 'B' : 'A');
    expect((await app.request('/__console/tasks', bearer(altered))).status).toBe(401);
    // The service's API_TOKEN (or any bearer that is not a console token) signs nobody in.
    const foreign = await app.request('/__console/tasks', bearer('service-api-token'));
    expect(foreign.status).toBe(401);
    expect(((await foreign.json()) as { msg: string }).msg).toContain('not a console API token');
    // ...and is ignored beside a session (an authenticating proxy may pass its own token on).
    const besideCookie = await app.request('/__console/tasks', {
      headers: { authorization: 'Bearer proxy-token', cookie: ana.cookie },
    });
    expect(besideCookie.status).toBe(200);
    // Pages take no token: the sign-in redirect, as for anyone without a session.
    const page = await app.request('/tasks', {
      headers: { authorization: `Bearer ${made.token}`, accept: 'text/html' },
    });
    expect(page.status).toBe(303);
  });
});

describe('another site', () => {
  it('gets no CORS grant, so its pages cannot send a token: the preflight is refused without one', async () => {
    const app = open();
    for (const path of ['/v1/image_generate', '/__console/tasks', '/__console/tokens']) {
      const preflight = await app.request(path, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://evil.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(preflight.ok, path).toBe(false);
      expect(preflight.headers.get('access-control-allow-origin'), path).toBeNull();
      expect(preflight.headers.get('access-control-allow-headers'), path).toBeNull();
    }
  });
});

describe('listing and revoking', () => {
  it('lets a person revoke their own, an admin anyone\u2019s, and nobody else another\u2019s', async () => {
    const app = open();
    const ana = await signedIn('Ana', 'creator');
    const ben = await signedIn('Ben', 'creator');
    const ada = await signedIn('Ada', 'admin');
    const anas = await tokenOf(app, ana.cookie);
    const bens = await tokenOf(app, ben.cookie);
    const del = (id: string, cookie: string) =>
      app.request(`/__console/tokens/${id}`, { method: 'DELETE', headers: { cookie } });

    expect((await del(anas.id, ben.cookie)).status).toBe(404);
    expect((await app.request('/__console/tokens/all', { headers: { cookie: ben.cookie } })).status).toBe(
      403,
    );
    const all = (await (
      await app.request('/__console/tokens/all', { headers: { cookie: ada.cookie } })
    ).json()) as TokenList;
    expect(all.tokens.map((t) => t.personName).sort()).toEqual(['Ana', 'Ben']);
    // Each person's own list holds only theirs.
    const bensList = (await (
      await app.request('/__console/tokens', { headers: { cookie: ben.cookie } })
    ).json()) as TokenList;
    expect(bensList.tokens.map((t) => t.id)).toEqual([bens.id]);

    expect((await del(bens.id, ada.cookie)).status).toBe(200);
    expect((await del(bens.id, ada.cookie)).status).toBe(409);
    expect((await del('no-such-token', ada.cookie)).status).toBe(404);
    expect((await app.request('/__console/tasks', bearer(bens.token))).status).toBe(401);
    expect((await app.request('/__console/tasks', bearer(anas.token))).status).toBe(200);
    const revoke = (await nodeApp.identity.listAudit({ action: 'token.revoke' }))[0];
    expect(revoke).toMatchObject({ actorName: 'Ada', target: 'nightly', detail: { owner: 'Ben' } });
  });
});
