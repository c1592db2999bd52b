// The frame of the console's small modal dialogs (share, review, add to a board): a native <dialog>
// opened as a modal when it mounts (Escape and a press on the backdrop close it), a heading that
// names it and a Close button. `onClose` runs however it closes; a dialog's own code closes it
// through `dialogRef`.
import { useEffect, useId, useRef, type ReactNode, type RefObject } from 'react';
import { Button } from '@/components/ui/core/button';

const WIDTHS = { narrow: 'w-[min(28rem,calc(100vw-2rem))]', wide: 'w-[min(32rem,calc(100vw-2rem))]' };

export function ModalDialog({
  title,
  subtitle,
  width = 'narrow',
  dialogRef,
  onClose,
  children,
}: {
  title: ReactNode;
  /** A line under the heading (what the dialog is about). */
  subtitle?: ReactNode;
  width?: keyof typeof WIDTHS;
  dialogRef?: RefObject<HTMLDialogElement | null>;
  onClose: () => void;
  children: ReactNode;
}) {
  const ownRef = useRef<HTMLDialogElement>(null);
  const ref = dialogRef ?? ownRef;
  const id = useId();
  useEffect(() => {
    ref.current?.showModal();
  }, [ref]);
  return (
    <dialog
      ref={ref}
      aria-labelledby={`${id}-title`}
      onClose={onClose}
      onClick={(event) => {
        if (event.target === event.currentTarget) ref.current?.close();
      }}
      className={`m-auto ${WIDTHS[width]} rounded-xl border border-zinc-200 bg-white p-0 text-zinc-900 shadow-xl backdrop:bg-zinc-950/60 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100`}
    >
      <div className="space-y-4 p-5">
        <div className="flex items-start justify-between gap-4">
          <div className="min-w-0">
            <h2 id={`${id}-title`} className="text-lg font-semibold break-words">
              {title}
            </h2>
            {subtitle && <p className="truncate text-sm text-zinc-600 dark:text-zinc-400">{subtitle}</p>}
          </div>
          <Button size="sm" variant="ghost" onClick={() => ref.current?.close()}>
            Close
          </Button>
        </div>
        {children}
      </div>
    </dialog>
  );
}
