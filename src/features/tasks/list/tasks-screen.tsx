// The Tasks screen: the team's tasks from the server's record, newest first, paged as you scroll
// and live through the server's event stream. Filters live in the URL. This browser's own history
// (IndexedDB) lays its fresher copy over the cards it follows, and stands in, said so, when the
// server's list cannot be read.
import { lazy, useCallback, useId, useMemo, useState } from 'react';
import { LazyPart, PartFailed } from '@/components/ui/core/lazy-part';
import { useMyName } from '@/api/my-name';
import { QueryProvider } from '@/api/query/query-client';
import { Button, Spinner } from '@/components/ui/core/button';
import { HistoryActions } from './history-actions';
import { SelectionProvider, SelectionSlot, useHiddenTasks, useSelection } from './selection';
import { galleryModeOf, storeGalleryMode } from './gallery-mode';
import {
  groupByRequest,
  requestsOfPages,
  type GalleryEntry,
  type GalleryMode,
} from '@/features/tasks/requests/request-groups';
import {
  GalleryModeSwitch,
  KindAndSearch,
  LayoutSwitch,
  PANEL_ID,
  SortSelect,
  StatusTabs,
  TAB_LABELS,
} from './task-filters';
import { TaskGrid } from './task-grid';
import { useTasksKeys } from './tasks-keys';
import { EmptyState } from './tasks-empty-state';
import { CLEARED_FILTERS, isFiltered, periodOf, type UrlFilters } from './task-url-filters';
import { filterTasks } from '@/features/tasks/shared/task-view';
import type { TeamQuery, TeamTask } from '@/features/tasks/team/team-tasks';
import { useHistoryWhen } from './use-history-when';
import { useTeamFeed } from '@/features/tasks/team/use-team-feed';
import { useStars } from '@/features/tasks/shared/stars';
import { AddToBoardHost } from '@/features/tasks/boards/add-to-board';
import { useTeamTasks } from './use-team-tasks';
import { useUrlFilters } from './use-url-filters';

// Looking up ids is a secondary control: its form loads when "Look up ids" first opens it.
const LookupForm = lazy(() => import('./lookup-form').then((m) => ({ default: m.LookupForm })));
// Date, creator and failure filters: loaded when the panel first opens (a link with them set opens it).
const MoreFilters = lazy(() => import('./task-more-filters').then((m) => ({ default: m.MoreFilters })));
const TaskTable = lazy(() => import('./task-table').then((m) => ({ default: m.TaskTable })));
// A search the server stopped at its time limit: rare, so its notice loads when it is needed.
const SearchCutShort = lazy(() => import('./search-cut-short').then((m) => ({ default: m.SearchCutShort })));

/** With its own provider of the shared query client: TanStack Query loads with this screen, not the shell. */
export function TasksScreen() {
  return (
    <QueryProvider>
      <TasksScreenContent />
    </QueryProvider>
  );
}

function toQuery(filters: UrlFilters, me: string, mode: GalleryMode): TeamQuery {
  return {
    tab: filters.tab,
    kind: filters.kind === 'all' ? undefined : filters.kind,
    q: filters.search.trim() || undefined,
    creator: filters.mine ? me : filters.creator,
    ...periodOf(filters),
    ...(filters.code && { errorCode: filters.code }),
    ...(filters.reason && { errorReason: filters.reason }),
    ...(filters.sort && { sort: filters.sort }),
    ...(mode === 'request' && { group: 'request' as const }),
    ...(filters.hidden && { hidden: filters.hidden }),
    ...(filters.starred && { starred: filters.starred }),
    ...(filters.review && { review: filters.review }),
  };
}

/**
 * The local history through the server's rule, for when the server cannot answer: the same query,
 * with this browser's tasks taken as made by `me` (its history knows no other creator).
 */
function useLocalFallback(query: TeamQuery, me: string, active: boolean) {
  const history = useHistoryWhen(active);
  const shown = useMemo(
    () => (history ? filterTasks(history.tasks, query, me) : undefined),
    [history, query, me],
  );
  return { history, shown };
}

