// How long a task ran or when it was added, and why it cannot be read: on the gallery's cards and
// on the task page alike.
import { TASK_TYPE_LABELS } from '@/api/query/task-types';
import { formatAgo, formatDateTime, formatDuration } from './format';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { useNow } from './use-now';

export function TaskTiming({ record, running }: { record: TaskRecord; running: boolean }) {
  const now = useNow(true, running ? 1000 : 30_000);
  if (running) return <span>Running {formatDuration(now - record.createdAt)}</span>;
  // Only a task created here has a known start; a looked-up one may have finished days ago.
  if (record.finishedAt && record.source === 'created')
    return <span>Took {formatDuration(record.finishedAt - record.createdAt)}</span>;
  return <span title={formatDateTime(record.createdAt)}>Added {formatAgo(record.createdAt, now)}</span>;
}

/** Why a task cannot be read, with the service's own code and message. */
export function LookupProblem({ record }: { record: TaskRecord }) {
  const error = record.lastError;
  if (!error) return null;
  if (error.kind === 'unavailable') {
    return (
      <p className="text-sm text-amber-900 dark:text-amber-100">
        Waiting for callback: this backend has no status endpoint for{' '}
        {TASK_TYPE_LABELS[record.kind].toLowerCase()} tasks.
      </p>
    );
  }
  if (error.kind === 'not_found') {
    return (
      <p className="text-sm break-words text-zinc-800 dark:text-zinc-200">
        The service does not know this id
        {error.code !== undefined && <span className="font-mono text-xs"> (code {error.code})</span>}:{' '}
        <q className="font-mono text-[13px]">{error.msg || 'no message'}</q>
      </p>
    );
  }
  return null;
}
