// /__console/tokens: a person makes, lists and revokes their personal API tokens; admins list and
// revoke everyone's (the access table in ./access.ts lets every signed-in person through, and
// /__console/tokens/all admins only). Making, revoking and the first use in each hour go in the
// audit log (./api-tokens.ts).
import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import {
  CreateTokenBody,
  TOKENS_PER_PERSON_MAX,
  type CreatedToken,
  type TokenList,
} from '../../src/api/api-tokens';
import { cleanDisplayName } from '../http/display-text';
import { firstIssueMessage, validJson } from '../http/valid-input';
import type { ApiTokens } from './api-tokens';
import { roleAtLeast } from '../../src/api/roles';
import { identityOf, type Identity } from './request-identity';
import { NO_STORE } from '../http/no-store';

/** A name and a number of days: a few hundred bytes; anything larger is not a token request. */
const BODY_MAX_BYTES = 4 * 1024;

const fail = (c: Context, status: 400 | 403 | 404 | 409 | 413, msg: string) =>
  c.json({ code: status, msg }, status, NO_STORE);

/** A page elsewhere must not act through a person's browser (the cookie is SameSite=Strict too). */
function crossSite(c: Context): boolean {
  const site = c.req.header('sec-fetch-site');
  return Boolean(site && site !== 'same-origin' && site !== 'none');
}

export function createTokenRoutes(tokens: ApiTokens): Hono {
  const app = new Hono();

  // Tokens are managed by a signed-in person, never with a token: a leaked token must not be able to
  // make itself a successor that outlives its expiry or its revocation.
  const guard = async (c: Context, next: () => Promise<void>) => {
    if (c.req.method !== 'GET' && crossSite(c))
      return fail(c, 403, 'API tokens can be managed only from this console itself');
    // Stryker disable next-line OptionalChaining: the access guard in front always sets an identity (without one, the route below throws anyway)
    if (identityOf(c)?.tokenId)
      return fail(c, 403, 'API tokens are made and revoked in the console, not with an API token');
    await next();
  };
  // `/*` takes /__console/tokens itself too.
  app.use('/__console/tokens/*', guard);

  const me = (c: Context) => identityOf(c) as Identity;

  app.get('/__console/tokens', async (c) =>
    c.json({ tokens: await tokens.list(me(c).userId) } satisfies TokenList, 200, NO_STORE),
  );
  app.get('/__console/tokens/all', async (c) =>
    c.json({ tokens: await tokens.list() } satisfies TokenList, 200, NO_STORE),
  );

  app.post(
    '/__console/tokens',
    bodyLimit({
      maxSize: BODY_MAX_BYTES,
      onError: (c) => fail(c, 413, `A token request is at most ${BODY_MAX_BYTES} bytes`),
    }),
    // Stryker disable next-line StringLiteral: zod names an issue for every refusal, so this fallback is never read
    validJson(CreateTokenBody, firstIssueMessage('Send { "name", "expiresInDays" }')),
    async (c) => {
      const body = c.req.valid('json');
      const name = cleanDisplayName(body.name);
      if (!name) return fail(c, 400, 'Give the token a name');
      const made = await tokens.create(me(c), name, body.expiresInDays);
      if (made === 'too-many')
        return fail(
          c,
          409,
          `You have ${TOKENS_PER_PERSON_MAX} API tokens, the most a person may hold: revoke one first`,
        );
      return c.json(made satisfies CreatedToken, 201, NO_STORE);
    },
  );

  app.delete('/__console/tokens/:id', async (c) => {
    const who = me(c);
    const id = c.req.param('id').slice(0, 100);
    const token = await tokens.find(id);
    // Someone else's token is "no such token" to anyone but an admin: ids are not to be probed.
    if (!token || (token.userId !== who.userId && !roleAtLeast(who.role, 'admin')))
      return fail(c, 404, 'No such API token');
    if (token.revokedAt !== null) return fail(c, 409, 'This API token is already revoked');
    const revoked = await tokens.revoke(id, who);
    if (!revoked) return fail(c, 409, 'This API token is already revoked');
    return c.json({ revoked: id }, 200, NO_STORE);
  });

  return app;
}
