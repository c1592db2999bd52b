// The access table and its guard without a server: each rule's own paths, the near misses its
// anchors and quantifiers keep out (they fall to another rule or to the admin-only default), the
// words of each refusal, and what the guard does with a bearer token, an anonymous request and a
// person seen for the first time. (access.test.ts drives every route × role through the real app.)
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { API_TOKEN_PREFIX } from '../../src/api/api-tokens';
import type { Role } from '../../src/api/roles';
import { SESSION_ID_KEY } from '../http/stream-limits';
import { accessGuard, accessRule } from './access';
import { INVALID_TOKEN_MESSAGE, type ApiTokens } from './api-tokens';
import { IDENTITY_KEY, type Identity } from './request-identity';

type Need = 'public' | Role;
const C = '/__console';
const DEFAULT = ['admin', 'do this'] as const;
/** method, path, the least role, what the refusal says the role allows. */
const RULES: [string, string, readonly [Need, string]][] = [
  ['POST', '/callbacks/abc', ['public', 'deliver callbacks']],
  ['POST', '/callbacks/abc/', ['public', 'deliver callbacks']],
  ['POST', '/callbacks/a/b', DEFAULT],
  ['POST', '/x/callbacks/abc', DEFAULT],
  ['GET', '/callbacks/abc', DEFAULT],
  ['GET', '/emulator/media/a.png', ['public', 'read media']],
  ['HEAD', '/emulator/samples', ['public', 'read media']],
  ['GET', '/emulator/uploads/x', ['public', 'read media']],
  ['GET', '/emulator/mediax', DEFAULT],
  ['GET', '/x/emulator/media/a.png', DEFAULT],
  ['GET', '/emulator/health', ['public', 'check health']],
  ['GET', '/emulator/healthz', DEFAULT],
  ['GET', '/x/emulator/health', DEFAULT],
  ['GET', '/s/-/share.css', ['public', 'open a share link']],
  ['GET', '/s/-/share.js', ['public', 'open a share link']],
  ['GET', '/s/aZ9_-', ['public', 'open a share link']],
  ['GET', '/s/abc/media/t1/10', ['public', 'open a share link']],
  ['GET', '/s/abc/media/t1', DEFAULT],
  ['GET', '/s/abc/media/t1/0/x', DEFAULT],
  ['GET', '/s/abc/media//0', DEFAULT],
  ['GET', '/s/abc/media/t1/', DEFAULT],
  ['GET', '/s/a.b', DEFAULT],
  ['GET', '/s/', DEFAULT],
  ['GET', '/x/s/abc', DEFAULT],
  ['POST', '/s/abc', DEFAULT],
  ['GET', `${C}/config`, ['viewer', 'open the console']],
  ['GET', `${C}/configx`, DEFAULT],
  ['GET', `/x${C}/config`, DEFAULT],
  ['GET', `${C}/openapi.json`, ['viewer', 'read the API description']],
  ['GET', `${C}/openapi.jsonx`, DEFAULT],
  ['GET', `/x${C}/openapi.json`, DEFAULT],
  ['GET', `${C}/tasks`, ['viewer', "read the team's tasks"]],
  ['HEAD', `${C}/tasks/a/b`, ['viewer', "read the team's tasks"]],
  ['GET', `${C}/tasksx`, DEFAULT],
  ['GET', `/x${C}/tasks`, DEFAULT],
  ['POST', `${C}/tasks/zip`, ['viewer', 'download or hide tasks']],
  ['POST', `${C}/tasks/hidden`, ['viewer', 'download or hide tasks']],
  ['POST', `${C}/tasks/zipx`, DEFAULT],
  ['POST', `/x${C}/tasks/zip`, DEFAULT],
  ['POST', `${C}/tasks/t1/check`, ['viewer', 'check a task again']],
  ['POST', `${C}/tasks/a/b/check`, DEFAULT],
  ['POST', `${C}/tasks//check`, DEFAULT],
  ['POST', `${C}/tasks/t1/checkx`, DEFAULT],
  ['POST', `/x${C}/tasks/t1/check`, DEFAULT],
  ['GET', `${C}/follow`, ['admin', 'see how tasks are followed']],
  ['GET', `${C}/followx`, DEFAULT],
  ['GET', `/x${C}/follow`, DEFAULT],
  ['GET', `${C}/webhooks`, ['creator', 'manage webhooks']],
  ['HEAD', `${C}/webhooks/w1`, ['creator', 'manage webhooks']],
  ['POST', `${C}/webhooks`, ['creator', 'manage webhooks']],
  ['DELETE', `${C}/webhooks/w1`, ['creator', 'manage webhooks']],
  ['GET', `${C}/webhooks/w1/deliveries`, ['creator', 'manage webhooks']],
  ['GET', `${C}/webhooks//deliveries`, DEFAULT],
  ['GET', `${C}/webhooks/w1/deliveriesx`, DEFAULT],
  ['GET', `${C}/webhooks/w1/x/deliveries`, DEFAULT],
  ['GET', `/x${C}/webhooks`, DEFAULT],
  ['PUT', `${C}/webhooks`, DEFAULT],
  ['GET', `${C}/stars`, ['viewer', 'star results']],
  ['HEAD', `${C}/stars`, ['viewer', 'star results']],
  ['POST', `${C}/stars`, ['viewer', 'star results']],
  ['GET', `${C}/starsx`, DEFAULT],
  ['GET', `/x${C}/stars`, DEFAULT],
  ['DELETE', `${C}/stars`, DEFAULT],
  ['GET', `${C}/boards`, ['viewer', "see the team's boards"]],
  ['HEAD', `${C}/boards/b/x`, ['viewer', "see the team's boards"]],
  ['GET', `${C}/boardsx`, DEFAULT],
  ['GET', `/x${C}/boards`, DEFAULT],
  ['POST', `${C}/boards`, ['creator', 'make or change boards']],
  ['PATCH', `${C}/boards/b`, ['creator', 'make or change boards']],
  ['PUT', `${C}/boards/b/order`, ['creator', 'make or change boards']],
  ['DELETE', `${C}/boards/b`, ['creator', 'make or change boards']],
  ['POST', `${C}/boardsx`, DEFAULT],
  ['POST', `/x${C}/boards`, DEFAULT],
  ['GET', `${C}/shares`, ['creator', 'share boards and requests']],
  ['HEAD', `${C}/shares/s1`, ['creator', 'share boards and requests']],
  ['POST', `${C}/shares`, ['creator', 'share boards and requests']],
  ['DELETE', `${C}/shares/s1`, ['creator', 'share boards and requests']],
  ['DELETE', `${C}/shares/`, DEFAULT],
  ['DELETE', `${C}/shares/s1/x`, DEFAULT],
  ['GET', `/x${C}/shares`, DEFAULT],
  ['PUT', `${C}/shares`, DEFAULT],
  ['GET', `${C}/reviews/t1`, ['viewer', 'read reviews']],
  ['HEAD', `${C}/reviews/t1`, ['viewer', 'read reviews']],
  ['GET', `${C}/reviews/`, DEFAULT],
  ['GET', `${C}/reviews/t1/x`, DEFAULT],
  ['GET', `/x${C}/reviews/t1`, DEFAULT],
  ['POST', `${C}/reviews/t1`, ['viewer', 'review results']],
  ['POST', `${C}/reviews/`, DEFAULT],
  ['POST', `${C}/reviews/t1/x`, DEFAULT],
  ['POST', `/x${C}/reviews/t1`, DEFAULT],
  ['DELETE', `${C}/reviews/t1/comments/c1`, ['viewer', 'delete comments']],
  ['DELETE', `${C}/reviews//comments/c1`, DEFAULT],
  ['DELETE', `${C}/reviews/t1/comments/`, DEFAULT],
  ['DELETE', `${C}/reviews/t1/comments/c1/x`, DEFAULT],
  ['DELETE', `${C}/reviews/a/b/comments/c1`, DEFAULT],
  ['DELETE', `/x${C}/reviews/t1/comments/c1`, DEFAULT],
  ['GET', `${C}/results/t1/image/0`, ['viewer', "read the team's results"]],
  ['HEAD', `${C}/results/t1`, ['viewer', "read the team's results"]],
  ['GET', `/x${C}/results/t1`, DEFAULT],
  ['GET', `${C}/preview`, ['viewer', 'preview an image']],
  ['GET', `${C}/previewx`, DEFAULT],
  ['GET', `/x${C}/preview`, DEFAULT],
  ['GET', `${C}/storage`, ['admin', 'see the storage used']],
  ['GET', `${C}/storagex`, DEFAULT],
  ['GET', `/x${C}/storage`, DEFAULT],
  ['DELETE', `${C}/results/t1`, ['admin', 'remove kept results']],
  ['DELETE', `${C}/results/`, DEFAULT],
  ['DELETE', `${C}/results/t1/x`, DEFAULT],
  ['DELETE', `/x${C}/results/t1`, DEFAULT],
  ['GET', `${C}/requests`, ['viewer', "read the team's requests"]],
  ['HEAD', `${C}/requests/r1/x`, ['viewer', "read the team's requests"]],
  ['GET', `${C}/requestsx`, DEFAULT],
  ['GET', `/x${C}/requests`, DEFAULT],
  ['GET', `${C}/insights`, ['viewer', "read the team's insights"]],
  ['HEAD', `${C}/insights.csv`, ['viewer', "read the team's insights"]],
  ['GET', `${C}/insights.csvx`, DEFAULT],
  ['GET', `/x${C}/insights`, DEFAULT],
  ['GET', `${C}/limits`, ['viewer', 'read their limits']],
  ['GET', `${C}/limitsx`, DEFAULT],
  ['GET', `/x${C}/limits`, DEFAULT],
  ['GET', `${C}/limits/all`, ['admin', 'manage the limits']],
  ['GET', `${C}/limits/allx`, DEFAULT],
  ['GET', `/x${C}/limits/all`, DEFAULT],
  ['PUT', `${C}/limits`, ['admin', 'set the limits']],
  ['PUT', `${C}/limitsx`, DEFAULT],
  ['PUT', `/x${C}/limits`, DEFAULT],
  ['GET', `${C}/callbacks/log`, ['viewer', 'read the callbacks log']],
  ['HEAD', `${C}/callbacks/events`, ['viewer', 'read the callbacks log']],
  ['GET', `${C}/callbacks/logx`, DEFAULT],
  ['GET', `/x${C}/callbacks/log`, DEFAULT],
  ['GET', '/callbacks/abc/log', ['viewer', 'read the callbacks log']],
  ['HEAD', '/callbacks/abc/events', ['viewer', 'read the callbacks log']],
  ['GET', '/callbacks//log', DEFAULT],
  ['GET', '/callbacks/a/b/log', DEFAULT],
  ['GET', '/callbacks/abc/logx', DEFAULT],
  ['GET', '/x/callbacks/abc/log', DEFAULT],
  ['POST', `${C}/callbacks`, ['creator', 'add callbacks by hand']],
  ['POST', `${C}/callbacksx`, DEFAULT],
  ['POST', `/x${C}/callbacks`, DEFAULT],
  ['GET', '/v1/image_generate/t1', ['viewer', 'check task status']],
  ['HEAD', '/v1/x', ['viewer', 'check task status']],
  ['GET', '/x/v1/x', DEFAULT],
  ['POST', '/v1/image_generate', ['creator', 'create tasks or upload files']],
  ['POST', '/x/v1/image_generate', DEFAULT],
  ['DELETE', '/v1/image_generate', DEFAULT],
  ['GET', '/emulator/settings', ['viewer', "read the emulator's settings"]],
  ['HEAD', '/emulator/settings', ['viewer', "read the emulator's settings"]],
  ['GET', '/emulator/settingsx', DEFAULT],
  ['GET', '/x/emulator/settings', DEFAULT],
  ['POST', '/emulator/settings', ['admin', "change the emulator's settings"]],
  ['POST', '/emulator/settingsx', DEFAULT],
  ['POST', '/x/emulator/settings', DEFAULT],
  ['GET', `${C}/tokens/all`, ['admin', "see everyone's API tokens"]],
  ['HEAD', `${C}/tokens/all`, ['admin', "see everyone's API tokens"]],
  ['GET', `${C}/tokens/allx`, DEFAULT],
  ['GET', `/x${C}/tokens/all`, DEFAULT],
  ['GET', `${C}/tokens`, ['viewer', 'make API tokens']],
  ['HEAD', `${C}/tokens`, ['viewer', 'make API tokens']],
  ['POST', `${C}/tokens`, ['viewer', 'make API tokens']],
  ['GET', `${C}/tokensx`, DEFAULT],
  ['POST', `/x${C}/tokens`, DEFAULT],
  ['DELETE', `${C}/tokens/t1`, ['viewer', 'revoke API tokens']],
  ['DELETE', `${C}/tokens/`, DEFAULT],
  ['DELETE', `${C}/tokens/t1/x`, DEFAULT],
  ['DELETE', `/x${C}/tokens/t1`, DEFAULT],
  ['GET', `${C}/people`, ['admin', 'manage people']],
  ['HEAD', `${C}/audit/x`, ['admin', 'manage people']],
  ['GET', `${C}/people/u1/sessions`, ['admin', 'manage people']],
  ['GET', `${C}/invitations`, ['admin', 'manage people']],
  ['GET', `${C}/peoplex`, DEFAULT],
  ['GET', `/x${C}/people`, DEFAULT],
  ['post', `${C}/tasks/zip`, ['viewer', 'download or hide tasks']],
];

