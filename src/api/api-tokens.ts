// Personal API tokens: a person's scripts call the console with `Authorization: Bearer
// <token>` and act as that person. The bounds and bodies of /__console/tokens, one definition for the
// server that enforces them (server/identity/api-tokens.ts), the People screen that makes them and
// the OpenAPI description (server/openapi).
import { TOKEN_DAYS_MAX, TOKEN_DAYS_MIN, TOKEN_NAME_MAX } from './api-token-rules';
import { z } from './zod';

export * from './api-token-rules';

export const CreateTokenBody = z.object({
  name: z
    .string({ error: 'name is required' })
    .check(
      z.trim(),
      z.minLength(1, 'Give the token a name'),
      z.maxLength(TOKEN_NAME_MAX, `A token's name is at most ${TOKEN_NAME_MAX} characters`),
    ),
  expiresInDays: z
    .int({ error: `expiresInDays must be a whole number of days` })
    .check(
      z.minimum(TOKEN_DAYS_MIN, `A token lasts at least ${TOKEN_DAYS_MIN} day`),
      z.maximum(TOKEN_DAYS_MAX, `A token lasts at most ${TOKEN_DAYS_MAX} days`),
    ),
});
export type CreateTokenBody = z.infer<typeof CreateTokenBody>;

/** The answer to a creation: the token itself is in it, and nowhere ever again. */
export const CreatedToken = z.object({
  id: z.string(),
  token: z.string(),
  name: z.string(),
  expiresAt: z.number(),
});
export type CreatedToken = z.infer<typeof CreatedToken>;

/** A token as lists show it: never the token, nor its hash. Times are epoch milliseconds. */
export const TokenView = z.object({
  id: z.string(),
  name: z.string(),
  userId: z.string(),
  personName: z.string(),
  createdAt: z.number(),
  expiresAt: z.number(),
  lastUsedAt: z.nullable(z.number()),
  revokedAt: z.nullable(z.number()),
});
export type TokenView = z.infer<typeof TokenView>;

export const TokenList = z.object({ tokens: z.array(TokenView) });
export type TokenList = z.infer<typeof TokenList>;
