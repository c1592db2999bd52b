// What the team decided on a result (or on a request's results), as a card shows it: "Changes
// requested" before "Approved", and how many comments. Loaded on first use (./review-slot.tsx).
import { DECISION_LABELS, toReviewSummary, type ReviewSummary } from '@/api/reviews';

/** The reviews of one result or of several (a request's), added up; undefined when none says anything. */
export function totalOf(reviews: readonly unknown[]): ReviewSummary | undefined {
  let total: ReviewSummary | undefined;
  for (const each of reviews) {
    const one = toReviewSummary(each);
    if (!one) continue;
    total ??= { approved: 0, changesRequested: 0, comments: 0, at: 0 };
    total.approved += one.approved;
    total.changesRequested += one.changesRequested;
    total.comments += one.comments;
    total.at = Math.max(total.at, one.at);
  }
  return total;
}

const PILL = 'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold';

export default function ReviewBadge({ reviews }: { reviews: readonly unknown[] }) {
  const total = totalOf(reviews);
  if (!total) return null;
  const decision =
    total.changesRequested > 0
      ? { text: DECISION_LABELS.changes_requested, n: total.changesRequested, tone: 'amber' }
      : total.approved > 0
        ? { text: DECISION_LABELS.approved, n: total.approved, tone: 'emerald' }
        : undefined;
  return (
    <span className="inline-flex items-center gap-1.5">
      {decision && (
        <span
          className={`${PILL} ${
            decision.tone === 'amber'
              ? 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100'
              : 'bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100'
          }`}
          title={`${total.approved} approved, ${total.changesRequested} asked for changes`}
        >
          {decision.text}
          {decision.n > 1 && ` · ${decision.n}`}
        </span>
      )}
      {total.comments > 0 && (
        <span className="text-xs text-zinc-600 dark:text-zinc-400">
          {total.comments} {total.comments === 1 ? 'comment' : 'comments'}
        </span>
      )}
    </span>
  );
}
