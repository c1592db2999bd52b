import { useEffect, type ReactNode } from 'react';
import { Spinner } from '@/components/ui/core/button';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { usePlayerSlot } from './player-slots';
import { useResultExpired } from '@/features/tasks/shared/result-expiry';
import {
  frame,
  generatedImage,
  Img,
  light,
  Placeholder,
  ResultExpired,
  resultDownload,
  TaskVideo,
  UnsafeLink,
} from '@/features/tasks/shared/task-media';
import type { TaskView } from '@/features/tasks/shared/task-view';

const PLACEHOLDER_TEXT: Partial<Record<TaskView['tone'], string>> = {
  running: 'Working on it…',
  not_found: 'No such task',
  waiting: 'Result arrives by callback',
  blocked: 'Status unavailable',
};

const PlayIcon = () => (
  <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-6">
    <path d="M6.3 2.84A1.5 1.5 0 0 0 4 4.11v11.78a1.5 1.5 0 0 0 2.3 1.27l9.34-5.89a1.5 1.5 0 0 0 0-2.54L6.3 2.84Z" />
  </svg>
);

/** Gallery card media: a poster and a play button until the card gets one of the few player slots. */
/** A still of a video without a cover image: only its first second's data loads. */
export function VideoFrame({ url }: { url: string }) {
  return (
    <video
      src={`${url}#t=1`}
      preload="metadata"
      muted
      playsInline
      tabIndex={-1}
      aria-hidden
      className="absolute inset-0 size-full object-cover"
    />
  );
}

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
    content = (
      <Img
        {...generatedImage(record, view)}
        className="size-full object-cover"
        what="image"
        zoom={resultDownload(record.id)}
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
          // Translations have no cover image: a frame of the video itself (only its first second's
          // data loads), with the language and the video's name over it.
          <div
            aria-hidden="true"
            className="relative flex size-full flex-col items-center justify-end gap-0.5 overflow-hidden bg-linear-to-br from-indigo-700 via-violet-700 to-fuchsia-700 px-6 pb-4 text-center text-white"
          >
            {view.video.url && <VideoFrame url={view.video.url} />}
            <div className="absolute inset-0 bg-linear-to-t from-zinc-950/80 via-zinc-950/20 to-transparent" />
            {view.language && (
              <span className="relative text-xs font-semibold tracking-widest uppercase opacity-90">
                {view.language}
              </span>
            )}
            <span className="relative line-clamp-2 text-base font-semibold break-words">
              {view.name ?? 'Video'}
            </span>
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
