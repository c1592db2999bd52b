// "Add to board": a button on a card, a task's page, a request's page and the bulk bar,
// and the lightbox's button (through ADD_TO_BOARD_EVENT, heard by AddToBoardHost). The dialog that
// lists the boards loads on first use, so a screen's first load carries none of it.
import { lazy, useEffect, useState } from 'react';
import { LazyPart, PartFailed } from '@/components/ui/core/lazy-part';
import { useMyName } from '@/api/my-name';

const AddToBoardDialog = lazy(() =>
  import('./add-to-board-dialog').then((m) => ({ default: m.AddToBoardDialog })),
);

/** Sent on window by the lightbox (plain DOM): `detail: {ids, what}`. */
export const ADD_TO_BOARD_EVENT = 'console:add-to-board';

/** Whether the person may change boards: creators and admins (and a console without roles). */
export function useCanChangeBoards(): boolean {
  return useMyName().role !== 'viewer';
}

export function AddToBoardButton({
  ids,
  what,
  compact = false,
  className = '',
}: {
  ids: readonly string[];
  what: string;
  /** An icon only (a card), named for screen readers. */
  compact?: boolean;
  className?: string;
}) {
  const [open, setOpen] = useState(false);
  if (!useCanChangeBoards() || !ids.length) return null;
  return (
    <>
      <button
        type="button"
        aria-label={compact ? `Add ${what} to a board` : undefined}
        title={`Add ${what} to a board`}
        onClick={() => setOpen(true)}
        className={`inline-flex min-h-8 min-w-8 items-center justify-center gap-1.5 rounded-lg px-1.5 text-sm font-medium transition-colors hover:bg-indigo-50 hover:text-indigo-700 dark:hover:bg-indigo-950 dark:hover:text-indigo-200 ${compact ? 'text-zinc-600 dark:text-zinc-300' : 'text-zinc-800 dark:text-zinc-100'} ${className}`}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          className="size-5"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
        >
          <rect x="2.5" y="3.5" width="15" height="13" rx="2" />
          <path d="M10 7v6M7 10h6" strokeLinecap="round" />
        </svg>
        {!compact && 'Add to board'}
      </button>
      {open && (
        <LazyPart failed={<PartFailed what="The boards" />}>
          <AddToBoardDialog ids={ids} what={what} onClose={() => setOpen(false)} />
        </LazyPart>
      )}
    </>
  );
}

/** Opens the dialog for what the lightbox asks to add (mounted once on each screen with results). */
export function AddToBoardHost() {
  const [asked, setAsked] = useState<{ ids: string[]; what: string } | null>(null);
  const can = useCanChangeBoards();
  useEffect(() => {
    const open = (event: Event) => setAsked((event as CustomEvent<{ ids: string[]; what: string }>).detail);
    window.addEventListener(ADD_TO_BOARD_EVENT, open);
    return () => window.removeEventListener(ADD_TO_BOARD_EVENT, open);
  }, []);
  if (!can) return null;
  return (
    <>
      {/* The lightbox shows Add to board only where this marker says someone will answer it. */}
      <span hidden data-board-host="" />
      {asked && (
        <LazyPart failed={<PartFailed what="The boards" />}>
          <AddToBoardDialog ids={asked.ids} what={asked.what} onClose={() => setAsked(null)} />
        </LazyPart>
      )}
    </>
  );
}
