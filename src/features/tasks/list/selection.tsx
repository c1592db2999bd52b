// Choosing cards of the Tasks screen for a bulk action: a checkbox on each card ("Select
// <title>"), shift-click for a range, Space on the focused checkbox, "Select all matching" (the
// server lists the ids of the whole view, not only the loaded pages). A request's card stands for
// all its tasks. The selection is of task ids; the bar with the actions (./bulk-bar.tsx) loads
// only when something is selected, so the screen's first load carries none of it.
import { createContext, lazy, use, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { LazyPart, PartFailed } from '@/components/ui/core/lazy-part';
import { Button, Spinner } from '@/components/ui/core/button';
import type { GalleryEntry } from '@/features/tasks/requests/request-groups';
import { viewOf } from '@/features/tasks/shared/task-view';
import { HIDDEN_KEY, type SlotProps } from '@/features/tasks/shared/bulk-slot';
import { readHiddenIds } from './hidden-tasks-api';

const BulkSlot = lazy(() => import('./bulk-bar').then((m) => ({ default: m.BulkSlot })));

const entryTaskIds = (entry: GalleryEntry): string[] =>
  entry.request ? entry.request.tasks.map((task) => task.id) : [entry.task.id];

/** What the card is headed by: the request's title, a task's heading ("Japanese - Recap"), else its id. */
const entryTitle = (entry: GalleryEntry) =>
  (entry.request ? entry.request.title : viewOf(entry.task).heading) ??
  (entry.request ? `request ${entry.request.id}` : entry.task.id);

interface SelectionApi {
  selected: ReadonlySet<string>;
  /** The card's box was clicked (shift: from the last one clicked to this one). */
  toggle: (key: string, shift: boolean) => void;
  /** With "Show hidden": the tasks I hid, marked on their cards. */
  hidden?: ReadonlySet<string>;
}

const SelectionContext = createContext<SelectionApi | null>(null);

/** The selection of the screen's cards, in the order they are shown. */
export function useSelection(entries: readonly GalleryEntry[]) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const anchor = useRef<string | undefined>(undefined);
  const entriesRef = useRef(entries);
  useEffect(() => {
    entriesRef.current = entries;
  }, [entries]);

  const toggle = useCallback((key: string, shift: boolean) => {
    const list = entriesRef.current;
    const at = list.findIndex((entry) => entry.key === key);
    if (at < 0) return;
    // Read now: React runs the updater below later, after the anchor has moved to this card.
    const from = shift && anchor.current ? list.findIndex((entry) => entry.key === anchor.current) : -1;
    const range = from < 0 ? [list[at]!] : list.slice(Math.min(from, at), Math.max(from, at) + 1);
    setSelected((before) => {
      const clicked = entryTaskIds(list[at]!);
      const select = !clicked.every((id) => before.has(id));
      const next = new Set(before);
      for (const id of range.flatMap(entryTaskIds)) {
        if (select) next.add(id);
        else next.delete(id);
      }
      return next;
    });
    anchor.current = key;
  }, []);
  const set = useCallback((ids: Iterable<string>) => {
    anchor.current = undefined;
    setSelected(new Set(ids));
  }, []);
  const api = useMemo<SelectionApi>(() => ({ selected, toggle }), [selected, toggle]);
  return { api, selected, set };
}

export function SelectionProvider({
  api,
  hidden,
  children,
}: {
  api: SelectionApi;
  hidden?: ReadonlySet<string>;
  children: React.ReactNode;
}) {
  const value = useMemo(() => (hidden ? { ...api, hidden } : api), [api, hidden]);
  return <SelectionContext value={value}>{children}</SelectionContext>;
}

/** The card's checkbox and selected frame around the card. */
export function Selectable({ entry, children }: { entry: GalleryEntry; children: React.ReactNode }) {
  const selection = use(SelectionContext);
  const shiftDown = useRef(false);
  if (!selection) return children;
  const ids = entryTaskIds(entry);
  const checked = ids.every((id) => selection.selected.has(id));
  const hidden = Boolean(selection.hidden?.size) && ids.every((id) => selection.hidden!.has(id));
  return (
    <div
      className={`relative h-full rounded-xl ${checked ? 'ring-2 ring-indigo-600 ring-offset-2 dark:ring-indigo-400 dark:ring-offset-zinc-950' : ''}`}
    >
      {children}
      {hidden && (
        <span className="absolute top-3 right-3 z-10 rounded-md bg-zinc-900/85 px-2 py-1 text-xs font-semibold text-white shadow-sm">
          Hidden from your view
        </span>
      )}
      <label
        // The click a label passes on to its box carries no Shift: it is read from the pointer.
        onPointerDown={(event) => (shiftDown.current = event.shiftKey)}
        className="absolute top-2 left-2 z-10 flex size-9 cursor-pointer items-center justify-center rounded-lg bg-white/90 shadow-sm ring-1 ring-zinc-300 dark:bg-zinc-900/90 dark:ring-zinc-700"
      >
        <input
          type="checkbox"
          aria-label={`Select ${entryTitle(entry)}`}
          checked={checked}
          onChange={(event) => {
            const shift = (event.nativeEvent as MouseEvent).shiftKey || shiftDown.current;
            shiftDown.current = false;
            selection.toggle(entry.key, shift);
          }}
          className="size-5 cursor-pointer accent-indigo-600"
        />
      </label>
    </div>
  );
}

export function useHiddenTasks() {
  return useQuery({
    queryKey: HIDDEN_KEY,
    queryFn: ({ signal }) => readHiddenIds(signal),
    staleTime: Infinity,
  });
}

/**
 * The screen's one slot for bulk actions: "Select all matching" (and "Show hidden" once something is
 * hidden) while nothing is chosen, the bar with the count and the actions once something is. All
 * but the first button loads on first use (./bulk-bar.tsx).
 */
export function SelectionSlot(props: SlotProps) {
  // Once loaded it stays, so what an action said is still there after the selection is spent.
  const [loaded, setLoaded] = useState<'no' | 'yes' | 'select-all'>('no');
  if (loaded === 'no' && (props.selected.size || props.hiddenCount || props.showHidden)) setLoaded('yes');
  if (loaded === 'no')
    return (
      <Button size="sm" variant="ghost" onClick={() => setLoaded('select-all')}>
        Select all matching
      </Button>
    );
  return (
    <LazyPart loading={<Spinner />} failed={<PartFailed what="The bulk actions" />}>
      <BulkSlot {...props} selectAllNow={loaded === 'select-all'} />
    </LazyPart>
  );
}
