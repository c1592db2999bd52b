// Mounts one polled status query per running task. Headless: it renders nothing and does not
// re-render on query results (the history store carries them to the screens).
import { useQueries } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { startFinishNotifier } from './finish-notifier';
import type { TaskRecord } from './task-record';
import { usePollLeadership } from './poll-leader';
import { notificationsWanted } from '@/features/tasks/polling/poll-settings';
import { needsPolling, taskStatusQuery } from '@/features/tasks/polling/task-polling';
import { useHistory } from '@/features/tasks/shared/use-history';
import { QueryProvider } from '@/api/query/query-client';

const ignoreResults = () => null;

/** Polls every running task in the history, or only `onlyIds` when given (the detail screen). */
/** With its own provider of the shared query client: TanStack Query loads with this screen, not the shell. */
export function TaskPollingHost({ onlyIds }: { onlyIds?: readonly string[] }) {
  return (
    <QueryProvider>
      <TaskPollingHostContent onlyIds={onlyIds} />
    </QueryProvider>
  );
}

function TaskPollingHostContent({ onlyIds }: { onlyIds?: readonly string[] }) {
  const { tasks } = useHistory();
  const leading = usePollLeadership();
  const [background, setBackground] = useState(notificationsWanted);
  useEffect(() => {
    startFinishNotifier();
    const sync = () => setBackground(notificationsWanted());
    window.addEventListener('media-console:settings', sync);
    return () => window.removeEventListener('media-console:settings', sync);
  }, []);

  const pendingKey = useMemo(() => {
    // Another tab polls; this one shows what it learns through the history store.
    if (!leading) return '';
    const only = onlyIds && new Set(onlyIds);
    return tasks
      .filter((task) => (!only || only.has(task.id)) && needsPolling(task))
      .map((task) => `${task.kind}\u001f${task.id}`)
      .join('\u001e');
  }, [tasks, onlyIds, leading]);

  const queries = useMemo(
    () =>
      pendingKey
        ? pendingKey.split('\u001e').map((line) => {
            const [kind, id] = line.split('\u001f') as [TaskRecord['kind'], string];
            return taskStatusQuery(kind, id, { background });
          })
        : [],
    [pendingKey, background],
  );
  useQueries({ queries, combine: ignoreResults });
  return null;
}
