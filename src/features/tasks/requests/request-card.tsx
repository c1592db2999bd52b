// A request in the gallery ("By request", ./request-groups.ts): one card for one submission. Images
// are a 2x2 grid of thumbnails, a translation a row of its languages with each one's state. A
// finished image or video opens large in the results lightbox (a video plays there); one not
// finished, "+3" and a language link to its task's page, the title to the request's page
// (/requests/<id>). Live: the tasks are the list's, which the event stream keeps current.
import { memo } from 'react';
import { Link } from 'wouter';
import { TASK_TYPE_LABELS } from '@/api/query/task-types';
import { Spinner } from '@/components/ui/core/button';
import { formatAgo, formatDateTime, formatDuration } from '@/features/tasks/shared/format';
import { requestProgress } from './request-groups';
import { resultRemoved } from '@/features/tasks/shared/result-copies';
import { useResultExpired } from '@/features/tasks/shared/result-expiry';
import { StatusBadge } from '@/features/tasks/shared/status-badge';
import { VideoFrame } from '@/features/tasks/list/card-media';
import { Creator } from '@/features/tasks/list/task-card';
import { StarButton } from '@/features/tasks/shared/stars';
import { ReviewBadge } from '@/features/reviews/review-slot';
import { AddToBoardButton } from '@/features/tasks/boards/add-to-board';
import { Img, resultDownload } from '@/features/tasks/shared/task-media';
import { viewOf, type TaskView } from '@/features/tasks/shared/task-view';
import type { TeamRequest, TeamTask } from '@/features/tasks/team/team-tasks';
import { useNow } from '@/features/tasks/shared/use-now';

/** Thumbnails a card shows; more are counted on the last ("+3"). */
const MAX_THUMBNAILS = 4;

const taskHref = (task: TeamTask) => `/tasks/${encodeURIComponent(task.id)}`;

/** One thumbnail of the grid: the image (or video cover) once done, else its state. */
function Thumbnail({
  task,
  label,
  more,
  wide = false,
}: {
  task: TeamTask;
  label: string;
  more: number;
  wide?: boolean;
}) {
  const view = viewOf(task);
  const expired = useResultExpired(task);
  const link = view.thumbnail.url ? view.thumbnail : view.image;
  const cell = `relative min-h-0 min-w-0 overflow-hidden bg-zinc-100 dark:bg-zinc-800 ${wide ? 'row-span-2' : ''}`;
  const done = view.tone === 'succeeded' && !expired;
  // A finished image, or a video with its cover, opens in the lightbox (the image large).
  const large = view.image.url ? view.image : view.thumbnail;
  if (done && !more && large.url && (task.kind === 'image_generate' || view.video.url))
    return (
      <li className={cell}>
        <div className="absolute inset-0">
          <Img
            link={large}
            alt={`${label}: ${view.prompt ?? task.id}`}
            className="size-full object-cover"
            what="image"
            zoom={resultDownload(task.id)}
            video={view.video.url}
          />
        </div>
      </li>
    );
  let content;
  if (done && link.url) {
    content = <Img link={link} alt="" className="size-full object-cover" what="thumbnail" />;
  } else if (view.tone === 'failed') {
    content = (
      <span className="flex size-full flex-col items-center justify-center gap-0.5 bg-red-50 text-xs font-medium text-red-800 dark:bg-red-950/60 dark:text-red-200">
        <span aria-hidden="true" className="text-base">
          ⚠
        </span>
        Failed
      </span>
    );
  } else {
    content = (
      <span className="flex size-full flex-col items-center justify-center gap-1 text-xs text-zinc-600 dark:text-zinc-300">
        {view.tone === 'running' && <Spinner className="size-4 text-indigo-500" />}
        <span className="max-w-full truncate px-1">
          {view.tone === 'succeeded' && expired ? (resultRemoved(task) ? 'Removed' : 'Expired') : view.label}
        </span>
      </span>
    );
  }
  return (
    <li className={cell}>
      {/* Absolute: an image's own size never stretches the grid's 16:9 box. */}
      <Link
        href={taskHref(task)}
        aria-label={more ? `${label}: ${view.label}, and ${more} more` : `${label}: ${view.label}`}
        className="absolute inset-0 outline-offset-[-3px] hover:opacity-90"
      >
        {content}
        {more > 0 && (
          <span
            aria-hidden="true"
            className="absolute inset-0 flex items-center justify-center bg-black/55 text-lg font-semibold text-white"
          >
            +{more}
          </span>
        )}
      </Link>
    </li>
  );
}

function Thumbnails({ request }: { request: TeamRequest }) {
  const shown = request.tasks.slice(0, MAX_THUMBNAILS);
  const more = request.tasks.length - shown.length;
  const what = request.kind === 'image_generate' ? 'Image' : 'Video';
  return (
    <ul
      aria-label={request.kind === 'image_generate' ? 'Images' : 'Videos'}
      className={`grid aspect-video grid-cols-2 gap-0.5 overflow-hidden bg-white dark:bg-zinc-900 ${shown.length > 2 ? 'grid-rows-2' : 'grid-rows-1'}`}
    >
      {shown.map((task, index) => (
        <Thumbnail
          key={task.id}
          // Three: the first takes the left column whole, so no cell is left empty.
          wide={shown.length === 3 && index === 0}
          task={task}
          label={`${what} ${index + 1}`}
          more={index === shown.length - 1 ? more : 0}
        />
      ))}
    </ul>
  );
}

/**
 * A frame of a finished translation's own video behind its languages (a video element that loads
 * only its first second's data), so the card shows the video, not a placeholder.
 */
