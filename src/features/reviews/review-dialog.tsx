// The comments and decisions of one result, in a native modal <dialog> (it stacks above the
// lightbox and closes with Escape). Loaded when someone first presses Review; a screen offers it
// as `lazy(() => import('@/features/reviews/review-dialog'))` (./review-button.tsx says why).
import { ModalDialog } from '@/components/ui/modal-dialog';
import type { ReviewDialogProps } from './review-button';
import { ReviewPanel } from './review-panel';

export default function ReviewDialog({ taskId, what, review, onClose }: ReviewDialogProps) {
  return (
    <ModalDialog title="Review" subtitle={what} onClose={onClose}>
      <ReviewPanel taskId={taskId} review={review} />
    </ModalDialog>
  );
}
