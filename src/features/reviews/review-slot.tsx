// The review badge's place on a card, and the Review button. Both are on every card and page with
// results, so what they draw loads on first use: a card whose result nobody reviewed loads nothing,
// and the comments panel loads when someone opens it.
import { lazy, useState } from 'react';
import { LazyPart, PartFailed } from '@/components/ui/core/lazy-part';

const Badge = lazy(() => import('./review-badge'));
const ReviewDialog = lazy(() => import('./review-dialog'));

/** The badge of one result's review, or of a request's (its results' reviews added up). */
export function ReviewBadge({ reviews }: { reviews: readonly unknown[] }) {
  if (!reviews.some(Boolean)) return null;
  return (
    <LazyPart>
      <Badge reviews={reviews} />
    </LazyPart>
  );
}

/**
 * "Review": opens the result's comments and decisions. `review`: the summary the task's view
 * carries, which changes when anyone's review does, so an open panel reads the review again.
 */
export function ReviewButton({
  taskId,
  what,
  review,
  className = '',
}: {
  taskId: string;
  what: string;
  review?: unknown;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        aria-label={`Review ${what}`}
        onClick={() => setOpen(true)}
        className={`inline-flex min-h-8 items-center gap-1.5 rounded-md px-2 text-xs font-medium text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800 ${className}`}
      >
        Review
      </button>
      {open && (
        <LazyPart failed={<PartFailed what="The review" />}>
          <ReviewDialog taskId={taskId} what={what} review={review} onClose={() => setOpen(false)} />
        </LazyPart>
      )}
    </>
  );
}
