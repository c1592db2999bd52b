// Compare (/compare?ids=a,b[,c,d]): two to four results side by side, each in a box of the
// same size. Images share one zoom (the slider, or + and −): the same part of each is the same size
// on screen. Videos start together ("Play together" sets every one to 0 s and plays them all) and
// pause together. Loaded when first visited.
import { usePageTitle } from '@/components/ui/core/page-title';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { Link, useSearch } from 'wouter';
import { QueryProvider } from '@/api/query/query-client';
import { Button, Spinner } from '@/components/ui/core/button';
import { viewOf } from '@/features/tasks/shared/task-view';
import { fetchRecordEntry, toTeamTask, type TeamTask } from '@/features/tasks/team/team-tasks';
import { COMPARE_MAX, COMPARE_MIN, compareIds } from './compare-rules';

const ZOOM_MIN = 100;
const ZOOM_MAX = 400;

async function fetchTask(id: string, signal: AbortSignal): Promise<TeamTask | null> {
  const data = await fetchRecordEntry(`/__console/tasks/${encodeURIComponent(id)}`, signal);
  if (!data || typeof data !== 'object') return null;
  return toTeamTask((data as { task?: unknown }).task) ?? null;
}

export function CompareScreen() {
  return (
    <QueryProvider>
      <CompareScreenContent />
    </QueryProvider>
  );
}

function Panel({ task, id, zoom }: { task: TeamTask | null | undefined; id: string; zoom: number }) {
  if (task === undefined)
    return (
      <div role="status" className="flex aspect-square items-center justify-center text-sm text-zinc-500">
        <Spinner />
      </div>
    );
  if (task === null)
    return <p className="p-4 text-sm text-zinc-700 dark:text-zinc-300">The record has no task {id}.</p>;
  const view = viewOf(task);
  const what = view.heading ?? task.id;
  const image = view.image.url ? view.image.url : view.thumbnail.url;
  return (
    <figure className="flex min-w-0 flex-col gap-2">
      <div
        className="aspect-square overflow-auto rounded-lg bg-zinc-100 dark:bg-zinc-800"
        tabIndex={0}
        aria-label={`${what}, scrollable when zoomed`}
      >
        {view.video.url ? (
          <video
            src={view.video.url}
            poster={view.thumbnail.url}
            controls
            playsInline
            preload="auto"
            muted
            data-compare-video=""
            aria-label={`Video: ${what}`}
            className="size-full bg-black object-contain"
          />
        ) : image ? (
          <img
            src={image}
            alt={what}
            style={{ width: `${zoom}%`, height: `${zoom}%`, maxWidth: 'none' }}
            className="object-contain"
          />
        ) : (
          <p className="flex size-full items-center justify-center p-4 text-center text-sm">
            {view.label}: no picture to show
          </p>
        )}
      </div>
      <figcaption className="min-w-0 text-sm">
        <Link
          href={`/tasks/${encodeURIComponent(task.id)}`}
          className="line-clamp-2 font-medium break-words hover:text-indigo-700 hover:underline dark:hover:text-indigo-300"
        >
          {what}
        </Link>
        {task.creator && <span className="text-xs text-zinc-600 dark:text-zinc-400">by {task.creator}</span>}
      </figcaption>
    </figure>
  );
}

function CompareScreenContent() {
  const ids = compareIds(useSearch());
  const [zoom, setZoom] = useState(ZOOM_MIN);
  const grid = useRef<HTMLDivElement>(null);
  // One query for them all: they show together.
  const tasks = useQuery({
    queryKey: ['compare', ...(ids ?? [])],
    queryFn: ({ signal }) => Promise.all((ids ?? []).map((id) => fetchTask(id, signal))),
    enabled: Boolean(ids),
  });
  usePageTitle('Compare');
  if (!ids)
    return (
      <div className="space-y-3">
        <h1 className="text-2xl font-semibold tracking-tight">Compare</h1>
        <p role="alert" className="text-sm text-zinc-700 dark:text-zinc-300">
          Choose {COMPARE_MIN} to {COMPARE_MAX} results to compare: select them on Tasks or on a board, then
          press Compare.
        </p>
      </div>
    );
  const videos = () => [
    ...(grid.current?.querySelectorAll<HTMLVideoElement>('video[data-compare-video]') ?? []),
  ];
  const playTogether = () => {
    const all = videos();
    for (const video of all) {
      video.pause();
      video.currentTime = 0;
    }
    for (const video of all) void video.play().catch(() => undefined);
  };
  const loaded = (ids ?? []).map((_, index) => (tasks.data ? (tasks.data[index] ?? null) : undefined));
  const anyVideo = loaded.some((task) => task && viewOf(task).video.url);
  const anyImage = loaded.some((task) => task && !viewOf(task).video.url);
  // Side by side on a phone too: two across (a third and fourth below), all across on a wide screen.
  const columns = { 2: 'grid-cols-2', 3: 'grid-cols-2 sm:grid-cols-3', 4: 'grid-cols-2 lg:grid-cols-4' }[
    ids.length
  ];
  return (
    <div className="space-y-4">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight">Compare</h1>
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{ids.length} results side by side.</p>
      </div>
      <div
        role="toolbar"
        aria-label="Compare controls"
        className="flex flex-wrap items-center gap-3 rounded-xl border border-zinc-200 bg-white px-3 py-2 dark:border-zinc-800 dark:bg-zinc-900"
      >
        {anyImage && (
          <>
            <label htmlFor="compare-zoom" className="text-sm font-medium">
              Zoom
            </label>
            <input
              id="compare-zoom"
              type="range"
              min={ZOOM_MIN}
              max={ZOOM_MAX}
              step={25}
              value={zoom}
              onChange={(event) => setZoom(Number(event.target.value))}
              className="w-40 accent-indigo-600"
            />
            <output htmlFor="compare-zoom" className="w-12 text-sm tabular-nums">
              {zoom}%
            </output>
          </>
        )}
        {anyVideo && (
          <>
            <Button size="sm" variant="primary" onClick={playTogether}>
              Play together
            </Button>
            <Button size="sm" onClick={() => videos().forEach((video) => video.pause())}>
              Pause all
            </Button>
          </>
        )}
      </div>
      {tasks.isError && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          The results could not be read ({tasks.error.message}).
        </p>
      )}
      <div ref={grid} className={`grid gap-2 sm:gap-4 ${columns}`}>
        {ids.map((id, index) => (
          <Panel key={id} id={id} task={loaded[index]} zoom={zoom} />
        ))}
      </div>
    </div>
  );
}
