// A task's story as the team's record keeps it (server/tasks/recorder.ts, task_events): created,
// each status change with where it came from (a status check, a lookup, a callback), finished.
import { formatDateTime, formatDuration } from '@/features/tasks/shared/format';
import type { TeamTask, TimelineEvent } from '@/features/tasks/team/team-tasks';

const SOURCE_LABELS: Record<string, string> = {
  created: 'created through the console',
  poll: 'status check',
  lookup: 'lookup by id',
  // A callback moves a task only when no status query can confirm it (server/callbacks/hints.ts).
  callback: 'callback, not confirmed by a status check',
};

interface Entry {
  at: number;
  title: string;
  detail?: string;
}

function timelineEntries(task: TeamTask, events: readonly TimelineEvent[]): Entry[] {
  const entries: Entry[] = events.map((event) => {
    if (event.source === 'created')
      return { at: event.at, title: 'Created', detail: task.creator ? `by ${task.creator}` : undefined };
    if (event.error)
      return {
        at: event.at,
        title: 'Status check failed',
        detail: [event.error.httpStatus ? `HTTP ${event.error.httpStatus}` : '', event.error.msg ?? '']
          .filter(Boolean)
          .join(': '),
      };
    return {
      at: event.at,
      title: event.status || 'No status yet',
      detail: `from ${SOURCE_LABELS[event.source] ?? event.source}`,
    };
  });
  if (task.finishedAt) {
    const took =
      task.source === 'created' ? ` · took ${formatDuration(task.finishedAt - task.createdAt)}` : '';
    entries.push({ at: task.finishedAt, title: 'Finished', detail: `${task.status}${took}` });
  }
  return entries;
}

export function TaskTimeline({ task, events }: { task: TeamTask; events: readonly TimelineEvent[] }) {
  const entries = timelineEntries(task, events);
  return (
    <section aria-labelledby="timeline-heading" className="space-y-2">
      <h2 id="timeline-heading" className="font-semibold">
        Timeline
      </h2>
      {entries.length ? (
        <ol className="space-y-0 border-l-2 border-zinc-200 pl-4 dark:border-zinc-700">
          {entries.map((entry, index) => (
            <li key={index} className="relative py-1.5 text-sm">
              <span
                aria-hidden="true"
                className="absolute top-3 -left-[1.3rem] size-2.5 rounded-full bg-indigo-500 ring-2 ring-white dark:ring-zinc-950"
              />
              <span className="font-medium text-zinc-900 dark:text-zinc-100">{entry.title}</span>
              {entry.detail && <span className="text-zinc-700 dark:text-zinc-300"> · {entry.detail}</span>}
              <span className="block text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
                <time dateTime={new Date(entry.at).toISOString()}>{formatDateTime(entry.at)}</time>
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Nothing recorded yet.</p>
      )}
    </section>
  );
}
