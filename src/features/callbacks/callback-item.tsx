import { Link } from 'wouter';
import { TASK_TYPE_LABELS } from '@/api/query/task-types';
import { CopyButton } from '@/components/ui/copy-button';
import type { StoredCallback } from './inbox/inbox-api';

const STATUS_CLASSES: Record<string, string> = {
  SUCCEEDED:
    'bg-emerald-50 text-emerald-800 ring-emerald-600/20 dark:bg-emerald-950 dark:text-emerald-200 dark:ring-emerald-400/30',
  FAILED: 'bg-red-50 text-red-800 ring-red-600/20 dark:bg-red-950 dark:text-red-200 dark:ring-red-400/30',
};

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

function formatReceivedAt(iso: string) {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : timeFormat.format(date);
}

export function CallbackItem({ entry }: { entry: StoredCallback }) {
  const { body } = entry;
  const data = body.data as Record<string, unknown> & typeof body.data;
  const raw = JSON.stringify(body, null, 2);
  const name = typeof data.name === 'string' && data.name ? data.name : undefined;
  const error = typeof data.error_message === 'string' && data.error_message ? data.error_message : undefined;
  const titleId = `callback-${entry.id}-title`;
  return (
    <li aria-labelledby={titleId} className="px-4 py-4 sm:px-5">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
        <span
          className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1 ring-inset ${STATUS_CLASSES[data.status] ?? ''}`}
        >
          {data.status}
        </span>
        <h3 id={titleId} className="min-w-0 text-sm font-semibold text-zinc-900 dark:text-zinc-100">
          <span className="sr-only">Callback for </span>
          {TASK_TYPE_LABELS[body.task_type]}
        </h3>
        <time
          dateTime={entry.receivedAt}
          className="w-full text-xs sm:ml-auto sm:w-auto text-zinc-500 tabular-nums dark:text-zinc-400"
        >
          {formatReceivedAt(entry.receivedAt)}
        </time>
      </div>
      <dl className="mt-2 grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-zinc-500 dark:text-zinc-400">Task</dt>
        <dd className="min-w-0">
          <Link
            href={`/tasks/${encodeURIComponent(data.task_id)}`}
            className="font-mono text-[13px] break-all text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
          >
            {data.task_id}
          </Link>
        </dd>
        {name && (
          <>
            <dt className="text-zinc-500 dark:text-zinc-400">Name</dt>
            <dd className="min-w-0 break-words text-zinc-800 dark:text-zinc-200">{name}</dd>
          </>
        )}
        {error && (
          <>
            <dt className="text-zinc-500 dark:text-zinc-400">Error</dt>
            <dd className="min-w-0 break-words text-red-700 dark:text-red-300">{error}</dd>
          </>
        )}
        <dt className="text-zinc-500 dark:text-zinc-400">Code</dt>
        <dd className="text-zinc-800 tabular-nums dark:text-zinc-200">
          {body.code}
          {body.msg ? ` · ${body.msg}` : ''}
          <span className="text-zinc-500 dark:text-zinc-400"> · #{entry.id}</span>
        </dd>
      </dl>
      <details className="group mt-3">
        <summary className="inline-flex min-h-6 cursor-pointer items-center gap-1 rounded text-sm font-medium text-zinc-700 select-none hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-zinc-100">
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            fill="currentColor"
            className="size-4 transition-transform group-open:rotate-90"
          >
            <path
              fillRule="evenodd"
              d="M7.2 5.2a.75.75 0 0 1 1.06 0l4.25 4.25a.75.75 0 0 1 0 1.06L8.26 14.8a.75.75 0 1 1-1.06-1.06L10.94 10 7.2 6.26a.75.75 0 0 1 0-1.06Z"
              clipRule="evenodd"
            />
          </svg>
          Raw JSON
        </summary>
        <div className="relative mt-2">
          {/* Focusable so keyboard users can scroll long lines; a region so it has a name. */}
          <pre
            tabIndex={0}
            role="region"
            aria-label={`Raw JSON of callback #${entry.id}`}
            className="max-h-80 overflow-auto rounded-lg bg-zinc-50 p-3 pr-24 font-mono focus-visible:outline-2 focus-visible:outline-indigo-600 text-xs leading-relaxed text-zinc-800 ring-1 ring-zinc-200 ring-inset dark:bg-zinc-950 dark:text-zinc-200 dark:ring-zinc-800"
          >
            {raw}
          </pre>
          <div className="absolute top-2 right-2">
            <CopyButton text={raw} label="Copy" size="sm" variant="secondary" />
          </div>
        </div>
      </details>
    </li>
  );
}
