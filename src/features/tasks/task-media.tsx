// The media of a task: the video (preload="none", with its poster), the image or the thumbnail.
// Only http(s) links reach src/poster/href (safe-url.ts); anything else is shown as text. A link
// that fails to load (they expire after about 7 days) says so instead of showing a broken frame.
import { useEffect, useState, type ReactNode } from 'react';
import { Spinner } from '@/components/ui/button';
import { formatDateTime } from './format';
import type { TaskRecord } from './history';
import { usePlayerSlot } from './player-slots';
import { resultExpiresAt, useResultExpired } from './result-expiry';
import type { MediaLink } from './safe-url';
import type { TaskView } from './task-view';

const PLACEHOLDER_TEXT: Partial<Record<TaskView['tone'], string>> = {
  running: 'Working on it…',
  not_found: 'No such task',
  waiting: 'Result arrives by callback',
  blocked: 'Status unavailable',
};

const frame = 'relative flex items-center justify-center overflow-hidden';
const light = 'bg-zinc-100 dark:bg-zinc-800';

function Placeholder({ children, tone = 'neutral' }: { children: ReactNode; tone?: 'neutral' | 'failed' }) {
  const color = tone === 'failed' ? 'text-red-700 dark:text-red-300' : 'text-zinc-600 dark:text-zinc-300';
  return (
    <div className={`flex flex-col items-center gap-2 p-4 text-center text-sm ${color}`}>{children}</div>
  );
}

export function ExpiredNotice({ what }: { what: string }) {
  return (
    <Placeholder>
      <span className="font-medium">Link expired or unavailable</span>
      <span className="text-xs">The {what} could not be loaded. Result links are kept for about 7 days.</span>
    </Placeholder>
  );
}

/** Past the service's ~7 days: no player, no image, no link that would only fail. */
export function ResultExpired({ record }: { record: TaskRecord }) {
  return (
    <Placeholder>
      <span className="font-medium">Result expired</span>
      <span className="text-xs">
        Results are kept for about 7 days; this one expired on {formatDateTime(resultExpiresAt(record))}.
      </span>
    </Placeholder>
  );
}

export function UnsafeLink({ link, what }: { link: MediaLink; what: string }) {
  return (
    <Placeholder>
      <span className="font-medium">The {what} link is not a web address</span>
      <code
        className="max-w-full truncate rounded bg-white/70 px-1.5 py-0.5 text-xs dark:bg-black/30"
        title={link.raw}
      >
        {link.raw}
      </code>
    </Placeholder>
  );
}

function Img({
  link,
  alt,
  className,
  what,
}: {
  link: MediaLink;
  alt: string;
  className: string;
  what: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!link.url) return link.raw ? <UnsafeLink link={link} what={what} /> : null;
  if (failed === link.url) return <ExpiredNotice what={what} />;
  return (
    <img
      src={link.url}
      alt={alt}
      loading="lazy"
      decoding="async"
      className={className}
      onError={() => setFailed(link.url!)}
    />
  );
}

const PlayIcon = () => (
  <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-6">
    <path d="M6.3 2.84A1.5 1.5 0 0 0 4 4.11v11.78a1.5 1.5 0 0 0 2.3 1.27l9.34-5.89a1.5 1.5 0 0 0 0-2.54L6.3 2.84Z" />
  </svg>
);

