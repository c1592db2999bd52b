// The comments and decisions of one result, in a native modal <dialog> (it stacks above the
// lightbox and closes with Escape). Loaded when someone first presses Review; a screen offers it
// as `lazy(() => import('@/features/reviews/review-dialog'))` (./review-button.tsx says why).
import { useEffect, useId, useRef } from 'react';
import { Button } from '@/components/ui/core/button';
import type { ReviewDialogProps } from './review-button';
import { ReviewPanel } from './review-panel';

export default function ReviewDialog({ taskId, what, review, onClose }: ReviewDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby={`${id}-title`}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) ref.current?.close();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-950/60 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <div className="space-y-4 p-5">
        <div className="flex items-start justify-between gap-4">
          <div className="min-w-0">
            <h2 id={`${id}-title`} className="text-lg font-semibold">
              Review
            </h2>
            <p className="truncate text-sm text-zinc-600 dark:text-zinc-400">{what}</p>
          </div>
          <Button size="sm" variant="ghost" onClick={() => ref.current?.close()}>
            Close
          </Button>
        </div>
        <ReviewPanel taskId={taskId} review={review} />
      </div>
    </dialog>
  );
}
