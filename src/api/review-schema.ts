// Comments and decisions on results as zod/mini schemas, for the OpenAPI description
// (server/openapi): the body of a change and the review the server answers. The rules themselves
// are checkReviewChange's (./reviews.ts); these schemas say the same bounds.
import { REVIEW_COMMENT_MAX, REVIEW_DECISIONS } from './reviews';
import { z } from './zod';

const decision = z.enum(REVIEW_DECISIONS);

/** What a task's view says of its review: counts and the time of the last change (epoch ms). */
export const reviewSummarySchema = z.object({
  approved: z.number(),
  changesRequested: z.number(),
  comments: z.number(),
  at: z.number(),
});

/** `decision`: set one, null clears your own, absent leaves it; `comment`: text. One at least. */
export const reviewChangeSchema = z.object({
  decision: z.optional(z.nullable(decision)),
  comment: z.optional(z.string().check(z.maxLength(REVIEW_COMMENT_MAX))),
});

export const reviewViewSchema = z.object({
  /** Every person's current decision, newest first. */
  decisions: z.array(z.object({ userId: z.string(), name: z.string(), decision, at: z.number() })),
  /** The comments, oldest first, each with the decision it was sent with. */
  comments: z.array(
    z.object({
      id: z.string(),
      userId: z.string(),
      name: z.string(),
      body: z.string(),
      decision: z.nullable(decision),
      at: z.number(),
    }),
  ),
});
