import type { TaskType } from '@/api/schemas';
import { inputClass } from '@/components/ui/styles';
import { TASK_TYPE_LABELS } from '@/api/query/task-types';
import type { TaskTab } from '@/features/tasks/shared/task-view';
import type { TasksLayout, UrlFilters } from './task-url-filters';
import { TASK_SORTS, type TaskSort } from '@/api/task-view/task-view-rule';
import { GALLERY_MODES } from './gallery-mode';
import type { GalleryMode } from '@/features/tasks/requests/request-groups';

export const TAB_LABELS: Record<TaskTab, string> = {
  all: 'All',
  running: 'In progress',
  succeeded: 'Succeeded',
  failed: 'Failed',
};
const TABS = Object.keys(TAB_LABELS) as TaskTab[];

type Filters = UrlFilters;

export const PANEL_ID = 'task-gallery-panel';

/** A tab's count: "1,000+" when the server stopped counting there (`countsCapped`), "?" when it had none. */
function CountText({ count, capped }: { count: number | null; capped: boolean }) {
  if (count === null)
    return (
      <>
        <span aria-hidden="true">?</span>
        <span className="sr-only">not counted</span>
      </>
    );
  return <>{`${count.toLocaleString()}${capped && count >= CAPPED_AT ? '+' : ''}`}</>;
}

/** The server counts a search's matches up to this many a tab (COUNT_CAP in server/tasks/list.ts). */
const CAPPED_AT = 1000;

export function StatusTabs({
  value,
  counts,
  capped = false,
  busy = false,
  onChange,
}: {
  value: TaskTab;
  counts: Record<TaskTab, number | null>;
  /** The server stopped counting at CAPPED_AT: a count there means "at least". */
  capped?: boolean;
  /** The view's own counts are loading: these are the last view's, dimmed until they come. */
  busy?: boolean;
  onChange: (tab: TaskTab) => void;
}) {
  return (
    <div role="tablist" aria-label="Task status" aria-busy={busy} className="flex flex-wrap gap-1">
      {TABS.map((tab, index) => {
        const selected = tab === value;
        return (
          <button
            key={tab}
            type="button"
            role="tab"
            id={`task-tab-${tab}`}
            aria-selected={selected}
            aria-controls={PANEL_ID}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(tab)}
            onKeyDown={(event) => {
              const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
              if (!step) return;
              const next = TABS[(index + step + TABS.length) % TABS.length]!;
              onChange(next);
              document.getElementById(`task-tab-${next}`)?.focus();
            }}
            className={`inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1 text-sm sm:gap-2 sm:px-3 sm:py-1.5 font-medium whitespace-nowrap transition-colors ${
              selected
                ? 'bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900'
                : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800'
            }`}
          >
            {TAB_LABELS[tab]}
            <span
              title={counts[tab] === null ? 'Not counted: the search ran out of time' : undefined}
              className={`rounded-full px-1.5 text-xs tabular-nums ${selected ? 'bg-white/20 dark:bg-zinc-900/15' : 'bg-zinc-200 dark:bg-zinc-700'}`}
            >
              <CountText count={counts[tab]} capped={capped} />
            </span>
          </button>
        );
      })}
    </div>
  );
}

/**
 * A filter that is on or off: "Mine" (only the tasks recorded with this browser's, or the
 * session's, name as the creator) and "Starred" (only the results I starred).
 */
function FilterToggle({
  checked,
  title,
  label,
  onChange,
}: {
  checked: boolean;
  title: string;
  label: string;
  onChange: (on: boolean) => void;
}) {
  return (
    <label
      className="inline-flex shrink-0 cursor-pointer items-center gap-2 rounded-lg border border-zinc-300 bg-white px-3 py-2 text-sm font-medium text-zinc-800 has-checked:border-indigo-400 has-checked:bg-indigo-50 has-checked:text-indigo-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100 dark:has-checked:border-indigo-700 dark:has-checked:bg-indigo-950 dark:has-checked:text-indigo-100"
      title={title}
    >
      <input
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="size-4 accent-indigo-600"
      />
      {label}
    </label>
  );
}

/**
 * Mine, Starred and the kind, then the search, as two items of the controls' row. On a phone the
 * search comes first and the rest is folded behind "Filters" (`folded`), so the first card is in
 * the first screen.
 */