export function TaskVideo({
  view,
  id,
  autoPlay = false,
  className = 'size-full',
}: {
  view: TaskView;
  id: string;
  autoPlay?: boolean;
  className?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const url = view.video.url;
  if (!url) return view.video.raw ? <UnsafeLink link={view.video} what="video" /> : null;
  if (failed === url) return <ExpiredNotice what="video" />;
  return (
    <video
      src={url}
      poster={view.thumbnail.url}
      controls
      preload="none"
      autoPlay={autoPlay}
      playsInline
      aria-label={`Video of task ${id}`}
      className={`${className} bg-black object-contain`}
      // Without metadata (preload="none") a video has no size: reserve the task's own aspect ratio.
      style={{ aspectRatio: view.width && view.height ? `${view.width} / ${view.height}` : '16 / 9' }}
      onError={() => setFailed(url)}
    />
  );
}

/** Gallery card media: a poster and a play button until the card gets one of the few player slots. */
export function CardMedia({ record, view }: { record: TaskRecord; view: TaskView }) {
  const { mounted, claim, release } = usePlayerSlot(record.id);
  const expired = useResultExpired(record);
  // A card scrolled out of the virtual window gives its player back (and does not autoplay again).
  useEffect(() => release, [release]);
  let content: ReactNode;
  if (view.tone === 'failed') {
    content = (
      <Placeholder tone="failed">
        <span className="text-2xl" aria-hidden="true">
          ⚠
        </span>
        <span className="font-medium">Task failed</span>
      </Placeholder>
    );
  } else if (view.tone === 'succeeded' && expired) {
    content = <ResultExpired record={record} />;
  } else if (view.tone !== 'succeeded') {
    content = view.thumbnail.url ? (
      <Img link={view.thumbnail} alt="" className="size-full object-cover opacity-60" what="thumbnail" />
    ) : (
      <Placeholder>
        {view.tone === 'running' ? (
          <Spinner className="size-6 text-indigo-500" />
        ) : (
          <span aria-hidden="true" className="text-2xl">
            {view.tone === 'waiting' ? '⏳' : '?'}
          </span>
        )}
        <span>{PLACEHOLDER_TEXT[view.tone]}</span>
      </Placeholder>
    );
  } else if (record.kind === 'image_generate') {
    const link = view.image.url || view.image.raw ? view.image : view.thumbnail;
    content = (
      <Img
        link={link}
        alt={view.prompt ? `Generated image: ${view.prompt}` : `Generated image of task ${record.id}`}
        className="size-full object-cover"
        what="image"
      />
    );
  } else if (mounted) {
    content = <TaskVideo view={view} id={record.id} autoPlay />;
  } else if (!view.video.url) {
    content = view.video.raw ? (
      <UnsafeLink link={view.video} what="video" />
    ) : (
      <Placeholder>No video link yet</Placeholder>
    );
  } else {
    content = (
      <>
        {view.thumbnail.url ? (
          <Img link={view.thumbnail} alt="" className="size-full object-cover" what="thumbnail" />
        ) : (
          // Translations have no cover image: show what the video is instead of a black frame.
          <div
            aria-hidden="true"
            className="flex size-full flex-col items-center justify-end gap-0.5 bg-linear-to-br from-indigo-700 via-violet-700 to-fuchsia-700 px-6 pb-4 text-center text-white"
          >
            {view.language && (
              <span className="text-xs font-semibold tracking-widest uppercase opacity-80">
                {view.language}
              </span>
            )}
            <span className="line-clamp-2 text-base font-semibold break-all">{view.name ?? 'Video'}</span>
          </div>
        )}
        <button
          type="button"
          onClick={claim}
          className="absolute inset-0 flex items-center justify-center bg-black/0 text-white transition-colors hover:bg-black/20 focus-visible:bg-black/20"
        >
          <span className="flex size-12 items-center justify-center rounded-full bg-black/60 shadow-lg backdrop-blur-sm">
            <PlayIcon />
          </span>
          <span className="sr-only">Play video of task {record.id}</span>
        </button>
      </>
    );
  }
  return <div className={`${frame} ${light} aspect-video`}>{content}</div>;
}

/** Detail media: the full result, one player, no slot needed. */
export function DetailMedia({ record, view }: { record: TaskRecord; view: TaskView }) {
  let content: ReactNode = null;
  const expired = useResultExpired(record);
  if (expired) {
    content = <ResultExpired record={record} />;
  } else if (record.kind === 'image_generate') {
    const link = view.image.url || view.image.raw ? view.image : view.thumbnail;
    if (link.url || link.raw)
      content = (
        <Img
          link={link}
          alt={view.prompt ? `Generated image: ${view.prompt}` : `Generated image of task ${record.id}`}
          className="max-h-[70vh] w-full object-contain"
          what="image"
        />
      );
  } else if (view.video.url || view.video.raw) {
    content = <TaskVideo view={view} id={record.id} className="max-h-[70vh] max-w-full" />;
  } else if (view.thumbnail.url || view.thumbnail.raw) {
    content = (
      <Img
        link={view.thumbnail}
        alt={`Thumbnail of task ${record.id}`}
        className="max-h-[70vh] w-full object-contain"
        what="thumbnail"
      />
    );
  }
  if (!content) {
    content = (
      <Placeholder tone={view.tone === 'failed' ? 'failed' : 'neutral'}>
        {view.tone === 'running' && <Spinner className="size-6 text-indigo-500" />}
        <span>
          {view.tone === 'failed'
            ? 'No result: the task failed'
            : view.tone === 'running'
              ? 'The result appears here when the task finishes'
              : 'No result yet'}
        </span>
      </Placeholder>
    );
  }
  const dark = record.kind !== 'image_generate' && Boolean(view.video.url) && !expired;
  return <div className={`${frame} min-h-48 rounded-xl ${dark ? 'bg-black' : light}`}>{content}</div>;
}
