// A board's or a result's picture: the image, a video's cover, or (a translation, a result not
// finished) a coloured panel with its kind. Shared by the boards list and a board's page.
import { Img, resultDownload } from '@/features/tasks/shared/task-media';
import { viewOf } from '@/features/tasks/shared/task-view';
import type { TeamTask } from '@/features/tasks/team/team-tasks';

export function ResultPicture({
  task,
  zoom = false,
  className = 'size-full object-cover',
}: {
  task: TeamTask | undefined;
  /** Opens large in the lightbox (a board's page), else just the picture (the boards list). */
  zoom?: boolean;
  className?: string;
}) {
  const view = task ? viewOf(task) : undefined;
  const link = view && (view.image.url ? view.image : view.thumbnail);
  if (task && view && link?.url && view.tone === 'succeeded')
    return (
      <Img
        link={link}
        alt={view.heading ?? task.id}
        className={className}
        what="image"
        {...(zoom && { zoom: resultDownload(task.id), video: view.video.url })}
      />
    );
  const label = !task
    ? 'Empty board'
    : task.kind === 'video_translate'
      ? (view?.language ?? 'Translation')
      : view?.tone === 'succeeded'
        ? 'Result'
        : (view?.label ?? '');
  return (
    <span className="flex size-full items-center justify-center bg-linear-to-br from-indigo-700 via-violet-700 to-fuchsia-700 p-3 text-center text-sm font-semibold text-white">
      {label}
    </span>
  );
}
