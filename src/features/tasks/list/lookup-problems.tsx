// Ids just looked up that the team's list will never show: the service does not know them (or
// cannot be asked), so the server records nothing. They are listed under the lookup box with the
// service's own code and message, each linking to its page.
import { Link } from 'wouter';
import { TASK_TYPE_LABELS } from '@/api/query/task-types';
import { LookupProblem } from '@/features/tasks/shared/task-timing';
import { viewOf } from '@/features/tasks/shared/task-view';
import { useHistory } from '@/features/tasks/history/use-history';

export function LookupProblems({ ids }: { ids: readonly string[] }) {
  const { tasks } = useHistory();
  const wanted = new Set(ids);
  const problems = tasks.filter((task) => wanted.has(task.id) && viewOf(task).tone === 'not_found');
  if (!problems.length) return null;
  return (
    <ul
      aria-label="Ids the service does not know"
      className="space-y-1 rounded-xl border border-zinc-200 bg-white px-4 py-3 dark:border-zinc-800 dark:bg-zinc-900"
    >
      {problems.map((task) => (
        <li key={task.id} className="text-sm">
          <span className="text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">
            {TASK_TYPE_LABELS[task.kind]}
          </span>{' '}
          <Link
            href={`/tasks/${encodeURIComponent(task.id)}`}
            className="font-mono text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
          >
            {task.id}
          </Link>
          <LookupProblem record={task} />
        </li>
      ))}
    </ul>
  );
}