export function KindAndSearch({
  filters,
  search,
  me,
  folded,
  onChange,
  onSearch,
}: {
  filters: Filters;
  /** The search box's text, ahead of the URL while typing (it is debounced). */
  search: string;
  me: string;
  /** Below the `sm` width, Mine, Starred and the kind are hidden until "Filters" is opened. */
  folded: boolean;
  onChange: (next: Partial<Filters>) => void;
  onSearch: (text: string) => void;
}) {
  return (
    <>
      <div className={`${folded ? 'hidden' : 'flex'} order-3 w-full gap-2 sm:order-none sm:flex sm:w-auto`}>
        <FilterToggle
          checked={filters.mine}
          label="Mine"
          title={me ? `Tasks created by ${me}` : 'Set your name in Settings first'}
          onChange={(mine) => onChange({ mine })}
        />
        <FilterToggle
          checked={filters.starred === 'only'}
          label="Starred"
          title="Only the results you starred"
          onChange={(on) => onChange({ starred: on ? 'only' : undefined })}
        />
        <div className="min-w-0 flex-1 sm:w-48 sm:flex-none">
          <label htmlFor="task-kind" className="sr-only">
            Kind
          </label>
          <select
            id="task-kind"
            value={filters.kind}
            onChange={(event) => onChange({ kind: event.target.value as Filters['kind'] })}
            className={inputClass}
          >
            <option value="all">All kinds</option>
            {(Object.keys(TASK_TYPE_LABELS) as TaskType[]).map((kind) => (
              <option key={kind} value={kind}>
                {TASK_TYPE_LABELS[kind]}
              </option>
            ))}
          </select>
        </div>
      </div>
      <div className="order-1 min-w-0 flex-1 basis-40 sm:order-none sm:basis-48">
        <label htmlFor="task-search" className="sr-only">
          Search tasks
        </label>
        <input
          id="task-search"
          type="search"
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          placeholder="Search by task id, prompt, name, language or creator"
          className={inputClass}
        />
      </div>
    </>
  );
}

/** "By request" / "By task": one card per request (its tasks inside) or one per task. */
export function GalleryModeSwitch({
  value,
  onChange,
}: {
  value: GalleryMode;
  onChange: (mode: GalleryMode) => void;
}) {
  return (
    <Toggles
      label="Show cards"
      options={GALLERY_MODES.map(({ mode, label }) => ({ value: mode, label }))}
      value={value}
      onChange={onChange}
    />
  );
}

const SORT_LABELS: Record<TaskSort, string> = {
  newest: 'Newest first',
  longest: 'Longest first',
  failed: 'Failed first',
  starred: 'Starred first',
};

/** The order: newest first (the default), longest running first, failed first. */
export function SortSelect({
  value,
  onChange,
}: {
  value: UrlFilters['sort'];
  onChange: (sort: UrlFilters['sort']) => void;
}) {
  return (
    <div className="min-w-0 sm:w-40 sm:flex-none">
      <label htmlFor="task-sort" className="sr-only">
        Sort
      </label>
      <select
        id="task-sort"
        value={value ?? 'newest'}
        onChange={(event) => {
          const sort = event.target.value as TaskSort;
          onChange(sort === 'newest' ? undefined : sort);
        }}
        className={inputClass}
      >
        {TASK_SORTS.map((sort) => (
          <option key={sort} value={sort}>
            {SORT_LABELS[sort]}
          </option>
        ))}
      </select>
    </div>
  );
}

const LAYOUTS: { layout: TasksLayout; label: string }[] = [
  { layout: 'gallery', label: 'Gallery' },
  { layout: 'table', label: 'Table' },
];

/** Pressed buttons of one group: the gallery's grouping, the layout. */
function Toggles<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <div
      role="group"
      aria-label={label}
      className="inline-flex shrink-0 rounded-lg border border-zinc-300 bg-white p-0.5 dark:border-zinc-700 dark:bg-zinc-900"
    >
      {options.map((option) => {
        const pressed = option.value === value;
        return (
          <button
            key={option.value}
            type="button"
            aria-pressed={pressed}
            onClick={() => onChange(option.value)}
            className={`rounded-md px-2.5 py-1 text-sm font-medium whitespace-nowrap transition-colors ${
              pressed
                ? 'bg-indigo-600 text-white dark:bg-indigo-500 dark:text-white'
                : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800'
            }`}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}

/** "Gallery" / "Table". */
export function LayoutSwitch({
  value,
  onChange,
}: {
  value: TasksLayout;
  onChange: (layout: TasksLayout) => void;
}) {
  return (
    <Toggles
      label="Layout"
      options={LAYOUTS.map(({ layout, label }) => ({ value: layout, label }))}
      value={value}
      onChange={onChange}
    />
  );
}
