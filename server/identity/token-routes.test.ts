// /__console/tokens on a store stub: only this console's own pages manage tokens (a cross-site or
// same-site request that changes something is refused; reads and the browser's own are not), never
// a request made with a token, and a revocation that names someone else's token, a revoked one or
// one revoked meanwhile.
import { describe, expect, it, vi } from 'vitest';
import type { TokenView } from '../../src/api/api-tokens';
import type { ApiTokens } from './api-tokens';
import { IDENTITY_KEY, type Identity } from './request-identity';
import { createTokenRoutes } from './token-routes';

const ana: Identity = { userId: 'u-ana', name: 'Ana', role: 'creator', source: 'local' };
const view = (over: Partial<TokenView> = {}): TokenView => ({
  id: 't1',
  name: 'nightly',
  userId: 'u-ana',
  personName: 'Ana',
  createdAt: 1,
  expiresAt: 2,
  lastUsedAt: null,
  revokedAt: null,
  ...over,
});

/** `null`: no such token (found), or none revoked (a revocation that came first). */
function routes(found: TokenView | null = view(), revoked: TokenView | null = found) {
  const tokens = {
    list: vi.fn(async () => []),
    find: vi.fn(async () => found ?? undefined),
    revoke: vi.fn(async () => revoked ?? undefined),
    create: vi.fn(async () => ({ id: 't2', token: 'mct_x', name: 'n', expiresAt: 3 })),
  };
  const app = createTokenRoutes(tokens as unknown as ApiTokens);
  const ask = async (
    method: string,
    path: string,
    who: Identity = ana,
    headers: Record<string, string> = {},
  ) => {
    const res = await app.request(
      path,
      {
        method,
        headers: { 'content-type': 'application/json', ...headers },
        ...(method === 'POST' && { body: JSON.stringify({ name: 'n', expiresInDays: 1 }) }),
      },
      { [IDENTITY_KEY]: who },
    );
    return { status: res.status, body: (await res.json()) as { msg?: string } };
  };
  return { tokens, ask };
}

describe('who may manage tokens', () => {
  it("takes the console's own pages and a browser's direct request; refuses another site's and a sibling site's", async () => {
    const { ask, tokens } = routes();
    for (const site of ['same-origin', 'none'])
      expect((await ask('POST', '/__console/tokens', ana, { 'sec-fetch-site': site })).status, site).toBe(
        201,
      );
    expect((await ask('POST', '/__console/tokens')).status).toBe(201);
    for (const site of ['cross-site', 'same-site']) {
      expect(await ask('POST', '/__console/tokens', ana, { 'sec-fetch-site': site }), site).toEqual({
        status: 403,
        body: { code: 403, msg: 'API tokens can be managed only from this console itself' },
      });
      expect((await ask('DELETE', '/__console/tokens/t1', ana, { 'sec-fetch-site': site })).status).toBe(403);
    }
    expect(tokens.create).toHaveBeenCalledTimes(3);
    expect((await ask('GET', '/__console/tokens', ana, { 'sec-fetch-site': 'cross-site' })).status).toBe(200);
    expect(tokens.list).toHaveBeenCalledWith('u-ana');
  });

  it('refuses every token route to a request made with a token', async () => {
    const { ask, tokens } = routes();
    const scripted = { ...ana, tokenId: 't9' };
    for (const [method, path] of [
      ['GET', '/__console/tokens'],
      ['GET', '/__console/tokens/all'],
      ['DELETE', '/__console/tokens/t1'],
    ] as const)
      expect(await ask(method, path, scripted), path).toEqual({
        status: 403,
        body: { code: 403, msg: 'API tokens are made and revoked in the console, not with an API token' },
      });
    expect(tokens.list).not.toHaveBeenCalled();
    expect(tokens.revoke).not.toHaveBeenCalled();
  });

  it("lists everyone's for /all", async () => {
    const { ask, tokens } = routes();
    expect(await ask('GET', '/__console/tokens/all', { ...ana, role: 'admin' })).toEqual({
      status: 200,
      body: { tokens: [] },
    });
    expect(tokens.list).toHaveBeenCalledWith();
  });
});

describe('revoking', () => {
  it("revokes one's own; someone else's is no such token except to an admin", async () => {
    const { ask, tokens } = routes(view({ userId: 'u-ben' }));
    expect(await ask('DELETE', '/__console/tokens/t1')).toEqual({
      status: 404,
      body: { code: 404, msg: 'No such API token' },
    });
    expect(tokens.revoke).not.toHaveBeenCalled();
    const admin = { ...ana, role: 'admin' as const };
    expect(await ask('DELETE', '/__console/tokens/t1', admin)).toEqual({
      status: 200,
      body: { revoked: 't1' },
    });
    expect(tokens.revoke).toHaveBeenCalledWith('t1', admin);
    expect((await routes().ask('DELETE', '/__console/tokens/t1')).status).toBe(200);
    expect((await routes(null).ask('DELETE', '/__console/tokens/t1')).status).toBe(404);
  });

  it('says a revoked token is revoked already, and one revoked meanwhile too', async () => {
    const already = { status: 409, body: { code: 409, msg: 'This API token is already revoked' } };
    const { ask, tokens } = routes(view({ revokedAt: 5 }));
    expect(await ask('DELETE', '/__console/tokens/t1')).toEqual(already);
    expect(tokens.revoke).not.toHaveBeenCalled();
    expect(await routes(view(), null).ask('DELETE', '/__console/tokens/t1')).toEqual(already);
  });

  it('looks up at most 100 characters of an id', async () => {
    const { ask, tokens } = routes();
    await ask('DELETE', `/__console/tokens/${'i'.repeat(101)}`);
    expect(tokens.find).toHaveBeenCalledWith('i'.repeat(100));
  });
});

describe('making a token', () => {
  const post = async (body: string, made: unknown = undefined) => {
    const { tokens } = routes();
    if (made) tokens.create.mockResolvedValueOnce(made as never);
    const app = createTokenRoutes(tokens as unknown as ApiTokens);
    const res = await app.request(
      '/__console/tokens',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body },
      { [IDENTITY_KEY]: ana },
    );
    return { status: res.status, body: (await res.json()) as unknown, tokens };
  };

  it('refuses a body past 4 KiB, one that is not a token request, and a name of nothing printable', async () => {
    const name = (length: number) => JSON.stringify({ name: 'n', expiresInDays: 1, pad: 'x'.repeat(length) });
    const exact = name(4096 - name(0).length);
    expect(exact).toHaveLength(4096);
    expect((await post(exact)).status).toBe(201);
    expect(await post(name(4097 - name(0).length))).toMatchObject({
      status: 413,
      body: { code: 413, msg: 'A token request is at most 4096 bytes' },
    });
    expect((await post('[]')).status).toBe(400);
    const bell = await post(JSON.stringify({ name: '\u0007', expiresInDays: 1 }));
    expect(bell).toMatchObject({ status: 400, body: { code: 400, msg: 'Give the token a name' } });
    expect(bell.tokens.create).not.toHaveBeenCalled();
  });

  it('says how many a person may hold when they hold them all', async () => {
    expect(await post(JSON.stringify({ name: 'n', expiresInDays: 1 }), 'too-many')).toEqual({
      status: 409,
      body: { code: 409, msg: 'You have 20 API tokens, the most a person may hold: revoke one first' },
      tokens: expect.anything(),
    });
  });
});
