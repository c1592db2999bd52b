// A view of the Tasks screen as SQL conditions on `tasks`, and what a search needs of them: the
// phases the trigram indexes are split by, the LIKE pattern, whether the indexes can help.
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import {
  NO_ERROR_CODE,
  searchLikePattern,
  TASK_PHASES,
  type TaskViewQuery,
} from '../../src/api/task-view/task-view-rule';
import { FAILURE_CODE, FAILURE_REASON } from '../db/failure-sql';
import type { TaskPhase } from '../db/schema';
import { changesRequested } from '../reviews/summary';

/**
 * The view asked for, by the one rule of src/api/task-view/task-view-rule.ts: the tab's phases, the kind,
 * the creator, and "contains" over the searched fields (the `search` column); and, for a person
 * (`hiddenBy`, their user id), without the tasks they hid from their view (`hidden_tasks`).
 */
export type TaskFilter = TaskViewQuery & {
  hiddenBy?: string;
  /** Only the tasks this person (their user id) starred: the Starred view (`starred_tasks`). */
  starredBy?: string;
  /** Only the results someone asked changes on (`review_decisions`, server/reviews). */
  changesRequested?: boolean;
  /** The person asking, for the "starred first" order. */
  asker?: string;
};

/** The phases, one per tab but "all": the trigram indexes are one per phase (migration 0005). */
export const PHASES = TASK_PHASES satisfies readonly TaskPhase[];

/** `%text%` for LIKE on `search` (the rule's searched fields, lower-cased), or none. */
export const searchPattern = searchLikePattern;

/**
 * Whether the trigram indexes can find the search: pg_trgm takes trigrams from runs of letters and
 * digits, so "bo" or "--" give it none, and the index would be read whole.
 */
export function indexable(q: string | undefined): boolean {
  return /[\p{L}\p{N}]{3}/u.test(q ?? '');
}

/**
 * Not among the tasks this person hid: one look-up in hidden_tasks' primary key per row, so a page
 * is filled with rows the person sees (keyset paging walks past the hidden ones) and the counts
 * leave them out.
 */
export const notHiddenBy = (userId: string) =>
  sql<SqlBool>`not exists (select 1 from hidden_tasks h where h.user_id = ${userId} and h.task_id = tasks.id)`;

/**
 * Among the tasks this person starred: a semi-join from their own rows of starred_tasks (at most
 * STARS_MAX), so the planner can start from the small side. Unqualified `id`: it works for `tasks`
 * and for an alias of it.
 */
export const starredBy = (userId: string) =>
  sql<SqlBool>`id in (select s.task_id from starred_tasks s where s.user_id = ${userId})`;

/**
 * The filter's conditions, unqualified (for `tasks` or a subquery of it). `phase`: one tab's, none
 * (`undefined`), or `every`: with a search, the three named, so that a search of every tab can use
 * the three per-phase trigram indexes together (a BitmapOr); the planner would not split an IN.
 */
export function conditions(
  filter: Omit<TaskFilter, 'tab'>,
  phase: TaskPhase | 'every' | undefined,
): RawBuilder<SqlBool> {
  const terms: RawBuilder<unknown>[] = [];
  if (filter.kind) terms.push(sql`kind = ${filter.kind}`);
  if (filter.creator) terms.push(sql`creator = ${filter.creator}`);
  if (filter.from !== undefined)
    terms.push(sql`created_at >= ${new Date(filter.from).toISOString()}::timestamptz`);
  if (filter.to !== undefined)
    terms.push(sql`created_at < ${new Date(filter.to).toISOString()}::timestamptz`);
  if (filter.errorCode !== undefined || filter.errorReason !== undefined)
    terms.push(sql`phase = ${sql.lit('failed')}`);
  if (filter.errorCode === NO_ERROR_CODE) terms.push(sql`${FAILURE_CODE} is null`);
  else if (filter.errorCode !== undefined) terms.push(sql`${FAILURE_CODE} = ${filter.errorCode}`);
  if (filter.errorReason !== undefined) terms.push(sql`${FAILURE_REASON} = ${filter.errorReason}`);
  // Stryker disable next-line ConditionalExpression: notHiddenBy(undefined) compares with null and leaves out nothing
  if (filter.hiddenBy !== undefined) terms.push(notHiddenBy(filter.hiddenBy));
  if (filter.starredBy !== undefined) terms.push(starredBy(filter.starredBy));
  if (filter.changesRequested) terms.push(changesRequested());
  const pattern = searchPattern(filter.q);
  if (pattern) terms.push(sql`search like ${pattern}`);
  // Phases as literals: a partial index's predicate is matched against constants.
  if (phase === 'every') {
    if (pattern)
      terms.push(
        sql`(${sql.join(
          PHASES.map((each) => sql`phase = ${sql.lit(each)}`),
          sql` or `,
        )})`,
      );
  } else if (phase) terms.push(sql`phase = ${sql.lit(phase)}`);
  return terms.length ? sql<SqlBool>`${sql.join(terms, sql` and `)}` : sql<SqlBool>`true`;
}
