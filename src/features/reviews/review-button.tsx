// "Review": opens a result's comments and decisions. The dialog (./review-dialog.tsx) is handed in
// by the screen, lazily imported there: a screen's chunk that already loads parts lazily carries one
// more name, where this button's own dynamic import would add a list of files to the cards' chunk.
// `review`: the summary the task's view carries; it changes when anyone's review does, and an open
// panel reads the review again.
import { useState, type ComponentType } from 'react';
import { LazyPart, PartFailed } from '@/components/ui/core/lazy-part';

export interface ReviewDialogProps {
  taskId: string;
  what: string;
  review?: unknown;
  onClose: () => void;
}

export function ReviewButton({
  dialog: Dialog,
  className = '',
  ...props
}: Omit<ReviewDialogProps, 'onClose'> & { dialog: ComponentType<ReviewDialogProps>; className?: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        aria-label={`Review ${props.what}`}
        onClick={() => setOpen(true)}
        className={`inline-flex min-h-8 items-center rounded-md px-2 text-xs font-medium text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800 ${className}`}
      >
        Review
      </button>
      {open && (
        <LazyPart failed={<PartFailed what="The review" />}>
          <Dialog {...props} onClose={() => setOpen(false)} />
        </LazyPart>
      )}
    </>
  );
}
