// The keyboard help: a native modal <dialog> (focus trap, Esc and the top layer come from the
// browser), opened with `?` anywhere or with the header's button. Loaded on first use
// (shortcuts-launcher.tsx), so it costs the first screen nothing.
import { useEffect, useRef } from 'react';
import { SCREEN_SHORTCUTS } from './shortcuts';
import { IS_MAC } from '@/components/ui/core/platform';

interface Shortcut {
  keys: string[];
  description: string;
  /** Keys pressed together (Ctrl+Enter), not one after the other (g then k). */
  together?: boolean;
}

const SHORTCUTS: Shortcut[] = [
  { keys: ['?'], description: 'Show keyboard shortcuts' },
  ...SCREEN_SHORTCUTS.map((s) => ({ keys: ['g', s.key], description: s.description })),
  // The same modifier the forms' footer shows; works while typing in the form's fields too.
  { keys: [IS_MAC ? '⌘' : 'Ctrl', 'Enter'], together: true, description: 'Submit the form' },
  // Tasks (src/features/tasks/list/tasks-keys.ts) and the results lightbox (src/features/tasks/lightbox/lightbox.ts).
  { keys: ['/'], description: 'Search tasks (on Tasks)' },
  { keys: ['j'], description: 'Next card (on Tasks)' },
  { keys: ['k'], description: 'Previous card (on Tasks)' },
  { keys: ['←'], description: 'Previous image (in an opened result image)' },
  { keys: ['→'], description: 'Next image (in an opened result image)' },
  { keys: ['s'], description: 'Star or unstar (in an opened result image)' },
  { keys: ['Esc'], description: 'Close a dialog' },
  { keys: ['Tab'], description: 'Move to the next control (Shift+Tab: previous)' },
];

function Kbd({ children }: { children: string }) {
  return (
    <kbd className="inline-flex min-w-6 items-center justify-center rounded-md border border-zinc-300 bg-zinc-50 px-1.5 py-0.5 font-mono text-xs font-medium text-zinc-800 shadow-[0_1px_0] shadow-zinc-300 dark:border-zinc-600 dark:bg-zinc-800 dark:text-zinc-100 dark:shadow-zinc-700">
      {children}
    </kbd>
  );
}

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      aria-labelledby="shortcuts-title"
      onClose={onClose}
      // A click on the backdrop lands on the dialog element itself.
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-950/50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <div className="p-5">
        <div className="flex items-center justify-between gap-4">
          <h2 id="shortcuts-title" className="text-lg font-semibold">
            Keyboard shortcuts
          </h2>
          <button
            type="button"
            onClick={onClose}
            className="rounded-lg px-2 py-1 text-sm font-medium text-zinc-600 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800"
          >
            Close
          </button>
        </div>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
          Shortcuts work anywhere except while typing in a field; {IS_MAC ? '⌘' : 'Ctrl'}+Enter works in a
          form’s fields too.
        </p>
        <dl className="mt-4 divide-y divide-zinc-100 dark:divide-zinc-800">
          {SHORTCUTS.map((shortcut) => (
            <div key={shortcut.description} className="flex items-center justify-between gap-4 py-2 text-sm">
              <dt>{shortcut.description}</dt>
              <dd className="flex shrink-0 items-center gap-1">
                {shortcut.keys.map((key, index) => (
                  <span key={key} className="flex items-center gap-1">
                    {index > 0 && (
                      <span className="text-xs text-zinc-500 dark:text-zinc-400">
                        {shortcut.together ? '+' : 'then'}
                      </span>
                    )}
                    <Kbd>{key}</Kbd>
                  </span>
                ))}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </dialog>
  );
}
