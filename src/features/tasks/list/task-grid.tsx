// The gallery grid. The first page of tasks is a plain CSS grid: that is all most visits show, and it
// needs no virtualizer. When more pages are loaded the list switches to the window-virtualized grid
// (./virtual-task-grid.tsx), fetched as the user scrolls towards the first page's end, so 10,000 tasks
// still cost the same as 20 while the Tasks screen's first load leaves @tanstack/react-virtual out.
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { GalleryCard } from './gallery-card';
import { columnsFor, GRID_GAP, type TaskGridProps } from './task-grid-layout';
import { PAGE_SIZE } from '@/features/tasks/team/team-tasks';

type VirtualGridModule = typeof import('./virtual-task-grid');

let virtualGrid: VirtualGridModule | undefined;
let loadingVirtualGrid: Promise<VirtualGridModule> | undefined;

function loadVirtualGrid(): Promise<VirtualGridModule> {
  loadingVirtualGrid ??= import('./virtual-task-grid').then(
    (module) => (virtualGrid = module),
    (error: unknown) => {
      loadingVirtualGrid = undefined; // offline: the plain grid goes on, and the next scroll tries again
      throw error;
    },
  );
  return loadingVirtualGrid;
}

/** The plain grid's average row height when it was last measured: the virtual grid's first estimate. */
let plainRowHeight: number | undefined;

function measureRows(list: HTMLElement, count: number) {
  const rows = Math.ceil(count / columnsFor(list.clientWidth));
  if (rows > 0 && list.offsetHeight > 0) plainRowHeight = (list.offsetHeight - GRID_GAP * (rows - 1)) / rows;
}

function PlainTaskGrid({ entries, labelledBy, total, onEndReached }: TaskGridProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const endRef = useRef<HTMLDivElement>(null);
  const count = entries.length;
  const hasMore = Boolean(onEndReached);
  // The observer below lives across renders and calls the latest props through this, so a new
  // `onEndReached` does not tear the observer down.
  const endReached = useEffectEvent(() => {
    if (listRef.current) measureRows(listRef.current, count);
    void loadVirtualGrid().catch(() => undefined);
    onEndReached?.();
  });

  useEffect(() => {
    const end = endRef.current;
    if (!end || !hasMore || typeof IntersectionObserver === 'undefined') return;
    // About two rows ahead of the end: the next page and the virtual grid load before they are needed.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) endReached();
      },
      { rootMargin: '0px 0px 800px 0px' },
    );
    observer.observe(end);
    return () => observer.disconnect();
  }, [count, hasMore]);

  return (
    <div className="@container">
      <div
        ref={listRef}
        role="list"
        aria-labelledby={labelledBy}
        data-lightbox-scope=""
        className="grid w-full grid-cols-1 items-stretch gap-4 @min-[560px]:grid-cols-2 @min-[900px]:grid-cols-3"
      >
        {entries.map((entry, index) => (
          <div
            key={entry.key}
            role="listitem"
            aria-setsize={Math.max(total ?? 0, count)}
            aria-posinset={index + 1}
          >
            <GalleryCard entry={entry} />
          </div>
        ))}
      </div>
      <div ref={endRef} aria-hidden="true" />
    </div>
  );
}

export function TaskGrid(props: TaskGridProps) {
  const needsVirtual = props.entries.length > PAGE_SIZE;
  const [module, setModule] = useState(virtualGrid);
  const [unavailable, setUnavailable] = useState(false);
  useEffect(() => {
    if (needsVirtual && !module) void loadVirtualGrid().then(setModule, () => setUnavailable(true));
  }, [needsVirtual, module]);
  if (needsVirtual && module) return <module.VirtualTaskGrid {...props} rowEstimate={plainRowHeight} />;
  // The next page can land before the virtual grid's code: the plain grid keeps to its one page
  // meanwhile (mounting the second page as well doubled the DOM for a few frames), and asks for
  // nothing more. Only if the code cannot load does it show every task, so none is out of reach.
  if (needsVirtual && !unavailable)
    return <PlainTaskGrid {...props} entries={props.entries.slice(0, PAGE_SIZE)} onEndReached={undefined} />;
  return <PlainTaskGrid {...props} />;
}
