// A task in the gallery. Its timing and lookup notice are shared with the task page (task-timing.tsx).
import { memo } from 'react';
import { Link } from 'wouter';
import { AnimateLink } from '@/features/tasks/shared/animate-link';
import { StarButton } from '@/features/tasks/shared/stars';
import { AddToBoardButton } from '@/features/tasks/boards/add-to-board';
import { ReviewBadge } from '@/features/reviews/review-slot';
import { CardMedia } from './card-media';
import { ResultHome } from '@/features/tasks/shared/result-home';
import { TaskStatusLine } from '@/features/tasks/shared/status-badge';
import { LookupProblem, TaskTiming } from '@/features/tasks/shared/task-timing';
import { viewOf } from '@/features/tasks/shared/task-view';
import type { TeamTask } from '@/features/tasks/team/team-tasks';

/**
 * Who created the task, as the team's record says (the sign-in name or the browser's display name).
 * The "·" before it is CSS with empty alternative text (`content: "·" / ""`), silent for screen
 * readers: one element less per card, 60 on a page.
 */
export function Creator({ name, unverified }: { name?: string; unverified?: boolean }) {
  if (!name) return null;
  return (
    <span
      className="min-w-0 truncate before:mr-1.5 before:content-['·'_/_'']"
      title={
        unverified ? `Created by someone who typed the name ${name} (not verified)` : `Created by ${name}`
      }
    >
      by <span className="font-medium text-zinc-800 dark:text-zinc-200">{name}</span>
      {unverified && ' (unverified)'}
    </span>
  );
}

export const TaskCard = memo(function TaskCard({ record }: { record: TeamTask }) {
  const view = viewOf(record);
  const href = `/tasks/${encodeURIComponent(record.id)}`;
  const headingId = `task-${record.id}`;
  return (
    <article
      aria-labelledby={headingId}
      className="flex h-full flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs dark:border-zinc-800 dark:bg-zinc-900"
    >
      <CardMedia record={record} view={view} />
      <div className="flex flex-1 flex-col gap-2 p-4">
        <TaskStatusLine record={record} view={view}>
          {view.language && <span className="text-xs text-zinc-600 dark:text-zinc-400">{view.language}</span>}
          <ResultHome record={record} />
          <ReviewBadge reviews={[record.review]} />
        </TaskStatusLine>
        <h2 id={headingId} className="min-w-0 text-sm font-medium">
          <Link
            href={href}
            title={view.heading}
            className={`block min-h-6 text-zinc-900 underline-offset-2 hover:text-indigo-700 hover:underline dark:text-zinc-100 dark:hover:text-indigo-300 ${view.heading ? 'line-clamp-2 break-words' : 'truncate font-mono'}`}
          >
            {view.heading ?? record.id}
          </Link>
        </h2>
        {/* The id is secondary: there to read, select and copy (the task page has Copy task id). */}
        {view.heading && (
          <p className="-mt-1 truncate font-mono text-xs text-zinc-600 select-all dark:text-zinc-400">
            {record.id}
          </p>
        )}
        {record.requestId && (record.batch?.length ?? 0) > 1 && (
          <Link
            href={`/requests/${encodeURIComponent(record.requestId)}`}
            className="-mt-1 inline-flex min-h-6 items-center self-start text-xs font-medium text-indigo-700 hover:underline dark:text-indigo-300"
          >
            {record.batch!.indexOf(record.id) + 1} of {record.batch!.length} in its request
          </Link>
        )}
        {view.tone === 'failed' && (
          <p className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm font-medium break-words whitespace-pre-wrap text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100">
            {view.errorMessage ?? 'The service reported FAILED without an error message.'}
          </p>
        )}
        <LookupProblem record={record} />
        <div className="mt-auto flex items-center justify-between gap-2 pt-1 text-xs text-zinc-600 dark:text-zinc-400">
          <span className="flex min-w-0 flex-wrap gap-x-1.5">
            <TaskTiming record={record} running={view.tone === 'running'} />
            <Creator name={record.creator} unverified={record.creatorUnverified} />
          </span>
          {view.durationSeconds !== undefined && <span>{view.durationSeconds} s video</span>}
          <AnimateLink record={record} view={view} />
          <span className="-my-1 flex shrink-0 items-center">
            <StarButton ids={[record.id]} what={view.heading ?? record.id} />
            <AddToBoardButton compact ids={[record.id]} what={view.heading ?? record.id} />
          </span>
        </div>
      </div>
    </article>
  );
});