export function TasksScreenContent() {
  const { filters, draft, setDraft, setFilters } = useUrlFilters();
  const me = useMyName().name;
  const mode = galleryModeOf(filters.by);
  const query = useMemo(() => toQuery(filters, me, mode), [filters, me, mode]);
  // "Mine" without a name has nothing to ask the server for.
  const needsName = filters.mine && !me;
  const list = useTeamTasks(query, !needsName);
  useTeamFeed(needsName ? undefined : query);
  // While a new view loads, `list.data` is the last view's (./use-team-tasks.ts): its counts stay on
  // the tabs, marked busy; its tasks are not this view's, so `data` is none of it.
  const stale = list.isPlaceholderData;
  const data = stale ? undefined : list.data;
  const failed = list.isError && !list.data;
  const { history, shown: fallback } = useLocalFallback(query, me, failed);

  // Bulk actions (./selection.tsx): what I hid stays out of my view unless "Show hidden" is on (in
  // the URL). The server leaves it out of the pages, the counts and the requests' cards; the tasks
  // hidden since the pages were read go here at once.
  const hidden = useHiddenTasks().data;
  const showHidden = filters.hidden === 'show';
  // The Starred view: a result unstarred since the pages were read leaves it at once.
  const stars = useStars().data;
  const onlyStarred = filters.starred === 'only';
  const visible = useCallback(
    (tasks: readonly TeamTask[]) => {
      const shownHidden = showHidden || !hidden?.size ? tasks : tasks.filter((task) => !hidden.has(task.id));
      return onlyStarred && stars ? shownHidden.filter((task) => stars.has(task.id)) : shownHidden;
    },
    [hidden, showHidden, onlyStarred, stars],
  );
  const shown: readonly TeamTask[] = useMemo(() => {
    if (fallback) return fallback.shown;
    const items = data?.pages.flatMap((page) => page.items) ?? [];
    return visible(items);
  }, [fallback, data, visible]);
  // By request: a card per request where its first matching task falls, with all its tasks
  // (./request-groups.ts).
  const entries: readonly GalleryEntry[] = useMemo(() => {
    if (mode === 'task') return shown.map((task) => ({ key: task.id, task }));
    const requests = requestsOfPages(fallback ? [] : (data?.pages ?? []));
    for (const [id, request] of requests)
      requests.set(id, { ...request, tasks: [...visible(request.tasks)] });
    return groupByRequest(shown, requests);
  }, [mode, shown, fallback, data, visible]);
  const selection = useSelection(entries);
  const loaded = useMemo(
    () =>
      new Map(
        entries
          .flatMap((entry): TeamTask[] => (entry.request ? entry.request.tasks : [entry.task]))
          .map((task) => [task.id, task]),
      ),
    [entries],
  );
  const counted = needsName ? undefined : list.data?.pages[0];
  const counts = fallback?.counts ?? counted?.counts ?? { all: 0, running: 0, succeeded: 0, failed: 0 };
  const loading = !needsName && (list.isPending || stale);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const loadMore = useMemo(
    () => () => {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
    [hasNextPage, isFetchingNextPage, fetchNextPage],
  );
  // The server's search stopped at its time limit: where it got to, until the person asks for more.
  const lastPage = fallback ? undefined : data?.pages.at(-1);
  const cutShortAt = lastPage?.cutShort ? (lastPage.nextCursor ?? undefined) : undefined;
  const cutShort = cutShortAt && (
    <LazyPart failed={<PartFailed what="The rest of the search" />}>
      <SearchCutShort
        cursor={cutShortAt}
        found={shown.length}
        loading={isFetchingNextPage}
        onMore={loadMore}
      />
    </LazyPart>
  );

  const [lookupOpen, setLookupOpen] = useState(false);
  const moreFiltersSet = [
    filters.from || filters.to,
    filters.creator,
    filters.code,
    filters.reason,
    filters.review,
  ].filter(Boolean).length;
  // How many filters narrow the view: on a phone "Filters" holds them all (with the order and layout).
  const filtersSet =
    moreFiltersSet + [filters.mine, filters.starred, filters.kind !== 'all'].filter(Boolean).length;
  const [filtersOpen, setFiltersOpen] = useState(moreFiltersSet > 0);
  const filtersId = useId();
  const lookupId = useId();
  const table = filters.view === 'table';
  useTasksKeys();

  return (
    // Tighter on a phone: the first card starts in the top 300 px of the screen.
    <div className="space-y-3 sm:space-y-5">
      <AddToBoardHost />
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h1 id="tasks-heading" className="text-2xl font-semibold tracking-tight">
            Tasks
          </h1>
          {/* On a phone the line gives way to the cards, unless it says the list is this browser's. */}
          <p
            className={`mt-1 text-sm text-zinc-600 dark:text-zinc-400 ${fallback && history ? '' : 'hidden sm:block'}`}
          >
            {fallback && history
              ? `${history.tasks.length.toLocaleString()} in this browser's history.`
              : "The team's tasks. Changes made anywhere show here as they happen."}
          </p>
        </div>
        <div className="flex items-start gap-2">
          <Button
            size="sm"
            aria-expanded={lookupOpen}
            aria-controls={lookupId}
            onClick={() => setLookupOpen((open) => !open)}
          >
            Look up ids
          </Button>
          <HistoryActions />
        </div>
      </div>
      {lookupOpen && (
        <section id={lookupId} aria-label="Look up task ids">
          <LazyPart failed={<PartFailed what="Look up ids" />}>
            <LookupForm onAdded={() => setFilters({ ...CLEARED_FILTERS })} />
          </LazyPart>
        </section>
      )}
      {failed && (
        <div
          role="alert"
          className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950/50 dark:text-amber-50"
        >
          <p>
            <span className="font-semibold">The team&apos;s list could not be read</span> (
            {list.error.message}). Showing this browser&apos;s own history instead.
          </p>
          <Button size="sm" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </div>
      )}
      {history?.storageError && (
        <p className="rounded-xl border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950 dark:border-amber-900 dark:bg-amber-950/50 dark:text-amber-50">
          {history.storageError}. Tasks still update while this tab is open; export the history to keep it.
        </p>
      )}
      <div className="space-y-2 sm:space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <StatusTabs
            value={filters.tab}
            counts={counts}
            capped={!fallback && Boolean(counted?.countsCapped)}
            busy={loading}
            onChange={(tab) => setFilters({ tab })}
          />
          <div className={`${filtersOpen ? 'flex' : 'hidden'} flex-wrap gap-2 sm:flex`}>
            <GalleryModeSwitch
              value={mode}
              onChange={(by) => {
                storeGalleryMode(by);
                setFilters({ by });
              }}
            />
            <LayoutSwitch
              value={table ? 'table' : 'gallery'}
              onChange={(layout) => setFilters({ view: layout === 'table' ? 'table' : undefined })}
            />
          </div>
        </div>
        <div className="flex flex-wrap gap-2 lg:flex-nowrap">
          <KindAndSearch
            filters={filters}
            search={draft}
            me={me}
            folded={!filtersOpen}
            onChange={(next) => setFilters(next)}
            onSearch={setDraft}
          />
          <div
            className={`${filtersOpen ? 'block' : 'hidden'} order-4 min-w-0 flex-1 sm:order-none sm:block sm:flex-none`}
          >
            <SortSelect value={filters.sort} onChange={(sort) => setFilters({ sort })} />
          </div>
          <Button
            className="order-2 sm:order-none"
            aria-expanded={filtersOpen}
            aria-controls={filtersId}
            onClick={() => setFiltersOpen((open) => !open)}
          >
            Filters
            {filtersSet > 0 && (
              <span className="rounded-full bg-indigo-600 px-1.5 text-xs text-white tabular-nums">
                {filtersSet}
                <span className="sr-only"> set</span>
              </span>
            )}
          </Button>
        </div>
        {filtersOpen && (
          <LazyPart failed={<PartFailed what="The filters" />}>
            <MoreFilters
              id={filtersId}
              filters={filters}
              query={query}
              onChange={(next) => setFilters(next)}
            />
          </LazyPart>
        )}
      </div>
      {/* The bar of a selection sticks below the header while the list scrolls under it: its box
          is the list's, not the filters'. */}
      <div className="space-y-2 sm:space-y-3">
        {/* "Select all matching", or the room it took while the bar of a selection floats at the
            window's foot: choosing the first card must not move the cards under the pointer. */}
        <div className="min-h-8">
          <SelectionSlot
            query={query}
            selected={selection.selected}
            setSelected={selection.set}
            loaded={loaded}
            hiddenCount={hidden?.size ?? 0}
            showHidden={showHidden}
            onShowHidden={(show) => setFilters({ hidden: show ? 'show' : undefined })}
          />
        </div>
        <section
          id={PANEL_ID}
          role="tabpanel"
          aria-labelledby={`task-tab-${filters.tab}`}
          aria-busy={loading}
        >
          <h2 className="sr-only">
            {TAB_LABELS[filters.tab]} tasks ({counts[filters.tab] ?? '?'})
          </h2>
          {needsName ? (
            <p className="rounded-xl border border-dashed border-zinc-300 px-6 py-10 text-center text-sm dark:border-zinc-700">
              &quot;Mine&quot; needs to know who you are: sign in to see your own tasks.
            </p>
          ) : loading ? (
            <div
              role="status"
              className="flex items-center justify-center gap-2 py-16 text-sm text-zinc-600 dark:text-zinc-400"
            >
              <Spinner /> Loading the team&apos;s tasks…
            </div>
          ) : shown.length ? (
            <>
              {table ? (
                <LazyPart failed={<PartFailed what="The table" />}>
                  <TaskTable
                    entries={entries}
                    hasMore={Boolean(hasNextPage) && !fallback && !cutShort}
                    loadingMore={isFetchingNextPage}
                    onMore={loadMore}
                  />
                </LazyPart>
              ) : (
                <SelectionProvider api={selection.api} hidden={showHidden ? hidden : undefined}>
                  <TaskGrid
                    entries={entries}
                    total={mode === 'task' ? (counts[filters.tab] ?? undefined) : undefined}
                    onEndReached={fallback || cutShort ? undefined : loadMore}
                  />
                </SelectionProvider>
              )}
              {cutShort && <div className="mt-4">{cutShort}</div>}
              {isFetchingNextPage && !cutShort && (
                <p
                  role="status"
                  className="flex items-center justify-center gap-2 py-6 text-sm text-zinc-600"
                >
                  <Spinner /> Loading more…
                </p>
              )}
            </>
          ) : cutShort ? (
            cutShort
          ) : (
            <EmptyState filtered={isFiltered(filters)} onClear={() => setFilters({ ...CLEARED_FILTERS })} />
          )}
        </section>
      </div>
    </div>
  );
}
