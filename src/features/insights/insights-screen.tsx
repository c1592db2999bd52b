// The Insights screen: how the team is doing over a period (24 hours, 7 or 30 days, or custom days),
// optionally for one kind and one person. The figures come from the server's database
// (GET /__console/insights); the choices live in the URL; the figures are read again as tasks
// change (the server's task event stream). The figures themselves are ./insights-figures.tsx.
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useLocation, useSearch } from 'wouter';
import { QueryProvider } from '@/api/query/query-client';
import { TASK_TYPES } from '@/api/schemas';
import { TASK_TYPE_LABELS } from '@/api/query/task-types';
import { cardClass, inputClass } from '@/components/ui/styles';
import { fetchInsights } from './insights-api';
import { Figures } from './insights-figures';
import {
  apiQuery,
  customPeriodProblem,
  parseView,
  PERIOD_LABELS,
  PERIODS,
  serializeView,
  type InsightsView,
} from './insights-url';

export function InsightsScreen() {
  return (
    <QueryProvider>
      <InsightsScreenContent />
    </QueryProvider>
  );
}

const LIVE_DELAY_MS = 1_000;

function useView() {
  const search = useSearch();
  const [, navigate] = useLocation();
  const view = useMemo(() => parseView(search), [search]);
  const setView = (next: Partial<InsightsView>) =>
    navigate(`/insights${serializeView({ ...view, ...next })}`, { replace: true });
  return { view, setView };
}

/** Reads the figures again, after a short pause, whenever the server says a task changed. */
function useLiveInsights() {
  const client = useQueryClient();
  useEffect(() => {
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource('/__console/tasks/events');
    let timer: ReturnType<typeof setTimeout> | undefined;
    let connected = false;
    const soon = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void client.invalidateQueries({ queryKey: ['insights'] }), LIVE_DELAY_MS);
    };
    source.addEventListener('ready', () => {
      if (connected) soon();
      connected = true;
    });
    source.addEventListener('task', soon);
    return () => {
      clearTimeout(timer);
      source.close();
    };
  }, [client]);
}

function InsightsScreenContent() {
  const { view, setView } = useView();
  const problem = customPeriodProblem(view);
  const insights = useQuery({
    queryKey: ['insights', view],
    queryFn: ({ signal }) => fetchInsights(apiQuery(view, Date.now()), signal),
    enabled: !problem,
    placeholderData: keepPreviousData,
    retry: false,
  });
  useLiveInsights();
  const data = insights.data;
  // The CSV of exactly the period on screen.
  const csvHref =
    data && !problem
      ? `/__console/insights.csv?${new URLSearchParams({
          from: data.period.from,
          to: data.period.to,
          ...(view.kind !== 'all' && { kind: view.kind }),
          ...(view.person && { creator: view.person }),
        }).toString()}`
      : undefined;

  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Insights</h1>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            The team&apos;s tasks created in the period, by outcome as of now. Times are UTC.
          </p>
        </div>
        {csvHref && (
          <a
            href={csvHref}
            download
            className="rounded-lg border border-zinc-300 px-3 py-1.5 text-sm font-medium text-zinc-800 hover:bg-zinc-100 dark:border-zinc-700 dark:text-zinc-100 dark:hover:bg-zinc-800"
          >
            Download CSV
          </a>
        )}
      </div>
      <Filters view={view} setView={setView} creators={data?.creators ?? []} problem={problem} />
      {insights.isError && (
        <p
          role="alert"
          className="rounded-xl border border-red-200 bg-red-50 p-4 text-sm text-red-950 dark:border-red-900 dark:bg-red-950/60 dark:text-red-50"
        >
          {insights.error.message}
        </p>
      )}
      {!problem && insights.isPending && (
        <p role="status" className="py-10 text-center text-sm text-zinc-600 dark:text-zinc-400">
          Loading the figures…
        </p>
      )}
      {!problem && data && <Figures data={data} person={view.person} />}
    </div>
  );
}

function Filters({
  view,
  setView,
  creators,
  problem,
}: {
  view: InsightsView;
  setView: (next: Partial<InsightsView>) => void;
  creators: string[];
  problem: string | undefined;
}) {
  const people = view.person && !creators.includes(view.person) ? [view.person, ...creators] : creators;
  const today = new Date().toISOString().slice(0, 10);
  return (
    <div className={`${cardClass} flex flex-wrap items-end gap-x-6 gap-y-4 p-4`}>
      <fieldset>
        <legend className="mb-1.5 text-sm font-medium">Period</legend>
        <div className="flex flex-wrap gap-1">
          {PERIODS.map((period) => (
            <label
              key={period}
              className="cursor-pointer rounded-lg border border-zinc-300 px-3 py-1.5 text-sm has-checked:border-indigo-600 has-checked:bg-indigo-50 has-checked:font-medium has-checked:text-indigo-800 has-focus-visible:ring-2 has-focus-visible:ring-indigo-500 dark:border-zinc-700 dark:has-checked:border-indigo-400 dark:has-checked:bg-indigo-950 dark:has-checked:text-indigo-100"
            >
              <input
                type="radio"
                name="period"
                value={period}
                checked={view.period === period}
                onChange={() =>
                  setView(
                    period === 'custom' && !view.from
                      ? {
                          period,
                          from: new Date(Date.now() - 6 * 24 * 3600_000).toISOString().slice(0, 10),
                          to: today,
                        }
                      : { period },
                  )
                }
                className="sr-only"
              />
              {PERIOD_LABELS[period]}
            </label>
          ))}
        </div>
      </fieldset>
      {view.period === 'custom' && (
        <div className="flex flex-wrap items-end gap-3">
          <label className="text-sm font-medium">
            First day
            <input
              type="date"
              className={`${inputClass} mt-1.5 w-40`}
              value={view.from}
              max={today}
              aria-invalid={Boolean(problem)}
              aria-describedby={problem ? 'insights-period-problem' : undefined}
              onChange={(event) => setView({ from: event.target.value })}
            />
          </label>
          <label className="text-sm font-medium">
            Last day
            <input
              type="date"
              className={`${inputClass} mt-1.5 w-40`}
              value={view.to}
              aria-invalid={Boolean(problem)}
              aria-describedby={problem ? 'insights-period-problem' : undefined}
              onChange={(event) => setView({ to: event.target.value })}
            />
          </label>
        </div>
      )}
      <label className="text-sm font-medium">
        Kind
        <select
          className={`${inputClass} mt-1.5 w-48`}
          value={view.kind}
          onChange={(event) => setView({ kind: event.target.value as InsightsView['kind'] })}
        >
          <option value="all">All kinds</option>
          {TASK_TYPES.map((kind) => (
            <option key={kind} value={kind}>
              {TASK_TYPE_LABELS[kind]}
            </option>
          ))}
        </select>
      </label>
      <label className="text-sm font-medium">
        Person
        <select
          className={`${inputClass} mt-1.5 w-48`}
          value={view.person}
          onChange={(event) => setView({ person: event.target.value })}
        >
          <option value="">Everyone</option>
          {people.map((person) => (
            <option key={person} value={person}>
              {person}
            </option>
          ))}
        </select>
      </label>
      {problem && (
        <p
          id="insights-period-problem"
          role="alert"
          className="w-full text-sm font-medium text-red-700 dark:text-red-400"
        >
          {problem}
        </p>
      )}
    </div>
  );
}
