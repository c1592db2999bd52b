import { Link } from 'wouter';
import { animateHref, closestVideoRatio } from '@/features/image-to-video/link/animate-link';
import { useMyName } from '@/api/my-name';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { isResultExpired } from './result-expiry';
import { safeMediaUrl } from './safe-url';
import { requestedRatio, type TaskView } from './task-view';

/** Where Animate leads for a succeeded image task: Image to video with its image as the start frame. */
export function animateTarget(record: TaskRecord, view: TaskView): string | undefined {
  // The service's own link: a kept copy (same origin, behind the sign-in) is out of its reach.
  const start = safeMediaUrl(record.result?.image_url);
  if (record.kind !== 'image_generate' || view.tone !== 'succeeded' || !start) return undefined;
  // An expired image cannot be a start frame any more.
  if (isResultExpired(record, Date.now())) return undefined;
  const ratio = closestVideoRatio(requestedRatio(record));
  return animateHref({ from: record.id, start, ratio, prompt: view.prompt });
}

/** "Animate" on a succeeded image task (card and detail page): two clicks from an image to a video. */
export function AnimateLink({
  record,
  view,
  className = 'inline-flex items-center gap-1.5 rounded-lg border border-indigo-300 bg-indigo-50 px-2.5 py-1 text-sm font-medium text-indigo-800 hover:bg-indigo-100 dark:border-indigo-800 dark:bg-indigo-950 dark:text-indigo-200 dark:hover:bg-indigo-900',
}: {
  record: TaskRecord;
  view: TaskView;
  /** Its look where it sits among other actions of the same style (the forms' request tiles). */
  className?: string;
}) {
  const href = animateTarget(record, view);
  // A viewer creates nothing: the server would refuse the video, so the way to it is not offered.
  const viewer = useMyName().role === 'viewer';
  if (!href || viewer) return null;
  return (
    <Link href={href} className={className}>
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4 shrink-0">
        <path d="M6.3 2.84A1.5 1.5 0 0 0 4 4.11v11.78a1.5 1.5 0 0 0 2.3 1.27l9.34-5.89a1.5 1.5 0 0 0 0-2.54L6.3 2.84Z" />
      </svg>
      Animate
    </Link>
  );
}
