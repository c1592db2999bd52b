// The request a form just sent, followed where it was asked for: one tile per task with its state
// and elapsed time, the image or a playable video as soon as it is done, the failure reason when it
// fails, and what to do next (open, download, Animate, use this prompt; all languages at once; try a
// failed one again). Below it, the recent
// requests of the same kind from this browser. The tiles read this browser's history, which the
// app's poller keeps current; nothing here asks the network.
import { lazy, useMemo, type ReactNode } from 'react';
import { LazyPart } from '@/components/ui/core/lazy-part';
import { Link } from 'wouter';
import type { TaskType } from '@/api/core/rules';
import { downloadName, extensionOf } from '@/api/download-name';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { useResultExpired } from '@/features/tasks/shared/result-expiry';
import { StatusBadge } from '@/features/tasks/shared/status-badge';
import { generatedImage, Img, resultDownload, TaskVideo } from '@/features/tasks/shared/task-media';
import { TaskTiming } from '@/features/tasks/shared/task-timing';
import { downloadSubject, viewOf, type TaskView } from '@/features/tasks/shared/task-view';
import { DownloadAllLanguages } from './download-all-languages';
import { AnimateAction, DownloadAction, OpenAction, ReuseAction } from './tile-actions';
import { useHistory } from '@/features/tasks/history/use-history';
import { LabelledTaskId } from '@/forms/labelled-task-id';

// A failed tile's Try again loads with the first failed tile, not with the form.
const TryAgain = lazy(() => import('./try-again').then((m) => ({ default: m.TryAgain })));

/** What the form does with a request's parameters: "Use this prompt". */
export type ReuseParams = (params: Record<string, unknown>) => void;

/** The image or video of a finished task, at the tile's width, its state in a corner. */
function TileMedia({
  record,
  view,
  label,
  badge,
}: {
  record: TaskRecord;
  view: TaskView;
  label: string;
  badge: ReactNode;
}) {
  if (record.kind === 'image_generate')
    return view.image.url || view.thumbnail.url ? (
      <div className="relative bg-zinc-100 dark:bg-zinc-800">
        <Img
          {...generatedImage(record, view)}
          className="aspect-square w-full object-cover"
          what="image"
          zoom={resultDownload(record.id)}
        />
        <span className="pointer-events-none absolute top-1.5 left-1.5">{badge}</span>
      </div>
    ) : null;
  if (!view.video.url) return null;
  return (
    <div className="relative bg-black">
      <TaskVideo view={view} id={record.id} className="aspect-video w-full" frameAsPoster />
      {/* The language on the picture too: a row of posters reads at a glance. */}
      <span className="pointer-events-none absolute top-2 left-2 flex flex-wrap items-center gap-1.5">
        {record.kind === 'video_translate' && (
          <span className="rounded-md bg-black/70 px-2 py-0.5 text-xs font-semibold text-white">{label}</span>
        )}
        {badge}
      </span>
    </div>
  );
}

function Tile({
  record,
  label,
  batch,
  onReuse,
}: {
  record: TaskRecord;
  label: string;
  /** The ids of the same request, which number its images' downloads. */
  batch: readonly string[];
  onReuse?: ReuseParams;
}) {
  const view = viewOf(record);
  const expired = useResultExpired(record);
  const href = `/tasks/${encodeURIComponent(record.id)}`;
  const media = record.kind === 'image_generate' ? view.image.url : view.video.url;
  const params =
    record.params && typeof record.params === 'object'
      ? (record.params as Record<string, unknown>)
      : undefined;
  const ready = view.tone === 'succeeded' && !expired;
  const badge = <StatusBadge tone={view.tone} label={view.label} />;
  const shown =
    ready && (record.kind === 'image_generate' ? view.image.url || view.thumbnail.url : view.video.url);
  return (
    <li className="overflow-hidden rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      {shown && <TileMedia record={record} view={view} label={label} badge={badge} />}
      <div className="space-y-1 p-2">
        {/* Compact, so four results fit beside the form at 1280 x 800: the state is on the picture. */}
        <div className="flex flex-wrap items-center justify-between gap-x-2 gap-y-1">
          <h3 className="text-sm font-medium text-zinc-900 dark:text-zinc-100">{label}</h3>
          {shown ? (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">
              <TaskTiming record={record} running={false} />
            </p>
          ) : (
            badge
          )}
        </div>
        {!shown && (
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            <TaskTiming record={record} running={view.tone === 'running'} />
          </p>
        )}
        {view.tone === 'failed' && (
          <p className="text-sm break-words text-red-800 dark:text-red-200">
            {view.errorMessage ?? 'The service reported FAILED without an error message.'}
          </p>
        )}
        {/* The id is secondary: one line, whole in its tooltip and on the task's page. */}
        <Link
          href={href}
          title={record.id}
          className="block truncate font-mono text-[11px] leading-6 text-zinc-600 underline-offset-2 hover:underline dark:text-zinc-400"
        >
          {record.id}
        </Link>
        <div className="grid grid-cols-[repeat(4,minmax(1.5rem,1.75rem))] gap-1">
          <OpenAction href={href} label={label} />
          {ready && media && (
            <DownloadAction
              href={resultDownload(record.id)}
              fileName={downloadName(
                downloadSubject(record, view, batch),
                extensionOf(media) ?? (record.kind === 'image_generate' ? 'png' : 'mp4'),
              )}
              label={label}
            />
          )}
          {onReuse && params && typeof params.prompt === 'string' && (
            <ReuseAction onClick={() => onReuse(params)} />
          )}
          <AnimateAction record={record} view={view} />
        </div>
        {view.tone === 'failed' && (
          <LazyPart>
            <div className="flex flex-wrap items-center gap-1">
              <TryAgain record={record} label={label} />
            </div>
          </LazyPart>
        )}
      </div>
    </li>
  );
}

