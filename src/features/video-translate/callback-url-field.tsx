import { useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import { useConsoleInfo } from '@/api/console-info';
import { CONSOLE_INBOX } from '@/api/core/rules';
import { Field } from '@/components/ui/field';
import { inputClass } from '@/components/ui/styles';
import type { VideoFormInput, VideoFormOutput } from './video-form-model';

/**
 * Callback URL, prefilled with this console's own callback inbox while the user has not typed
 * anything there. The form holds the CONSOLE_INBOX marker for it, never the address: the address
 * carries the inbox secret, which never reaches a browser (the server puts the address in). The
 * field shows it without its secret (`callbackAddress` from /__console/config, ending `/callbacks/…`)
 * so the creator sees where results go.
 */
export function CallbackUrlField({
  form,
}: {
  form: UseFormReturn<VideoFormInput, unknown, VideoFormOutput>;
}) {
  const { control, getFieldState, getValues, setValue, formState } = form;
  const inbox = useConsoleInfo().data;
  const inboxUrl = inbox?.callbackAddress ?? undefined;
  const value = useWatch({ control, name: 'callback_url' }) ?? '';

  useEffect(() => {
    if (!inboxUrl || getFieldState('callback_url').isDirty || getValues('callback_url')) return;
    setValue('callback_url', CONSOLE_INBOX);
  }, [inboxUrl, getFieldState, getValues, setValue]);

  const isInbox = value === CONSOLE_INBOX;
  const { ref, name, onBlur } = form.register('callback_url');

  // Under "Advanced", closed by default; open when it holds a URL the user set (typed, a draft, a
  // re-run's) or the form refuses what it holds. The user's own open or close wins otherwise.
  const userSet = value !== '' && !isInbox;
  const refused = Boolean(formState.errors.callback_url);
  const [chosen, setChosen] = useState<boolean>();
  const open = refused || (chosen ?? userSet);
  const panelId = useId();
  const inputRef = useRef<HTMLInputElement | null>(null);
  // Opened by a refusal on submit: the form could not focus the hidden field, so focus it now.
  const wasOpen = useRef(open);
  useLayoutEffect(() => {
    const opened = open && !wasOpen.current;
    wasOpen.current = open;
    if (!opened || !refused) return;
    const active = document.activeElement;
    if (!active || active === document.body || active.tagName === 'BUTTON') inputRef.current?.focus();
  }, [open, refused]);

  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setChosen(!open)}
        className="inline-flex min-h-6 items-center gap-1.5 rounded-md text-sm font-medium text-zinc-700 hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-zinc-100"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 16 16"
          className={`size-4 transition-transform ${open ? 'rotate-90' : ''}`}
          fill="none"
          stroke="currentColor"
        >
          <path d="M6 4l4 4-4 4" strokeWidth="1.6" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        Advanced
        <span className="font-normal text-zinc-500 dark:text-zinc-400">
          · callback URL{isInbox && !open ? ': this console’s inbox' : ''}
        </span>
      </button>
      <div id={panelId} hidden={!open} className="mt-3">
        <Field
          label="Callback URL"
          optional
          error={formState.errors.callback_url?.message}
          hint={
            <>
              The service POSTs each task’s result to this address when it finishes, so the service must be
              able to reach it (a localhost address only works with the built-in emulator).
              {isInbox && ' This is this console’s own inbox: results will appear under Callbacks.'}
              {isInbox && inbox?.callbackUrlReachable === false && (
                <strong className="mt-1 block font-medium text-amber-800 dark:text-amber-300">
                  This inbox address does not look reachable from the service; set a public address for the
                  console.
                </strong>
              )}
            </>
          }
          aside={
            inboxUrl && !isInbox ? (
              <button
                type="button"
                onClick={() =>
                  setValue('callback_url', CONSOLE_INBOX, { shouldDirty: true, shouldValidate: true })
                }
                className="text-xs font-medium text-indigo-700 hover:underline dark:text-indigo-300"
              >
                Use this console’s inbox
              </button>
            ) : undefined
          }
        >
          {(props) => (
            <input
              {...props}
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder="https://example.com/callbacks"
              className={inputClass}
              ref={(element) => {
                ref(element);
                inputRef.current = element;
              }}
              name={name}
              onBlur={onBlur}
              value={isInbox ? (inboxUrl ?? '') : value}
              onChange={(event) => {
                const typed = event.target.value.trim();
                setValue('callback_url', inboxUrl && typed === inboxUrl ? CONSOLE_INBOX : typed, {
                  shouldDirty: true,
                  shouldValidate: Boolean(formState.errors.callback_url) || formState.isSubmitted,
                });
              }}
            />
          )}
        </Field>
      </div>
    </div>
  );
}
