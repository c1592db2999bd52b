import type { ReactNode } from 'react';
import { TASK_TYPE_LABELS } from '@/api/query/task-types';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import type { TaskTone, TaskView } from './task-view';

const TONES: Record<TaskTone, string> = {
  running:
    'bg-indigo-50 text-indigo-800 ring-indigo-200 dark:bg-indigo-950 dark:text-indigo-200 dark:ring-indigo-800',
  succeeded:
    'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-800',
  failed: 'bg-red-50 text-red-800 ring-red-200 dark:bg-red-950 dark:text-red-200 dark:ring-red-800',
  not_found: 'bg-zinc-100 text-zinc-800 ring-zinc-300 dark:bg-zinc-800 dark:text-zinc-100 dark:ring-zinc-600',
  waiting:
    'bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-950 dark:text-amber-100 dark:ring-amber-800',
  blocked: 'bg-zinc-100 text-zinc-800 ring-zinc-300 dark:bg-zinc-800 dark:text-zinc-100 dark:ring-zinc-600',
};

export function StatusBadge({ tone, label }: { tone: TaskTone; label: string }) {
  return (
    <span
      className={`inline-flex max-w-full items-center gap-1.5 rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${TONES[tone]}`}
    >
      {tone === 'running' && (
        <span
          aria-hidden="true"
          className="size-1.5 shrink-0 animate-pulse rounded-full bg-current motion-reduce:animate-none"
        />
      )}
      <span className="truncate">{label}</span>
    </span>
  );
}

function StaleMark({ since }: { since?: number }) {
  return (
    <span
      className="inline-flex items-center rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-50"
      title={
        since
          ? `Last status request failed at ${new Date(since).toLocaleTimeString()}; showing the last known state`
          : undefined
      }
    >
      Stale
    </span>
  );
}

/** Kind, status and staleness of a task, then whatever the caller adds (language, timing). */
export function TaskStatusLine({
  record,
  view,
  children,
}: {
  record: TaskRecord;
  view: TaskView;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-center gap-2">
      <span className="text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">
        {TASK_TYPE_LABELS[record.kind]}
      </span>
      <StatusBadge tone={view.tone} label={view.label} />
      {view.stale && <StaleMark since={record.lastError?.at} />}
      {children}
    </div>
  );
}
