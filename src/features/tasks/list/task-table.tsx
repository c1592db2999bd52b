// The Tasks screen as a table (`view=table`): a row per card of the gallery (a request, or a task),
// with its title, kind, creator, status, when it was created and how long it took. Each title links
// to the task's or the request's page. On a narrow screen the table scrolls sideways inside its own
// box, never the page. Loaded only when the table is chosen.
import { Link } from 'wouter';
import { TASK_TYPE_LABELS } from '@/api/query/task-types';
import { phaseOf } from '@/api/task-view/task-view-rule';
import { Button } from '@/components/ui/core/button';
import { formatDateTime, formatDuration } from '@/features/tasks/shared/format';
import type { GalleryEntry } from '@/features/tasks/requests/request-groups';
import { StatusBadge } from '@/features/tasks/shared/status-badge';
import type { TeamRequest, TeamTask } from '@/features/tasks/team/team-tasks';
import { viewOf } from '@/features/tasks/shared/task-view';

interface Row {
  key: string;
  href: string;
  title: string;
  kind: string;
  creator?: string;
  status: React.ReactNode;
  createdAt: number;
  /** Milliseconds from creation to the end; 'running' while it runs; undefined when unknown. */
  duration?: number | 'running';
}

function taskRow(task: TeamTask): Row {
  const view = viewOf(task);
  return {
    key: task.id,
    href: `/tasks/${encodeURIComponent(task.id)}`,
    title: view.heading ?? task.id,
    kind: TASK_TYPE_LABELS[task.kind],
    creator: task.creator,
    status: <StatusBadge tone={view.tone} label={view.label} />,
    createdAt: task.createdAt,
    duration:
      task.finishedAt !== undefined
        ? task.finishedAt - task.createdAt
        : view.tone === 'running' || view.tone === 'waiting'
          ? 'running'
          : undefined,
  };
}

function requestRow(request: TeamRequest): Row {
  const phases = request.tasks.map((task) => phaseOf(task.status));
  const count = (phase: string) => phases.filter((each) => each === phase).length;
  const parts = [
    ['succeeded', count('succeeded')],
    ['failed', count('failed')],
    ['in progress', count('running')],
  ].filter(([, n]) => n) as [string, number][];
  const ends = request.tasks.map((task) => task.finishedAt);
  const done = ends.every((end) => end !== undefined);
  return {
    key: request.id,
    href: `/requests/${encodeURIComponent(request.id)}`,
    title: request.title ?? request.id,
    kind: TASK_TYPE_LABELS[request.kind],
    creator: request.creator,
    status: (
      <span className="text-xs text-zinc-700 dark:text-zinc-300">
        {request.tasks.length} tasks: {parts.map(([label, n]) => `${n} ${label}`).join(', ')}
      </span>
    ),
    createdAt: request.createdAt,
    duration: done
      ? Math.max(...(ends as number[])) - request.createdAt
      : count('running')
        ? 'running'
        : undefined,
  };
}

/** The table's columns, in order; the duration's figures align right. */
const COLUMNS = ['Title', 'Kind', 'Creator', 'Status', 'Created', 'Duration'] as const;
const cell = 'px-3 py-2 align-top';

export function TaskTable({
  entries,
  hasMore,
  loadingMore,
  onMore,
}: {
  entries: readonly GalleryEntry[];
  hasMore: boolean;
  loadingMore: boolean;
  onMore: () => void;
}) {
  const rows = entries.map((entry) => (entry.request ? requestRow(entry.request) : taskRow(entry.task)));
  return (
    <div className="space-y-3">
      <div
        className="overflow-x-auto rounded-xl border border-zinc-200 dark:border-zinc-800"
        role="region"
        aria-label="Tasks table (scrolls sideways)"
        tabIndex={0}
      >
        <table className="w-full min-w-[44rem] text-left text-sm">
          <caption className="sr-only">The tasks of this view, one row per card</caption>
          <thead className="bg-zinc-50 text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:bg-zinc-900 dark:text-zinc-400">
            <tr>
              {COLUMNS.map((name) => (
                <th key={name} scope="col" className={name === 'Duration' ? `${cell} text-right` : cell}>
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-200 dark:divide-zinc-800">
            {rows.map((row) => (
              <tr key={row.key} className="hover:bg-zinc-50 dark:hover:bg-zinc-900/60">
                <th scope="row" className={`${cell} min-w-[11rem] max-w-[18rem] font-medium`}>
                  <Link
                    href={row.href}
                    className="line-clamp-2 break-words text-indigo-700 hover:underline dark:text-indigo-300"
                  >
                    {row.title}
                  </Link>
                </th>
                <td className={`${cell} whitespace-nowrap`}>{row.kind}</td>
                <td className={cell}>{row.creator ?? '—'}</td>
                <td className={cell}>{row.status}</td>
                <td className={`${cell} whitespace-nowrap tabular-nums`}>
                  <time dateTime={new Date(row.createdAt).toISOString()}>
                    {formatDateTime(row.createdAt)}
                  </time>
                </td>
                <td className={`${cell} text-right whitespace-nowrap tabular-nums`}>
                  {row.duration === 'running'
                    ? 'Running'
                    : row.duration === undefined
                      ? '—'
                      : formatDuration(row.duration)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {hasMore && (
        <div className="flex justify-center">
          <Button size="sm" onClick={onMore} pending={loadingMore}>
            Show more
          </Button>
        </div>
      )}
    </div>
  );
}
