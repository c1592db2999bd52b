// On a task page: the request it belongs to and its other tasks (the other languages, the other
// images of the same prompt), each with its state.
import { Link } from 'wouter';
import { useRequest } from './use-request';
import { StatusBadge } from '@/features/tasks/shared/status-badge';
import { viewOf } from '@/features/tasks/shared/task-view';

export function RequestSiblings({ requestId, taskId }: { requestId: string; taskId: string }) {
  const { data } = useRequest(requestId);
  if (!data || data.tasks.length < 2) {
    return data ? (
      <p className="text-sm">
        <Link
          href={`/requests/${encodeURIComponent(requestId)}`}
          className="inline-flex min-h-6 items-center font-medium text-indigo-700 underline dark:text-indigo-300"
        >
          Open its request
        </Link>
      </p>
    ) : null;
  }
  return (
    <nav aria-label="This request" className="space-y-2">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        One of {data.tasks.length} tasks of{' '}
        <Link
          href={`/requests/${encodeURIComponent(requestId)}`}
          className="font-medium text-indigo-700 underline dark:text-indigo-300"
        >
          its request
        </Link>
      </p>
      <ul className="flex flex-wrap gap-2">
        {data.tasks.map((task, index) => {
          const view = viewOf(task);
          const label =
            task.kind === 'video_translate'
              ? (task.language ?? `Translation ${index + 1}`)
              : `${task.kind === 'image_generate' ? 'Image' : 'Video'} ${index + 1}`;
          const current = task.id === taskId;
          return (
            <li key={task.id}>
              <Link
                href={`/tasks/${encodeURIComponent(task.id)}`}
                aria-current={current ? 'page' : undefined}
                className={`inline-flex items-center gap-2 rounded-lg border px-2.5 py-1 text-sm ${current ? 'border-indigo-400 bg-indigo-50 font-semibold dark:border-indigo-600 dark:bg-indigo-950' : 'border-zinc-300 hover:bg-zinc-50 dark:border-zinc-700 dark:hover:bg-zinc-800'}`}
              >
                {label}
                <StatusBadge tone={view.tone} label={view.label} />
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
