// Support staff paste a callback the service sent elsewhere (an email, a log). It is POSTed to the
// inbox, so it is stored and shown like any received one; like any callback it is a hint: the
// console asks the service about its task, and only the service's answer changes the task.
import { useMutation } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'wouter';
import type { CallbackBody } from '@/api/schemas';
import { Button } from '@/components/ui/core/button';
import { Field } from '@/components/ui/field';
import { cardClass, inputClass } from '@/components/ui/styles';
import { TASK_TYPE_LABELS } from '@/api/query/task-types';
import { CALLBACK_EXAMPLES } from './callback-examples';
import { postCallback, type CallbackTaskOutcome } from './inbox/inbox-api';

// The check of a pasted body uses the inbox's own zod schema; it loads when the box is first used
// (focus or press), not with the screen.
let parser: Promise<typeof import('./parse-callback')> | undefined;
const loadParser = () => (parser ??= import('./parse-callback'));
const preloadParser = () => void loadParser().catch(() => (parser = undefined));

interface Outcome {
  id: number;
  duplicate: boolean;
  taskId: string;
  task?: CallbackTaskOutcome;
}

const TASK_OUTCOME: Record<CallbackTaskOutcome, string> = {
  unknown: 'is not in the team record, so the callback stays in the log only',
  checking: 'is being checked with the service now',
  settled: 'already has the service’s final answer',
  busy: 'will be checked by the next status check',
};

export function PasteCallbackForm({ inboxPath }: { inboxPath: string }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [outcome, setOutcome] = useState<Outcome>();
  const checking = useRef(false);

  const mutation = useMutation({
    mutationFn: async (body: CallbackBody): Promise<Outcome> => {
      // The server makes the service be asked about its task at once; the record's answer shows everywhere.
      const stored = await postCallback(inboxPath, body);
      return { ...stored, taskId: body.data.task_id };
    },
    onSuccess: (result) => {
      setOutcome(result);
      setText('');
    },
    onError: (failure) => setError(`The inbox refused it: ${failure.msg || failure.explanation}`),
  });

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (mutation.isPending || checking.current) return;
    setOutcome(undefined);
    checking.current = true;
    let parsed;
    try {
      parsed = (await loadParser()).parseCallbackText(text);
    } catch {
      parser = undefined;
      setError('The check could not be loaded. Check the connection and press again.');
      return;
    } finally {
      checking.current = false;
    }
    if (!parsed.ok) {
      setError(parsed.error);
      return;
    }
    setError(undefined);
    mutation.mutate(parsed.body);
  };

  return (
    <section aria-labelledby="paste-callback-title" className={`${cardClass} p-4 sm:p-5`}>
      <h2 id="paste-callback-title" className="text-base font-semibold">
        Add a callback by hand
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        Paste a callback body the service sent somewhere else (a log, an email). It is checked with the same
        rules as the inbox and stored in the log, exactly like a received one; the console then asks the
        service about its task, and only the service’s answer changes it.
      </p>
      <form
        className="mt-4 space-y-3"
        onSubmit={(event) => void submit(event)}
        onFocus={preloadParser}
        onPointerDown={preloadParser}
        noValidate
      >
        <div className="flex flex-wrap items-center gap-1.5" role="group" aria-label="Insert an example">
          <span className="mr-1 text-xs text-zinc-500 dark:text-zinc-400">Insert an example:</span>
          {(Object.keys(CALLBACK_EXAMPLES) as (keyof typeof CALLBACK_EXAMPLES)[]).map((type) => (
            <button
              key={type}
              type="button"
              onClick={() => {
                setText(JSON.stringify(CALLBACK_EXAMPLES[type], null, 2));
                setError(undefined);
                setOutcome(undefined);
              }}
              className="rounded-full border border-zinc-300 px-2.5 py-1 text-xs font-medium text-zinc-700 transition-colors hover:border-indigo-400 hover:bg-indigo-50 hover:text-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 dark:border-zinc-700 dark:text-zinc-300 dark:hover:border-indigo-500 dark:hover:bg-indigo-950 dark:hover:text-indigo-200"
            >
              {TASK_TYPE_LABELS[type]}
            </button>
          ))}
        </div>
        <Field label="Callback body (JSON)" error={error}>
          {(control) => (
            <textarea
              {...control}
              value={text}
              onChange={(event) => {
                setText(event.target.value);
                if (error) setError(undefined);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void submit();
              }}
              rows={8}
              spellCheck={false}
              placeholder='{"code": 0, "msg": "ok", "task_type": "video_translate", "data": {"task_id": "…", "status": "SUCCEEDED", …}}'
              className={`${inputClass} font-mono text-xs leading-relaxed`}
            />
          )}
        </Field>
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant="primary" pending={mutation.isPending}>
            {mutation.isPending ? 'Storing…' : 'Store and check'}
          </Button>
          <span className="hidden text-xs text-zinc-500 sm:inline dark:text-zinc-400">
            or Ctrl+Enter in the box
          </span>
        </div>
        <div role="status" aria-live="polite">
          {outcome && (
            <p className="rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100">
              {outcome.duplicate
                ? `Already in the log as #${outcome.id}. Task `
                : `Stored as #${outcome.id}. Task `}
              <Link
                href={`/tasks/${encodeURIComponent(outcome.taskId)}`}
                className="font-mono font-medium underline underline-offset-2"
              >
                {outcome.taskId}
              </Link>
              {outcome.task ? ` ${TASK_OUTCOME[outcome.task]}.` : '.'}
            </p>
          )}
        </div>
      </form>
    </section>
  );
}
