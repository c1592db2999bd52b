import { useState, type FormEvent, type FormEventHandler } from 'react';
import { useUploadsBusy } from './upload-context';
import type { UploadTracker } from './upload-tracker';
import { waitNote } from './upload-words';

/**
 * Holds a submission while the form's uploads run: the request would go without the files' URLs.
 * The note says so while they run, and louder after a submission it held.
 */
export function useUploadWait(
  tracker: UploadTracker | undefined,
  onSubmit: FormEventHandler<HTMLFormElement>,
) {
  const busy = useUploadsBusy(tracker);
  const [held, setHeld] = useState(false);
  const guarded = (event: FormEvent<HTMLFormElement>) => {
    if (busy > 0) {
      event.preventDefault();
      setHeld(true);
      return;
    }
    setHeld(false);
    onSubmit(event);
  };
  const note = (
    <div aria-live="polite" className="empty:hidden">
      {busy > 0 && (
        <p
          className={
            held
              ? 'rounded-lg bg-amber-50 px-3 py-2 text-sm font-medium text-amber-950 dark:bg-amber-950/60 dark:text-amber-50'
              : 'text-sm text-zinc-600 dark:text-zinc-400'
          }
        >
          {held ? `Not sent yet. ${waitNote(busy)}` : waitNote(busy)}
        </p>
      )}
    </div>
  );
  return { onSubmit: guarded, note };
}
