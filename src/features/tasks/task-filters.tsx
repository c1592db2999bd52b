import type { TaskType } from '@/api/schemas';
import { inputClass } from '@/components/ui/styles';
import { TASK_TYPE_LABELS } from '@/api/task-types';
import type { TaskTab } from './task-view';

export const TAB_LABELS: Record<TaskTab, string> = {
  all: 'All',
  running: 'In progress',
  succeeded: 'Succeeded',
  failed: 'Failed',
};
const TABS = Object.keys(TAB_LABELS) as TaskTab[];

export interface Filters {
  tab: TaskTab;
  kind: TaskType | 'all';
  search: string;
}

export const PANEL_ID = 'task-gallery-panel';

export function StatusTabs({
  value,
  counts,
  onChange,
}: {
  value: TaskTab;
  counts: Record<TaskTab, number>;
  onChange: (tab: TaskTab) => void;
}) {
  return (
    <div role="tablist" aria-label="Task status" className="flex flex-wrap gap-1">
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
            className={`inline-flex items-center gap-1.5 rounded-lg px-2.5 py-1.5 text-sm sm:gap-2 sm:px-3 font-medium whitespace-nowrap transition-colors ${
              selected
                ? 'bg-zinc-900 text-white dark:bg-zinc-100 dark:text-zinc-900'
                : 'text-zinc-700 hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-800'
            }`}
          >
            {TAB_LABELS[tab]}
            <span
              className={`rounded-full px-1.5 text-xs tabular-nums ${selected ? 'bg-white/20 dark:bg-zinc-900/15' : 'bg-zinc-200 dark:bg-zinc-700'}`}
            >
              {counts[tab].toLocaleString()}
            </span>
          </button>
        );
      })}
    </div>
  );
}

export function KindAndSearch({
  filters,
  onChange,
}: {
  filters: Filters;
  onChange: (next: Partial<Filters>) => void;
}) {
  return (
    <div className="flex flex-col gap-2 sm:flex-row">
      <div className="sm:w-48">
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
      <div className="min-w-0 flex-1">
        <label htmlFor="task-search" className="sr-only">
          Search tasks
        </label>
        <input
          id="task-search"
          type="search"
          value={filters.search}
          onChange={(event) => onChange({ search: event.target.value })}
          placeholder="Search by task id, prompt, name or language"
          className={inputClass}
        />
      </div>
    </div>
  );
}
