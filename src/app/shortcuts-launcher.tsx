// The header's `?` button and the global key listener, mounted once in the layout. The dialog
// itself is fetched the first time it opens.
import { lazy, Suspense, useCallback, useState } from 'react';
import { useLocation } from 'wouter';
import { useGlobalShortcuts } from './shortcuts';

const ShortcutsDialog = lazy(() =>
  import('./shortcuts-dialog').then((m) => ({ default: m.ShortcutsDialog })),
);

export function KeyboardShortcuts({ buttonClassName = 'inline-flex' }: { buttonClassName?: string }) {
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const [, navigate] = useLocation();
  const onHelp = useCallback(() => {
    setWanted(true);
    setOpen(true);
  }, []);
  const onNavigate = useCallback((href: string) => navigate(href), [navigate]);
  useGlobalShortcuts({ onHelp, onNavigate });
  return (
    <>
      <button
        type="button"
        onClick={onHelp}
        aria-haspopup="dialog"
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts (?)"
        className={`${buttonClassName} size-8 items-center justify-center rounded-lg border border-zinc-200 text-sm font-semibold text-zinc-700 hover:bg-zinc-100 dark:border-zinc-700 dark:text-zinc-300 dark:hover:bg-zinc-800`}
      >
        <span aria-hidden="true">?</span>
      </button>
      {wanted && (
        <Suspense fallback={null}>
          <ShortcutsDialog open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
