// The review badge on a card: what the team decided on a result (or on a request's results, added
// up), "Changes requested" before "Approved", and how many comments. On every card, so it is small
// and imports nothing at run time: it reads the task view's `review` summaries leniently itself
// (src/api/reviews.ts is the panel's chunk). A lazy frame would cost the cards' chunk more than the
// badge itself (the list of files a dynamic import carries). Its look is the status badge's
// (src/features/tasks/shared/status-badge.tsx): the stylesheet gains nothing.
import type { ReviewSummary } from '@/api/reviews';

const count = (value: unknown) => (typeof value === 'number' && value > 0 ? value : 0);

/** The reviews added up; undefined when none says anything. */
export function totalOf(reviews: readonly unknown[]) {
  let total: Omit<ReviewSummary, 'at'> | undefined;
  for (const each of reviews) {
    if (typeof each !== 'object' || !each) continue;
    const one = each as Partial<ReviewSummary>;
    total ??= { approved: 0, changesRequested: 0, comments: 0 };
    total.approved += count(one.approved);
    total.changesRequested += count(one.changesRequested);
    total.comments += count(one.comments);
  }
  return total;
}

export function ReviewBadge({ reviews }: { reviews: readonly unknown[] }) {
  const total = totalOf(reviews);
  if (!total) return null;
  const { approved, changesRequested: changes, comments } = total;
  const n = changes || approved;
  return (
    <span
      className="inline-flex flex-wrap items-center gap-x-1.5 gap-y-1"
      title={`${approved} approved, ${changes} asked for changes`}
    >
      {n > 0 && (
        <span
          className={`inline-flex items-center rounded-full px-2 whitespace-nowrap py-0.5 text-xs font-semibold ring-1 ring-inset ${
            changes
              ? 'bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-800'
              : 'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-800'
          }`}
        >
          {changes ? 'Changes requested' : 'Approved'}
          {n > 1 && ` · ${n}`}
        </span>
      )}
      {comments > 0 && (
        <span className="text-xs text-zinc-600 dark:text-zinc-400">
          {comments} {comments === 1 ? 'comment' : 'comments'}
        </span>
      )}
    </span>
  );
}