function TranslationPoster({ task }: { task: TeamTask }) {
  const view = viewOf(task);
  const expired = useResultExpired(task);
  if (expired || !view.video.url) return null;
  return (
    <>
      <VideoFrame url={view.video.url} />
      <div className="absolute inset-0 bg-zinc-950/35" />
    </>
  );
}

/** A translation: its languages in a row, each with its state, each linking to its task. */
function Languages({ request }: { request: TeamRequest }) {
  const finished = request.tasks.find((task) => viewOf(task).tone === 'succeeded');
  return (
    <div className="relative flex aspect-video flex-col justify-center overflow-hidden bg-linear-to-br from-indigo-700 via-violet-700 to-fuchsia-700 p-4">
      {finished && <TranslationPoster task={finished} />}
      <ul aria-label="Languages" className="relative flex flex-wrap content-center justify-center gap-1.5">
        {request.tasks.map((task, index) => {
          const view = viewOf(task);
          const language = view.language ?? `Translation ${index + 1}`;
          return (
            <li key={task.id} className="max-w-full">
              <Link
                href={taskHref(task)}
                className="flex max-w-full items-center gap-1.5 rounded-full bg-white/95 py-0.5 pr-0.5 pl-2.5 text-xs font-semibold text-zinc-900 shadow-sm hover:bg-white dark:bg-zinc-950/85 dark:text-zinc-50 dark:hover:bg-zinc-950"
              >
                <span className="truncate">{language}</span>
                <StatusBadge tone={view.tone} label={view.label} />
              </Link>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** How long the request ran (to its last task's end), or how long it has been running. */
function RequestTiming({ request, running }: { request: TeamRequest; running: boolean }) {
  const now = useNow(true, running ? 1000 : 30_000);
  if (running) return <span>Running {formatDuration(now - request.createdAt)}</span>;
  const ends = request.tasks.map((task) => task.finishedAt);
  if (ends.every((end) => end !== undefined)) {
    const last = Math.max(...(ends as number[]));
    return <span title={formatDateTime(last)}>Took {formatDuration(last - request.createdAt)}</span>;
  }
  return <span title={formatDateTime(request.createdAt)}>Added {formatAgo(request.createdAt, now)}</span>;
}

function Summary({ request }: { request: TeamRequest }) {
  const { running, failed, succeeded, total } = requestProgress(request);
  const tone: TaskView['tone'] = running ? 'running' : failed ? 'failed' : 'succeeded';
  const label = running
    ? `${succeeded + failed} of ${total} done`
    : failed
      ? `${failed} of ${total} failed`
      : `All ${total} succeeded`;
  return <StatusBadge tone={tone} label={label} />;
}

/** What failed and why, one reason once: "Image 1, Image 2: <reason>". */
function failureText(request: TeamRequest, failures: TeamTask[]): string {
  const byReason = new Map<string, string[]>();
  for (const task of failures) {
    const view = viewOf(task);
    const name =
      request.kind === 'video_translate'
        ? (view.language ?? 'A translation')
        : `${request.kind === 'image_generate' ? 'Image' : 'Video'} ${request.tasks.indexOf(task) + 1}`;
    const reason = view.errorMessage ?? 'failed without an error message';
    byReason.set(reason, [...(byReason.get(reason) ?? []), name]);
  }
  return [...byReason].map(([reason, names]) => `${names.join(', ')}: ${reason}`).join(' · ');
}

export const RequestCard = memo(function RequestCard({ request }: { request: TeamRequest }) {
  const headingId = `request-${request.id}`;
  const first = request.tasks[0];
  const title = request.title ?? (first && viewOf(first).title);
  const failures = request.tasks.filter((task) => viewOf(task).tone === 'failed');
  const running = requestProgress(request).running > 0;
  const taskIds = request.tasks.map((task) => task.id);
  return (
    <article
      aria-labelledby={headingId}
      className="flex h-full flex-col overflow-hidden rounded-xl border border-zinc-200 bg-white shadow-xs dark:border-zinc-800 dark:bg-zinc-900"
    >
      {request.kind === 'video_translate' ? (
        <Languages request={request} />
      ) : (
        <Thumbnails request={request} />
      )}
      <div className="flex flex-1 flex-col gap-2 p-4">
        <div className="flex flex-wrap items-center gap-2">
          <span className="text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">
            {TASK_TYPE_LABELS[request.kind]}
          </span>
          <Summary request={request} />
          <ReviewBadge reviews={request.tasks.map((task) => task.review)} />
        </div>
        <h2 id={headingId} className="min-w-0 text-sm font-medium">
          <Link
            href={`/requests/${encodeURIComponent(request.id)}`}
            title={title}
            className={`block min-h-6 text-zinc-900 underline-offset-2 hover:text-indigo-700 hover:underline dark:text-zinc-100 dark:hover:text-indigo-300 ${title ? 'line-clamp-2 break-words' : 'truncate font-mono'}`}
          >
            {title ?? request.id}
          </Link>
        </h2>
        {failures.length > 0 && (
          <p className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm font-medium break-words text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100">
            <span className="line-clamp-3">{failureText(request, failures)}</span>
          </p>
        )}
        <div className="mt-auto flex items-center justify-between gap-2 pt-1 text-xs text-zinc-600 dark:text-zinc-400">
          <span className="flex min-w-0 flex-wrap gap-x-1.5">
            <RequestTiming request={request} running={running} />
            <Creator name={request.creator} unverified={request.creatorUnverified} />
          </span>
          <span className="-my-1 flex shrink-0 items-center">
            <StarButton ids={taskIds} what={title ?? request.id} />
            <AddToBoardButton compact ids={taskIds} what={title ?? request.id} />
          </span>
        </div>
      </div>
    </article>
  );
});