/** The tasks of one request, as tiles; ids this browser's history lacks are listed as links. */
export function RequestTiles({
  tasks,
  onReuse,
}: {
  tasks: readonly { id: string; label: string }[];
  onReuse?: ReuseParams;
}) {
  const { tasks: history } = useHistory();
  const byId = useMemo(() => new Map(history.map((record) => [record.id, record])), [history]);
  const batch = useMemo(() => tasks.map((task) => task.id), [tasks]);
  const records = tasks.map((task) => byId.get(task.id));
  // A translation's player takes the panel's width; images and clips sit two by two.
  const translations = records.some((record) => record?.kind === 'video_translate');
  const ready = records.filter((record) => record && viewOf(record).tone === 'succeeded').length;
  return (
    <div className="space-y-2">
      <ul
        aria-label="Results"
        data-lightbox-scope=""
        className={`grid gap-2 ${tasks.length > 1 && !translations ? 'grid-cols-2' : 'grid-cols-1'}`}
      >
        {tasks.map((task, index) => {
          const record = records[index];
          return record ? (
            <Tile key={task.id} record={record} label={task.label} batch={batch} onReuse={onReuse} />
          ) : (
            <li
              key={task.id}
              className="rounded-lg border border-zinc-200 bg-white p-2.5 dark:border-zinc-800 dark:bg-zinc-900"
            >
              <LabelledTaskId id={task.id} label={task.label} />
            </li>
          );
        })}
      </ul>
      {translations && tasks.length > 1 && <DownloadAllLanguages ids={batch} ready={ready} />}
    </div>
  );
}

/** Labels of a request's tasks: the language of a translation, else "Image 2", "Video 1". */
function tileLabel(record: TaskRecord, index: number): string {
  if (record.kind === 'video_translate') return record.language ?? `Translation ${index + 1}`;
  return `${record.kind === 'image_generate' ? 'Image' : 'Video'} ${index + 1}`;
}

/**
 * This browser's recent requests of one kind, newest first: the tasks one submission recorded
 * share their creation time (history.recordCreatedTasks), so they group by it.
 */
export function RecentRequests({
  kind,
  exclude,
  limit = 3,
  onReuse,
}: {
  kind: TaskType;
  /** The request's tasks shown above, left out here. */
  exclude?: readonly { id: string }[];
  limit?: number;
  onReuse?: ReuseParams;
}) {
  const { loaded, tasks } = useHistory();
  // By the ids, not the array: the form re-renders (with a new one) on every keystroke.
  const skipIds = exclude?.map((task) => task.id).join(' ') ?? '';
  const groups = useMemo(() => {
    const skip = new Set(skipIds.split(' '));
    const byTime = new Map<number, TaskRecord[]>();
    for (const record of tasks) {
      if (record.kind !== kind || record.source !== 'created' || skip.has(record.id)) continue;
      const group = byTime.get(record.createdAt) ?? [];
      if (!group.length && byTime.size >= limit) break;
      group.push(record);
      byTime.set(record.createdAt, group);
    }
    return [...byTime.values()].map((group) => [...group].reverse());
  }, [tasks, kind, skipIds, limit]);
  if (!loaded || !groups.length) return null;
  return (
    <section aria-labelledby={`recent-${kind}`} className="space-y-3">
      <h2 id={`recent-${kind}`} className="text-sm font-semibold text-zinc-800 dark:text-zinc-200">
        Your recent requests
      </h2>
      {groups.map((group) => {
        const view = viewOf(group[0]!);
        return (
          <div key={group[0]!.id} className="space-y-1.5">
            <p className="line-clamp-2 text-sm text-zinc-700 dark:text-zinc-300">
              {view.title ?? group[0]!.id}
            </p>
            <RequestTiles
              tasks={group.map((record, index) => ({ id: record.id, label: tileLabel(record, index) }))}
              onReuse={onReuse}
            />
          </div>
        );
      })}
    </section>
  );
}