describe('the access table, rule by rule', () => {
  it('gives each path its rule, and a near miss another rule or the admin-only default', () => {
    const got = RULES.map(([method, path]) => {
      const rule = accessRule(method, path);
      return [method, path, [rule.need, rule.what]];
    });
    expect(got).toEqual(RULES);
  });
});

const ada: Identity = { userId: 'u-ada', name: 'Ada', role: 'creator', source: 'local', sessionId: 's-ada' };
const GOOD_TOKEN = `${API_TOKEN_PREFIX}${'g'.repeat(43)}`;
const tokenPerson: Identity = { ...ada, userId: 'u-tok', name: 'Tok', sessionId: 'token:t1', tokenId: 't1' };

/** A token store that knows GOOD_TOKEN only, and counts what it is asked. */
function stubTokens() {
  const asked: string[] = [];
  const tokens = {
    identify: async (token: string) => {
      asked.push(token);
      return token === GOOD_TOKEN ? tokenPerson : undefined;
    },
  } as unknown as ApiTokens;
  return { tokens, asked };
}

/** An app behind the guard whose one handler answers who it was let through as. */
function guarded(options: Parameters<typeof accessGuard>[0]) {
  const app = new Hono();
  app.use(accessGuard(options));
  app.all('*', (c) =>
    c.json({
      who: (c.get(IDENTITY_KEY as never) as Identity | undefined)?.userId ?? null,
      session: (c.get(SESSION_ID_KEY as never) as string | undefined) ?? null,
    }),
  );
  const ask = async (path: string, init: RequestInit = {}, who?: Identity) => {
    const res = await app.request(path, init, who ? { [IDENTITY_KEY]: who } : {});
    return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
  };
  return ask;
}

