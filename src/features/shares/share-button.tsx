// "Share" on a board's and a request's page: for creators and admins (a viewer cannot make links).
// The dialog, with everything it needs, loads on first use, so the pages carry none of it.
import { lazy, useState } from 'react';
import { useMyName } from '@/api/my-name';
import type { ShareTarget } from '@/api/shares';
import { LazyPart, PartFailed } from '@/components/ui/core/lazy-part';

const ShareDialog = lazy(() => import('./share-dialog').then((m) => ({ default: m.ShareDialog })));

export function ShareButton({
  target,
  what,
  className = '',
}: {
  target: ShareTarget;
  what: string;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  if (useMyName().role === 'viewer') return null;
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        className={`inline-flex min-h-8 items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm font-medium text-zinc-800 transition-colors hover:bg-indigo-50 hover:text-indigo-700 dark:text-zinc-100 dark:hover:bg-indigo-950 dark:hover:text-indigo-200 ${className}`}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="size-5"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
        >
          <circle cx="15" cy="4.5" r="2.25" />
          <circle cx="5" cy="10" r="2.25" />
          <circle cx="15" cy="15.5" r="2.25" />
          <path d="m7 8.9 6-3.3M7 11.1l6 3.3" />
        </svg>
        Share
      </button>
      {open && (
        <LazyPart failed={<PartFailed what="Sharing" />}>
          <ShareDialog target={target} what={what} onClose={() => setOpen(false)} />
        </LazyPart>
      )}
    </>
  );
}
