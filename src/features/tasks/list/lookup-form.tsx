// Paste one or many task ids; the server looks each up, and they join the gallery like any other task.
import { useId, useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/core/button';
import { inputClass } from '@/components/ui/styles';
import { addLookedUpTasks, peekTask } from '@/features/tasks/history/history';
import { lookUpImported } from '@/features/tasks/history/history-transfer';
import { inferTaskKind, parseTaskIds } from '@/features/tasks/shared/lookup';
import { LookupProblems } from './lookup-problems';

export function LookupForm({ onAdded }: { onAdded?: (ids: string[]) => void }) {
  const [text, setText] = useState('');
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [looked, setLooked] = useState<string[]>([]);
  const inputId = useId();
  const hintId = useId();
  const messageId = useId();

  async function submit(event?: FormEvent) {
    event?.preventDefault();
    const { ids, invalid } = parseTaskIds(text);
    if (!ids.length) {
      setMessage({
        tone: 'error',
        text: invalid.length
          ? `Not a task id: ${invalid.slice(0, 3).join(', ')}`
          : 'Paste at least one task id.',
      });
      return;
    }
    setBusy(true);
    try {
      const added = await addLookedUpTasks(
        ids.map((id) => ({ id, kind: inferTaskKind(id, peekTask(id)?.kind) })),
      );
      // The server asks the service about each new one and records it when the service knows it.
      void lookUpImported(added);
      const known = ids.length - added.length;
      const parts = [
        added.length ? `Added ${added.length} task${added.length === 1 ? '' : 's'}` : '',
        known ? `${known} already in the history` : '',
        invalid.length
          ? `skipped ${invalid.length} that ${invalid.length === 1 ? 'is' : 'are'} not a task id`
          : '',
      ].filter(Boolean);
      setMessage({ tone: 'ok', text: `${parts.join('; ')}.` });
      setText('');
      setLooked(ids);
      onAdded?.(ids);
    } finally {
      setBusy(false);
    }
  }

  const invalid = message?.tone === 'error';
  return (
    <div className="space-y-2">
      <form onSubmit={submit} className="flex items-start gap-2">
        <div className="min-w-0 flex-1">
          <label htmlFor={inputId} className="sr-only">
            Look up task ids
          </label>
          <textarea
            id={inputId}
            rows={1}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              if (invalid) setMessage(null);
            }}
            onKeyDown={(event) => {
              if (event.key === 'Enter' && !event.shiftKey) {
                event.preventDefault();
                void submit();
              }
            }}
            placeholder="Paste one or more task ids"
            aria-describedby={`${hintId} ${messageId}`}
            aria-invalid={invalid || undefined}
            spellCheck={false}
            autoComplete="off"
            className={`${inputClass} min-h-10 resize-y font-mono`}
          />
          <p id={hintId} className={message ? 'sr-only' : 'mt-1 text-xs text-zinc-600 dark:text-zinc-400'}>
            One or many ids, separated by spaces, commas or new lines. Enter adds them; Shift+Enter starts a
            new line.
          </p>
          <p
            id={messageId}
            role="status"
            className={
              message
                ? `mt-1 text-sm ${invalid ? 'font-medium text-red-700 dark:text-red-400' : 'text-zinc-600 dark:text-zinc-400'}`
                : 'sr-only'
            }
          >
            {message?.text}
          </p>
        </div>
        <Button type="submit" variant="primary" pending={busy}>
          Look up
        </Button>
      </form>
      <LookupProblems ids={looked} />
    </div>
  );
}
