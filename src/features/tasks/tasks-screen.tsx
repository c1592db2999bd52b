// The task gallery: every task this browser created or looked up, newest first, live.
import { useDeferredValue, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { Spinner } from '@/components/ui/button';
import { HistoryActions } from './history-actions';
import { LookupForm } from './lookup-form';
import { KindAndSearch, PANEL_ID, StatusTabs, TAB_LABELS, type Filters } from './task-filters';
import { TaskGrid } from './task-grid';
import { filterTasks } from './task-view';
import { useHistory } from './use-history';

function EmptyState({ filtered, onClear }: { filtered: boolean; onClear: () => void }) {
  return (
    <div className="rounded-xl border border-dashed border-zinc-300 px-6 py-14 text-center dark:border-zinc-700">
      {filtered ? (
        <>
          <p className="font-medium">No tasks match these filters.</p>
          <button
            type="button"
            onClick={onClear}
            className="mt-2 text-sm font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
          >
            Show all tasks
          </button>
        </>
      ) : (
        <>
          <p className="font-medium">No tasks yet</p>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            Tasks you{' '}
            <Link
              href="/"
              className="font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
            >
              create
            </Link>{' '}
            or{' '}
            <Link
              href="/translate"
              className="font-medium text-indigo-700 underline underline-offset-2 dark:text-indigo-300"
            >
              translate
            </Link>{' '}
            appear here, and so do ids you paste above.
          </p>
        </>
      )}
    </div>
  );
}

const INITIAL: Filters = { tab: 'all', kind: 'all', search: '' };

export function TasksScreen() {
  const { loaded, tasks, storageError } = useHistory();
  const [filters, setFilters] = useState<Filters>(INITIAL);
  const deferred = useDeferredValue(filters);
  const { counts, shown } = useMemo(() => filterTasks(tasks, deferred), [tasks, deferred]);
  const update = (next: Partial<Filters>) => setFilters((old) => ({ ...old, ...next }));
  const filtered = filters.tab !== 'all' || filters.kind !== 'all' || filters.search.trim() !== '';

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 id="tasks-heading" className="text-2xl font-semibold tracking-tight">
            Tasks
          </h1>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            {loaded
              ? `${tasks.length.toLocaleString()} in this browser's history. Running tasks update on their own.`
              : 'Loading the history…'}
          </p>
        </div>
        <HistoryActions />
      </div>
      {storageError && (
        <p
          role="alert"
          className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950/50 dark:text-amber-50"
        >
          {storageError}. Tasks still update while this tab is open; export the history to keep it.
        </p>
      )}
      <LookupForm onAdded={() => setFilters(INITIAL)} />
      <div className="space-y-3">
        <StatusTabs value={filters.tab} counts={counts} onChange={(tab) => update({ tab })} />
        <KindAndSearch filters={filters} onChange={update} />
      </div>
      <section id={PANEL_ID} role="tabpanel" aria-labelledby={`task-tab-${filters.tab}`} aria-busy={!loaded}>
        <h2 className="sr-only">
          {TAB_LABELS[filters.tab]} tasks ({shown.length})
        </h2>
        {!loaded ? (
          <div
            role="status"
            className="flex items-center justify-center gap-2 py-16 text-sm text-zinc-600 dark:text-zinc-400"
          >
            <Spinner /> Loading the history…
          </div>
        ) : shown.length ? (
          <TaskGrid tasks={shown} />
        ) : (
          <EmptyState filtered={filtered && tasks.length > 0} onClear={() => setFilters(INITIAL)} />
        )}
      </section>
    </div>
  );
}
