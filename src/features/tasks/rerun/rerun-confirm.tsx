// The question before a re-run (or More like this) spends anything: what it will cost, as the spending limits count it
// (tasks, images, seconds of video), whose request it becomes, and the other way: "Edit and re-run",
// the form of the task's kind filled with what it sent, to change something first. Loaded when
// Re-run… is pressed (or pointed at), never with the page.
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'wouter';
import { costOf, costText } from '@/api/creation-cost';
import type { TaskType } from '@/api/core/rules';
import { Button } from '@/components/ui/core/button';
import { fillForm } from '@/forms/prefill';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { rerunParams } from './rerun-params';

let questions = 0;

export function RerunConfirm({
  kind,
  params,
  owner,
  what = 'task',
  pending,
  onRerun,
  onCancel,
  action = 'Re-run',
  confirmLabel,
}: {
  kind: TaskType;
  /** What the re-run sends (./rerun-params.ts). */
  params: Record<string, unknown>;
  /** Whose it is, when not mine: the re-run is a new request in my name. */
  owner?: string;
  /** "task" or "request", in the words. */
  what?: 'task' | 'request';
  pending: boolean;
  onRerun: () => void;
  onCancel: () => void;
  /** What is about to send it again ("More like this" asks the same question). */
  action?: string;
  /** The confirming button's words, when not Re-run's. */
  confirmLabel?: string;
}) {
  const [, navigate] = useLocation();
  // An id of its own (useId's repeat across the page's React roots), so each question's button reads
  // its own cost when two are open (a board's items, a task's Re-run and More like this).
  const [textId] = useState(() => `rerun-cost-${what}-${++questions}`);
  const confirm = useRef<HTMLButtonElement>(null);
  // The focus moves to the question, so a keyboard user hears the cost before anything else.
  useEffect(() => confirm.current?.focus(), []);
  const cost = costText(costOf(kind, params));
  return (
    <span
      role="group"
      aria-label={action === 'Re-run' ? `Re-run this ${what}` : action}
      className="inline-flex flex-wrap items-center gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 dark:border-amber-800 dark:bg-amber-950"
    >
      <span id={textId} className="text-sm text-zinc-800 dark:text-zinc-200">
        {action} sends the same request again and spends <strong className="font-semibold">{cost}</strong>
        {owner ? (
          <>
            {' '}
            as a new request in your name (this is {owner}&rsquo;s {what}).
          </>
        ) : (
          '.'
        )}
      </span>
      <span className="inline-flex flex-wrap items-center gap-1">
        <Button
          ref={confirm}
          size="sm"
          variant="primary"
          pending={pending}
          onClick={onRerun}
          aria-describedby={textId}
        >
          {pending
            ? `${action === 'Re-run' ? 'Re-running' : 'Sending'}…`
            : (confirmLabel ?? (owner ? 'Re-run as mine' : 'Re-run'))}
        </Button>
        <Button
          size="sm"
          onClick={() => navigate(fillForm(kind, params))}
          title="Opens the form filled with this request (in place of what it held), to change something before sending it"
        >
          Edit and re-run
        </Button>
        <Button size="sm" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </span>
    </span>
  );
}

/** The question for one task: what its re-run sends (a translation's one language). */
export function TaskRerunConfirm({
  record,
  ...rest
}: { record: TaskRecord } & Omit<Parameters<typeof RerunConfirm>[0], 'kind' | 'params' | 'what'>) {
  return <RerunConfirm kind={record.kind} params={rerunParams(record)} what="task" {...rest} />;
}