const bearer = (token: string) => ({ headers: { authorization: `Bearer ${token}` } });

describe('the access guard', () => {
  it('lets a public path through with nobody, and refuses anyone else without an identity', async () => {
    const ask = guarded({});
    expect(await ask('/emulator/health')).toMatchObject({ status: 200, body: { who: null } });
    const refused = await ask('/__console/tasks');
    expect(refused).toMatchObject({ status: 401, body: { code: 401, msg: 'Sign in to the console first' } });
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });

  it("refuses a role below the rule's with the rule's words, and lets the role at it through", async () => {
    const ask = guarded({});
    const viewer = { ...ada, role: 'viewer' as const };
    const refused = await ask('/v1/image_generate', { method: 'POST' }, viewer);
    expect(refused).toMatchObject({
      status: 403,
      body: {
        code: 403,
        role: 'viewer',
        msg: 'Only creators and admins can create tasks or upload files. Ask an admin for the creator role.',
      },
    });
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(await ask('/v1/image_generate', { method: 'POST' }, ada)).toMatchObject({
      status: 200,
      body: { who: 'u-ada', session: 's-ada' },
    });
  });

  it('acts as the anonymous identity when none is handed over, and notes each person once', async () => {
    const seen: string[] = [];
    const ask = guarded({
      anonymous: { ...ada, sessionId: undefined },
      seen: async (who) => {
        await Promise.resolve();
        seen.push(who.userId);
      },
    });
    expect(await ask('/__console/tasks')).toMatchObject({
      status: 200,
      body: { who: 'u-ada', session: null },
    });
    await ask('/__console/tasks');
    await ask('/__console/tasks', {}, { ...ada, userId: 'u-ben' });
    expect(seen).toEqual(['u-ada', 'u-ben']);
  });

  it('takes a console token when no identity is handed over, and only then', async () => {
    const { tokens, asked } = stubTokens();
    const ask = guarded({ apiTokens: tokens });
    expect(await ask('/__console/tasks', bearer(GOOD_TOKEN))).toMatchObject({
      status: 200,
      body: { who: 'u-tok', session: 'token:t1' },
    });
    expect(await ask('/__console/tasks', bearer(GOOD_TOKEN), ada)).toMatchObject({ body: { who: 'u-ada' } });
    expect(asked).toEqual([GOOD_TOKEN]);
  });

  it('refuses a console token that is not valid, even beside an anonymous identity', async () => {
    const { tokens } = stubTokens();
    const ask = guarded({ apiTokens: tokens, anonymous: ada });
    const refused = await ask('/__console/tasks', bearer(`${API_TOKEN_PREFIX}${'x'.repeat(43)}`));
    expect(refused).toMatchObject({ status: 401, body: { code: 401, msg: INVALID_TOKEN_MESSAGE } });
    expect(refused.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(refused.headers.get('cache-control')).toBe('no-store');
  });

  it('ignores a foreign bearer token: the anonymous identity, or the sign-in refusal without one', async () => {
    const { tokens, asked } = stubTokens();
    expect(
      await guarded({ apiTokens: tokens, anonymous: ada })('/__console/tasks', bearer('service-token')),
    ).toMatchObject({ status: 200, body: { who: 'u-ada' } });
    expect(await guarded({ apiTokens: tokens })('/__console/tasks', bearer('service-token'))).toMatchObject({
      status: 401,
      body: { msg: 'Sign in to the console first' },
    });
    expect(asked).toEqual([]);
  });
});
