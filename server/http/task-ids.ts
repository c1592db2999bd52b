// A list of task ids in a request body (the bulk actions, stars, a board's items), as one zod rule:
// one or more ids, each 1-200 characters with no NUL (what the tables store), repeats dropped with
// the order kept, and at most `max` after that. Routes read it through `validJson` (./valid-input.ts).
import { z } from '../../src/api/zod';
import type { IssueMessage } from './valid-input';

export const STORED_ID_MAX_LENGTH = 200;

/** An id as the tables store it (a task's, a request's, a board's): 1-200 characters, no NUL. */
export const storedId = z.string().check(
  z.minLength(1),
  z.maxLength(STORED_ID_MAX_LENGTH),
  z.refine((id) => !id.includes('\0')),
);

export function taskIdList(max: number, tooMany: string) {
  return z
    .pipe(
      z.array(storedId).check(z.minLength(1)),
      z.transform((ids: string[]) => [...new Set(ids)]),
    )
    .check(z.refine((ids) => ids.length <= max, tooMany));
}

/** The 400's reason: `tooMany` when the list was too long, else what the body should be. */
export const tooManyOr =
  (tooMany: string, otherwise: string): IssueMessage =>
  (issues) =>
    issues.some((issue) => issue.message === tooMany) ? tooMany : otherwise;
