import { BoardChoice } from './board-choice';
import type { MouseEvent, ReactNode } from 'react';
import { Button } from '@/components/ui/core/button';
import { IS_MAC } from '@/components/ui/core/platform';
import { useConsoleInfo } from '@/api/console-info';
import { needsRole } from '@/api/roles';

/**
 * Pressing a button moves focus to it, and the field losing focus validates and shows (or hides) its
 * error line, which moves everything below it, this footer included, between the press and the
 * release: the click lands nowhere. So a press here keeps focus where it is; the form still
 * validates everything on submit and focuses the first refused field.
 */
const keepFocus = (event: MouseEvent) => event.preventDefault();

/**
 * The footer of a creation form: Reset on the left, the shortcut and the submit button on the right;
 * on a desktop a sticky action bar at the bottom of the window.
 */
export function FormActions({
  pending,
  submitLabel,
  pendingLabel,
  onReset,
  note,
  refusal,
}: {
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  onReset: () => void;
  /** Beside the submit button: what is left of the spending limits. */
  note?: ReactNode;
  /** Beside the submit button: why the server refused the last submission (a spending limit). */
  refusal?: string;
}) {
  // A viewer looks and spends nothing: the server refuses their request, and the form says so first.
  const { data } = useConsoleInfo();
  const viewer = data?.user?.role === 'viewer';
  return (
    // From the `lg` width the footer sticks to the bottom of the window while the form is taller than
    // it, so the submit button is in sight without scrolling (opaque: the fields pass beneath it).
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-b-xl bg-zinc-50 px-4 py-3 sm:px-6 lg:sticky lg:bottom-0 lg:z-10 lg:shadow-[0_-6px_12px_-10px_rgb(0_0_0/0.25)] dark:bg-zinc-900">
      <Button variant="ghost" onClick={onReset} onMouseDown={keepFocus} disabled={pending}>
        Reset
      </Button>
      <div className="flex flex-wrap items-center justify-end gap-3">
        {refusal && (
          <p id="limit-refusal" role="alert" className="text-sm font-medium text-red-700 dark:text-red-400">
            {refusal}
          </p>
        )}
        {!viewer && <BoardChoice />}
        {note}
        {viewer && (
          <p id="viewer-reason" className="text-xs text-zinc-600 dark:text-zinc-400">
            {needsRole('creator', 'create tasks')}
          </p>
        )}
        <span className="hidden text-xs text-zinc-500 sm:inline dark:text-zinc-400">
          <kbd className="rounded border border-zinc-300 bg-white px-1.5 py-0.5 font-sans dark:border-zinc-700 dark:bg-zinc-800">
            {IS_MAC ? '⌘' : 'Ctrl'}
          </kbd>{' '}
          +{' '}
          <kbd className="rounded border border-zinc-300 bg-white px-1.5 py-0.5 font-sans dark:border-zinc-700 dark:bg-zinc-800">
            Enter
          </kbd>
        </span>
        <Button
          type="submit"
          variant="primary"
          pending={pending}
          disabled={viewer}
          aria-describedby={viewer ? 'viewer-reason' : refusal ? 'limit-refusal' : undefined}
          onMouseDown={keepFocus}
          aria-keyshortcuts={IS_MAC ? 'Meta+Enter' : 'Control+Enter'}
        >
          {pending ? pendingLabel : submitLabel}
        </Button>
      </div>
    </div>
  );
}
