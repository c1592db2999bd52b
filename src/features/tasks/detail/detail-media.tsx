import type { ReactNode } from 'react';
import { Spinner } from '@/components/ui/core/button';
import type { TaskRecord } from '@/features/tasks/history/task-record';
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
} from '@/features/tasks/shared/task-media';
import { resultAspectRatio, type TaskView } from '@/features/tasks/shared/task-view';

const fill = 'max-h-[70vh] w-full object-contain';

/**
 * Detail media: the full result, one player, no slot needed. The image or the video, and the frame
 * waiting for a running task's result, take the result's shape from the first paint (its own size,
 * else the ratio the task asked for), so neither the media arriving nor the task finishing moves
 * the details below. A task looked up by id (no request known) keeps a plain frame.
 */
export function DetailMedia({
  record,
  view,
  inRecord = false,
}: {
  record: TaskRecord;
  view: TaskView;
  /** The team's record holds the task: its result downloads through the console, named. */
  inRecord?: boolean;
}) {
  let content: ReactNode = null;
  const expired = useResultExpired(record);
  const aspectRatio = resultAspectRatio(record, view);
  if (expired) {
    content = <ResultExpired record={record} />;
  } else if (record.kind === 'image_generate') {
    const image = generatedImage(record, view);
    if (image.link.url || image.link.raw)
      content = (
        <Img
          {...image}
          className={fill}
          what="image"
          aspectRatio={aspectRatio}
          eager
          zoom={inRecord ? resultDownload(record.id) : image.link.url}
        />
      );
  } else if (view.video.url || view.video.raw) {
    content = <TaskVideo view={view} id={record.id} className={fill} aspectRatio={aspectRatio} />;
  } else if (view.thumbnail.url || view.thumbnail.raw) {
    content = (
      <Img link={view.thumbnail} alt={`Thumbnail of task ${record.id}`} className={fill} what="thumbnail" />
    );
  }
  if (!content) {
    // Only a result still to come keeps its shape: a failed task's frame stays small.
    const box = view.tone === 'running' || view.tone === 'waiting' ? aspectRatio : undefined;
    content = (
      <div
        className={`flex items-center justify-center ${box ? fill : ''}`}
        style={box ? { aspectRatio: box } : undefined}
      >
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
      </div>
    );
  }
  const dark = record.kind !== 'image_generate' && Boolean(view.video.url) && !expired;
  return (
    <div className={`${frame} min-h-48 self-start rounded-xl ${dark ? 'bg-black' : light}`}>{content}</div>
  );
}
