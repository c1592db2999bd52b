// The media of a task: the video (preload="none", with its poster), the image or the thumbnail.
// Only http(s) links reach src/poster/href (safe-url.ts); anything else is shown as text. A link
// that fails to load (they expire after about 7 days) says so instead of showing a broken frame.
// The parts both views share; the gallery card's media is in card-media.tsx and the task page's in
// detail-media.tsx, so each screen loads only its own.
import { useState, type ReactNode } from 'react';
import { formatDateTime } from './format';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { isResultLost, removedLabel, resultRemoved } from './result-copies';
import { resultExpiresAt } from './result-expiry';
import type { MediaLink } from './safe-url';
import { ownAspectRatio, type TaskView } from './task-view';

export const frame = 'relative flex items-center justify-center overflow-hidden';
export const light = 'bg-zinc-100 dark:bg-zinc-800';

export function Placeholder({
  children,
  tone = 'neutral',
}: {
  children: ReactNode;
  tone?: 'neutral' | 'failed';
}) {
  const color = tone === 'failed' ? 'text-red-700 dark:text-red-300' : 'text-zinc-600 dark:text-zinc-300';
  return (
    <div className={`flex flex-col items-center gap-2 p-4 text-center text-sm ${color}`}>{children}</div>
  );
}

function ExpiredNotice({ what }: { what: string }) {
  return (
    <Placeholder>
      <span className="font-medium">Link expired or unavailable</span>
      <span className="text-xs">The {what} could not be loaded. Result links are kept for about 7 days.</span>
    </Placeholder>
  );
}

/**
 * Past the service's ~7 days: no player, no image, no link that would only fail. A copy the team
 * kept and then removed (its retention, RESULTS_KEEP_DAYS, or an admin) says that instead.
 */
export function ResultExpired({ record }: { record: TaskRecord }) {
  const removed = resultRemoved(record);
  if (removed)
    return (
      <Placeholder>
        <span className="font-medium">{removedLabel(removed)}</span>
        <span className="text-xs">
          {removed.days
            ? `The team keeps results for ${removed.days} ${removed.days === 1 ? 'day' : 'days'}; this copy was removed`
            : 'An admin removed the team’s copy'}
          {removed.at ? ` on ${formatDateTime(removed.at)}` : ''}, and the service’s own link expired on{' '}
          {formatDateTime(resultExpiresAt(record))}.
        </span>
      </Placeholder>
    );
  return (
    <Placeholder>
      <span className="font-medium">Result expired</span>
      <span className="text-xs">
        Results are kept for about 7 days; this one expired on {formatDateTime(resultExpiresAt(record))}.
        {isResultLost(record) && ' It could not be copied into the team’s storage before then.'}
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

/** A generated image's link (the image, else its thumbnail) and its text alternative. */
export function generatedImage(record: TaskRecord, view: TaskView): { link: MediaLink; alt: string } {
  return {
    link: view.image.url || view.image.raw ? view.image : view.thumbnail,
    alt: view.prompt ? `Generated image: ${view.prompt}` : `Generated image of task ${record.id}`,
  };
}

/** A task's result file through the team's record, named from its request (server/tasks/download.ts). */
export const resultDownload = (id: string) => `/__console/tasks/${encodeURIComponent(id)}/download/result`;

export function Img({
  link,
  alt,
  className,
  what,
  aspectRatio,
  eager = false,
  zoom,
  video,
}: {
  link: MediaLink;
  alt: string;
  className: string;
  what: string;
  /** The box it fills before it has loaded ('9 / 16'), so the page does not move when it arrives. */
  aspectRatio?: string;
  /** The page's main picture: fetched at once, not when scrolled near. */
  eager?: boolean;
  /** A result: a button that opens it large in the lightbox (./lightbox.ts, loaded on first use); its download address. */
  zoom?: string;
  /** With `zoom`, the image is a video's cover: the lightbox plays this video. */
  video?: string;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!link.url) return link.raw ? <UnsafeLink link={link} what={what} /> : null;
  if (failed === link.url) return <ExpiredNotice what={what} />;
  const image = (
    <img
      src={link.url}
      alt={alt}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      className={className}
      style={aspectRatio ? { aspectRatio } : undefined}
      onError={() => setFailed(link.url!)}
    />
  );
  if (!zoom) return image;
  return (
    <button
      type="button"
      data-zoom={zoom}
      data-video={video}
      aria-label={`View larger: ${alt}`}
      onClick={({ currentTarget }) =>
        void import('@/features/tasks/lightbox/lightbox').then((box) => box.showLightbox(currentTarget))
      }
      className="relative block size-full cursor-zoom-in outline-offset-[-3px]"
    >
      {image}
    </button>
  );
}

export function TaskVideo({
  view,
  id,
  autoPlay = false,
  className = 'size-full',
  aspectRatio,
  frameAsPoster = false,
}: {
  view: TaskView;
  id: string;
  autoPlay?: boolean;
  className?: string;
  /** The shape to reserve ('9 / 16'); the video's own size, else 16:9, without one. */
  aspectRatio?: string;
  /**
   * Without a poster from the service (a translation has none), show a frame of the video itself:
   * its metadata and first frame are fetched, not the whole file.
   */
  frameAsPoster?: boolean;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  const url = view.video.url;
  if (!url) return view.video.raw ? <UnsafeLink link={view.video} what="video" /> : null;
  if (failed === url) return <ExpiredNotice what="video" />;
  const ownFrame = frameAsPoster && !view.thumbnail.url && !url.includes('#');
  return (
    <video
      // A media fragment: the frame at 0.1 s is what shows before play (the first is often black).
      src={ownFrame ? `${url}#t=0.1` : url}
      poster={view.thumbnail.url}
      controls
      preload={ownFrame ? 'metadata' : 'none'}
      autoPlay={autoPlay}
      playsInline
      aria-label={`Video of task ${id}`}
      className={`${className} bg-black object-contain`}
      // Without metadata (preload="none") a video has no size: reserve the task's own aspect ratio.
      style={{ aspectRatio: aspectRatio ?? ownAspectRatio(view) ?? '16 / 9' }}
      onError={() => setFailed(url)}
    />
  );
}
