import { lazy, Suspense, useEffect, useRef } from 'react';
import { Link } from 'wouter';
import type { TaskType } from '@/api/core/rules';
import { CopyButton } from '@/components/ui/copy-button';
import { LabelledTaskId } from './labelled-task-id';

// The tiles follow the request live from this browser's task history (features/tasks): loaded with
// the panel, after a submit; until they arrive the panel lists the ids.
const RequestTiles = lazy(() =>
  import('@/features/tasks/requests/request-tiles').then((m) => ({ default: m.RequestTiles })),
);

/** What each kind's tasks make, for the heading: "1 image task created", "3 translation tasks created". */
const MADE: Record<TaskType, string> = {
  image_generate: 'image',
  image_to_video: 'video',
  video_translate: 'translation',
};

/** What "Use this prompt" does with a request's parameters: fills the form. */
export type ReuseParams = (params: Record<string, unknown>) => void;

export interface CreatedTaskLink {
  id: string;
  /** e.g. the target language, or "Image 2" */
  label: string;
}

/**
 * Shown the moment a creation request succeeds: one link per new task and the exact request as a
 * cURL command. Focus moves to its heading so keyboard and screen reader users land on the result.
 */
export function CreatedTasksPanel({
  kind,
  tasks,
  curl,
  note,
  onReuse,
}: {
  kind: TaskType;
  tasks: readonly CreatedTaskLink[];
  curl: string;
  note?: string;
  onReuse?: ReuseParams;
}) {
  const title = `${tasks.length} ${MADE[kind]} ${tasks.length === 1 ? 'task' : 'tasks'} created`;
  const heading = useRef<HTMLHeadingElement>(null);
  // Keyed on the ids, not the array: the parent re-renders on every keystroke and must keep focus.
  const ids = tasks.map((task) => task.id).join(' ');
  useEffect(() => {
    heading.current?.focus();
    heading.current?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' });
  }, [ids]);
  return (
    <section
      aria-labelledby="created-tasks-title"
      className="rounded-xl border border-emerald-200 bg-emerald-50/70 p-4 dark:border-emerald-900 dark:bg-emerald-950/40"
    >
      <h2
        id="created-tasks-title"
        ref={heading}
        tabIndex={-1}
        className="flex items-center gap-2 text-base font-semibold text-emerald-950 focus:outline-none dark:text-emerald-50"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 20 20"
          fill="currentColor"
          className="size-5 text-emerald-600 dark:text-emerald-400"
        >
          <path
            fillRule="evenodd"
            d="M10 18a8 8 0 1 0 0-16 8 8 0 0 0 0 16Zm3.857-9.809a.75.75 0 0 0-1.214-.882l-3.483 4.79-1.88-1.88a.75.75 0 1 0-1.06 1.061l2.5 2.5a.75.75 0 0 0 1.137-.089l4-5.5Z"
            clipRule="evenodd"
          />
        </svg>
        {title}
      </h2>
      <p className="mt-1 text-sm text-emerald-900 dark:text-emerald-200">
        Each result shows here as soon as it is done.
      </p>
      <div className="mt-3">
        <Suspense fallback={<IdList tasks={tasks} />}>
          <RequestTiles tasks={tasks} onReuse={onReuse} />
        </Suspense>
      </div>
      {note && <p className="mt-2 text-xs text-amber-800 dark:text-amber-300">{note}</p>}
      <details className="group mt-3">
        <summary className="cursor-pointer text-sm font-medium text-zinc-700 select-none dark:text-zinc-300">
          The request that was sent
        </summary>
        <pre
          tabIndex={0}
          aria-label="cURL command"
          className="mt-2 max-h-60 overflow-auto rounded-lg bg-zinc-900 p-3 font-mono text-xs leading-relaxed text-zinc-100 dark:bg-black"
        >
          {curl}
        </pre>
      </details>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <CopyButton text={curl} label="Copy as cURL" size="sm" />
        <Link
          href={tasks[0] ? `/requests/${encodeURIComponent(`req-${tasks[0].id}`)}` : '/tasks'}
          className="rounded-lg px-2.5 py-1.5 text-sm font-medium text-indigo-700 hover:bg-indigo-50 dark:text-indigo-300 dark:hover:bg-indigo-950"
        >
          All tasks of this request →
        </Link>
      </div>
    </section>
  );
}

/** The new tasks' ids as links: while the tiles load, or if they cannot. */
function IdList({ tasks }: { tasks: readonly CreatedTaskLink[] }) {
  return (
    <ul className="divide-y divide-emerald-200/70 overflow-hidden rounded-lg border border-emerald-200 bg-white dark:divide-emerald-900 dark:border-emerald-900 dark:bg-zinc-900">
      {tasks.map((task) => (
        <li key={task.id} className="px-3 py-2">
          <LabelledTaskId id={task.id} label={task.label} />
        </li>
      ))}
    </ul>
  );
}
