// Keeps this browser's own tasks (the history: the forms' result tiles, recent requests) as the
// team's record has them. The server asks the service about every task itself (server/follow); the
// browser only reads the record: once for each task that may still change when this mounts or the
// stream reconnects, then each change the server pushes. Headless: it renders nothing.
import { useEffect, useMemo } from 'react';
import { isTerminalStatus } from '@/api/status';
import { useHistory } from '@/features/tasks/history/use-history';
import { fetchTaskDetail } from '@/features/tasks/team/team-tasks';
import { subscribeTaskEvents } from '@/features/tasks/team/use-team-feed';
import { applyRecordedTask, historySnapshot, peekTask } from './history';
import { startFinishNotifier } from './finish-notifier';

/** Reads the record's copy of each task once; one that is gone from the record is left as it is. */
async function readFromRecord(ids: readonly string[]) {
  await Promise.all(
    ids.map(async (id) => {
      const detail = await fetchTaskDetail(id).catch(() => null);
      if (detail) await applyRecordedTask(detail.task);
    }),
  );
}

export function RecordFollowHost() {
  const { tasks } = useHistory();
  const unfinished = useMemo(
    () =>
      tasks
        .filter((task) => !isTerminalStatus(task.status))
        .map((task) => task.id)
        .join('\n'),
    [tasks],
  );

  useEffect(() => {
    startFinishNotifier();
    return subscribeTaskEvents({
      task: (task) => {
        const mine = peekTask(task.id);
        if (mine && !isTerminalStatus(mine.status)) void applyRecordedTask(task);
      },
      // Changes made while the stream was down are read from the record.
      ready: (reconnected) => {
        if (!reconnected) return;
        const ids = historySnapshot()
          .tasks.filter((task) => !isTerminalStatus(task.status))
          .map((task) => task.id);
        void readFromRecord(ids);
      },
    });
  }, []);

  // Each task that may still change, read once as it joins (a reload, a task made in another tab).
  useEffect(() => {
    if (unfinished) void readFromRecord(unfinished.split('\n'));
  }, [unfinished]);
  return null;
}
