// The bodies of /__console/shares as zod schemas, for the OpenAPI description (server/openapi).
// The server checks a body with checkShareBody (./shares.ts), which says the same in words.
import { SHARE_DAYS_DEFAULT, SHARE_DAYS_MAX, SHARE_DAYS_MIN } from './shares';
import { z } from './zod';

const id = z.string().check(z.minLength(1), z.maxLength(200));

export const CreateShareBody = z.object({
  board: z.optional(id),
  request: z.optional(id),
  expiresInDays: z._default(
    z.int().check(z.minimum(SHARE_DAYS_MIN), z.maximum(SHARE_DAYS_MAX)),
    SHARE_DAYS_DEFAULT,
  ),
});

/** The answer to a creation: the link's address holds its token, shown this once. */
export const CreatedShare = z.object({ id: z.string(), url: z.string(), expiresAt: z.number() });

export const ShareList = z.object({
  code: z.number(),
  msg: z.string(),
  data: z.object({
    shares: z.array(
      z.object({
        id: z.string(),
        board: z.nullable(z.string()),
        request: z.nullable(z.string()),
        title: z.string(),
        createdBy: z.nullable(z.string()),
        createdById: z.nullable(z.string()),
        createdAt: z.number(),
        expiresAt: z.number(),
        openedCount: z.number(),
        lastOpenedAt: z.nullable(z.number()),
      }),
    ),
  }),
});
