// A route's JSON body checked by its zod schema before the handler runs (@hono/zod-validator),
// which then reads the result with `c.req.valid('json')`. A failed check is answered as every
// console route answers bad input: 400 with `{code: 400, msg}`, never cached. The body is read only
// here, after server/http/body-limits.ts has bounded it.
import { zValidator } from '@hono/zod-validator';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { z } from '../../src/api/zod';
import { NO_STORE } from './no-store';

type Issues = z.core.$ZodIssue[];

/** The reason a 400 gives, from the schema's issues (the first is the one the schema checks first). */
export type IssueMessage = (issues: Issues) => string;

/** The first issue's own message: schemas that word each rule for people. */
export const firstIssueMessage =
  (fallback: string): IssueMessage =>
  (issues) =>
    issues[0]?.message ?? fallback;

/** `path: message` of the first issue, for schemas that keep zod's wording. */
export const firstIssueAtPath: IssueMessage = (issues) => {
  const issue = issues[0];
  return `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`;
};

const refuse = (c: Context, msg: string) => c.json({ code: 400, msg }, 400, NO_STORE);

/**
 * The JSON body, checked by `schema`. A body that is not JSON at all is judged as no body, so its
 * 400 carries the schema's reason too (the validator alone would throw, and answer in plain text).
 */
export function validJson<T extends z.ZodMiniType>(schema: T, message: IssueMessage) {
  const check = zValidator('json', schema, (result, c) => {
    if (!result.success) return refuse(c, message(result.error.issues));
  });
  const checkOrRefuse: typeof check = async (c, next) => {
    try {
      return await check(c, next);
    } catch (error) {
      // Only the validator's own refusal reaches here: Hono answers what the route throws itself.
      if (!(error instanceof HTTPException) || error.status !== 400) throw error;
      const asNoBody = schema.safeParse(undefined);
      return refuse(c, asNoBody.success ? error.message : message(asNoBody.error.issues));
    }
  };
  return checkOrRefuse;
}
