// The gallery grid once more than a page is loaded (./task-grid.tsx), virtualized against the
// window scroll: only the rows near the viewport are in the DOM, so 10,000 tasks cost the same as 20.
// Columns follow the container width, at the plain grid's breakpoints.
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { REVEAL_CARD } from './card-keys';
import { GalleryCard } from './gallery-card';
import { columnsFor, GRID_GAP as GAP, type TaskGridProps } from './task-grid-layout';

export function VirtualTaskGrid({
  entries,
  labelledBy,
  total,
  onEndReached,
  rowEstimate = 400,
}: TaskGridProps & {
  /** The height rows had in the plain grid, so switching over does not move what is on screen. */
  rowEstimate?: number;
}) {
  const listRef = useRef<HTMLDivElement>(null);
  const [columns, setColumns] = useState(3);
  const [scrollMargin, setScrollMargin] = useState(0);

  useLayoutEffect(() => {
    const element = listRef.current;
    if (!element) return;
    const measure = () => {
      setColumns(columnsFor(element.clientWidth));
      setScrollMargin(element.getBoundingClientRect().top + window.scrollY);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  const rowCount = Math.ceil(entries.length / columns);
  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => rowEstimate,
    overscan: 2,
    gap: GAP,
    scrollMargin,
    getItemKey: (index) => entries[index * columns]?.key ?? index,
  });

  // `j` / `k` (./card-keys.ts) asks for a card that is not drawn: scroll its row in.
  useEffect(() => {
    const list = listRef.current;
    if (!list) return;
    const reveal = (event: Event) =>
      virtualizer.scrollToIndex(Math.floor((event as CustomEvent<number>).detail / columns), {
        align: 'center',
      });
    list.addEventListener(REVEAL_CARD, reveal);
    return () => list.removeEventListener(REVEAL_CARD, reveal);
  }, [virtualizer, columns]);

  const lastIndex = virtualizer.getVirtualItems().at(-1)?.index ?? -1;
  useEffect(() => {
    if (onEndReached && rowCount > 0 && lastIndex >= rowCount - 3) onEndReached();
  }, [lastIndex, rowCount, onEndReached]);

  return (
    <div
      ref={listRef}
      role="list"
      aria-labelledby={labelledBy}
      data-lightbox-scope=""
      className="relative w-full"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {virtualizer.getVirtualItems().map((row) => {
        const rowEntries = entries.slice(row.index * columns, row.index * columns + columns);
        return (
          <div
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className="absolute top-0 left-0 grid w-full items-stretch"
            style={{
              transform: `translateY(${row.start - scrollMargin}px)`,
              gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
              gap: GAP,
            }}
          >
            {rowEntries.map((entry, i) => (
              <div
                key={entry.key}
                role="listitem"
                aria-setsize={Math.max(total ?? 0, entries.length)}
                aria-posinset={row.index * columns + i + 1}
              >
                <GalleryCard entry={entry} />
              </div>
            ))}
          </div>
        );
      })}
    </div>
  );
}
