// What a task's view says of its review (the card's badge): counted for a page of tasks in two
// grouped queries, so a list, a board or a pushed change costs the same two reads whatever its size.
import { sql } from 'kysely';
import type { ReviewSummary } from '../../src/api/reviews';
import type { Db } from '../db/database';

type Counted = {
  task_id: string;
  approved?: number | string;
  changes?: number | string;
  n?: number | string;
};

/** Each task's summary that has any decision or comment; the rest are absent. */
export async function reviewSummaries(db: Db, ids: readonly string[]): Promise<Map<string, ReviewSummary>> {
  const found = new Map<string, ReviewSummary>();
  if (!ids.length) return found;
  const distinct = [...new Set(ids)];
  const [decisions, comments] = await Promise.all([
    db
      .selectFrom('review_decisions')
      .select([
        'task_id',
        sql<number>`count(*) filter (where decision = 'approved')`.as('approved'),
        sql<number>`count(*) filter (where decision = 'changes_requested')`.as('changes'),
        sql<Date>`max(decided_at)`.as('at'),
      ])
      .where('task_id', 'in', distinct)
      .groupBy('task_id')
      .execute(),
    db
      .selectFrom('review_comments')
      .select(['task_id', sql<number>`count(*)`.as('n'), sql<Date>`max(created_at)`.as('at')])
      .where('task_id', 'in', distinct)
      .groupBy('task_id')
      .execute(),
  ]);
  const entry = (row: Counted & { at: Date | string }) => {
    const summary = found.get(row.task_id) ?? { approved: 0, changesRequested: 0, comments: 0, at: 0 };
    found.set(row.task_id, summary);
    summary.at = Math.max(summary.at, new Date(row.at).getTime());
    return summary;
  };
  for (const row of decisions) {
    const summary = entry(row);
    summary.approved = Number(row.approved);
    summary.changesRequested = Number(row.changes);
  }
  for (const row of comments) entry(row).comments = Number(row.n);
  return found;
}

/** Adds each task's `review` summary (when it has one) to views of the team's record. */
export async function addReviews<T extends { id: string; review?: ReviewSummary }>(
  db: Db,
  views: T[],
): Promise<T[]> {
  const summaries = await reviewSummaries(
    db,
    views.map((view) => view.id),
  );
  for (const view of views) {
    const found = summaries.get(view.id);
    if (found) view.review = found;
  }
  return views;
}

/**
 * The "changes requested" view as a condition on `tasks`: a semi-join from the partial index of
 * such decisions (few rows), so the planner can start from the small side. Unqualified `id`.
 */
export const changesRequested = () =>
  sql<boolean>`id in (select d.task_id from review_decisions d where d.decision = 'changes_requested')`;
