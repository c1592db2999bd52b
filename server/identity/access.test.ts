// Every route of the Node side × every role: the server refuses what a role may not do, whatever
// the browser shows. Run against the real Node side (emulator, record, inbox, people) with the
// identity handed over in the env, as `npm start`'s sign-in does.
import { describe, expect, it } from 'vitest';
import type { Role } from '../../src/api/roles';
import { CONSOLE_CALLBACKS_PATH } from '../../src/api/core/rules';
import { asPerson } from '../testing/identity';
import { useTestNodeApp } from '../testing/test-node-app';
import { accessRule } from './access';

// One app for the whole file: its 153 tests are a request each.
const server = useTestNodeApp('access-test', { options: { anonymous: null } }, 'file');
const SECRET = server.secret;

type Need = 'public' | Role;
const json = (body: unknown) => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});
const upload = () => {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])]), 'a.png');
  return { body: form };
};

/** method, path, body, the least role it needs. */
const ROUTES: [string, string, (() => RequestInit) | undefined, Need][] = [
  ['GET', '/__console/config', undefined, 'viewer'],
  ['GET', '/__console/openapi.json', undefined, 'viewer'],
  ['GET', '/__console/tasks', undefined, 'viewer'],
  ['GET', '/__console/tasks/i2is-none', undefined, 'viewer'],
  ['GET', '/__console/tasks/events', undefined, 'viewer'],
  ['GET', '/__console/tasks/i2is-none/download/result', undefined, 'viewer'],
  ['GET', '/__console/tasks/v2vs-none/download/captions', undefined, 'viewer'],
  ['GET', '/__console/results/i2is-none/image/0', undefined, 'viewer'],
  ['GET', '/__console/storage', undefined, 'admin'],
  ['DELETE', '/__console/results/i2is-none', undefined, 'admin'],
  ['GET', '/__console/requests', undefined, 'viewer'],
  ['GET', '/__console/requests/req-i2is-none', undefined, 'viewer'],
  ['GET', '/__console/insights', undefined, 'viewer'],
  ['GET', '/__console/insights.csv', undefined, 'viewer'],
  ['GET', '/__console/limits', undefined, 'viewer'],
  ['GET', '/__console/limits/all', undefined, 'admin'],
  ['PUT', '/__console/limits', () => json({ scope: 'team', limits: [] }), 'admin'],
  ['GET', `${CONSOLE_CALLBACKS_PATH}/log`, undefined, 'viewer'],
  ['GET', `${CONSOLE_CALLBACKS_PATH}/events`, undefined, 'viewer'],
  ['GET', `/callbacks/${SECRET}/log`, undefined, 'viewer'],
  ['POST', CONSOLE_CALLBACKS_PATH, () => json({}), 'creator'],
  ['GET', '/v1/image_generate/i2is-none', undefined, 'viewer'],
  ['GET', '/v1/video_translate/target_languages', undefined, 'viewer'],
  ['POST', '/v1/image_generate', () => json({ prompt: 'a fox', generate_count: 1 }), 'creator'],
  ['POST', '/v1/video_translate', () => json({}), 'creator'],
  ['POST', '/v1/image_to_video', () => json({}), 'creator'],
  ['POST', '/v1/figure-resource/upload/file', upload, 'creator'],
  ['GET', '/emulator/settings', undefined, 'viewer'],
  ['POST', '/emulator/settings', () => json({}), 'admin'],
  // Stars and boards (server/boards): each person's stars; boards read by all, changed by creators.
  ['GET', '/__console/stars', undefined, 'viewer'],
  ['POST', '/__console/stars', () => json({ ids: ['i2is-none'], starred: true }), 'viewer'],
  ['GET', '/__console/boards', undefined, 'viewer'],
  ['GET', '/__console/boards/events', undefined, 'viewer'],
  ['GET', '/__console/boards/b-none', undefined, 'viewer'],
  ['GET', '/__console/boards/b-none/zip', undefined, 'viewer'],
  ['POST', '/__console/boards', () => json({ name: 'Access' }), 'creator'],
  ['PATCH', '/__console/boards/b-none', () => json({ name: 'x' }), 'creator'],
  ['DELETE', '/__console/boards/b-none', undefined, 'creator'],
  ['POST', '/__console/boards/b-none/items', () => json({ ids: ['i2is-none'] }), 'creator'],
  ['POST', '/__console/boards/b-none/items/remove', () => json({ ids: ['i2is-none'] }), 'creator'],
  ['PUT', '/__console/boards/b-none/order', () => json({ ids: ['i2is-none'] }), 'creator'],
  ['GET', '/__console/people', undefined, 'admin'],
  ['POST', '/__console/people/nobody/role', () => json({ role: 'viewer' }), 'admin'],
  ['DELETE', '/__console/people/nobody', undefined, 'admin'],
  ['GET', '/__console/audit', undefined, 'admin'],
  ['GET', '/__console/invitations', undefined, 'admin'],
  ['POST', '/__console/invitations', () => json({ role: 'viewer' }), 'admin'],
  ['DELETE', '/__console/invitations/nothing', undefined, 'admin'],
  ['GET', '/__console/tokens', undefined, 'viewer'],
  ['POST', '/__console/tokens', () => json({ name: 'script', expiresInDays: 1 }), 'viewer'],
  ['DELETE', '/__console/tokens/nothing', undefined, 'viewer'],
  ['GET', '/__console/tokens/all', undefined, 'admin'],
  ['POST', '/__console/unknown', () => json({}), 'admin'],
  ['POST', `/callbacks/${SECRET}`, () => json({}), 'public'],
  ['GET', '/emulator/samples', undefined, 'public'],
];

const RANK = { public: -1, viewer: 0, creator: 1, admin: 2 } as const;

async function ask(method: string, path: string, init: (() => RequestInit) | undefined, who?: Role) {
  const controller = new AbortController();
  const res = await server.request(
    path,
    { method, signal: controller.signal, ...init?.() },
    who ? asPerson(`A ${who}`, who) : undefined,
  );
  // Event streams stay open: the status (and a refusal's message) is all this test needs.
  const refused = res.status === 401 || res.status === 403;
  const body = refused ? ((await res.json()) as { msg: string }) : undefined;
  controller.abort();
  await res.body?.cancel().catch(() => undefined);
  return { status: res.status, body };
}

describe('roles on every route', () => {
  for (const [method, path, init, need] of ROUTES) {
    for (const who of [undefined, 'viewer', 'creator', 'admin'] as const) {
      const allowed = need === 'public' || (who !== undefined && RANK[who] >= RANK[need]);
      it(`${method} ${path} as ${who ?? 'nobody'}: ${allowed ? 'allowed' : 'refused'}`, async () => {
        expect(accessRule(method, path).need).toBe(need);
        const res = await ask(method, path, init, who);
        if (allowed) expect([401, 403]).not.toContain(res.status);
        else {
          expect(res.status).toBe(who ? 403 : 401);
          if (who) expect(res.body?.msg).toMatch(/^Only (admins|creators and admins) can /);
        }
      });
    }
  }
});

describe('audit of settings', () => {
  it("records an admin's change of the emulator's settings", async () => {
    const res = await server.request(
      '/emulator/settings',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({}) },
      asPerson('Ada', 'admin'),
    );
    expect(res.ok).toBe(true);
    const entries = await server.nodeApp.identity.listAudit({ action: 'settings.change' });
    expect(entries[0]).toMatchObject({ actorName: 'Ada', target: 'emulator' });
  });
});
