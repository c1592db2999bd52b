// The Insights screen: how the team is doing over a period (24 hours, 7 or 30 days, or custom days),
// optionally for one kind and one person. The figures come from the server's database
// (GET /__console/insights); the choices live in the URL; the figures are read again as tasks
// change (the server's task event stream). Charts load with this screen only (./chart.tsx).
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useMemo, type ReactNode } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import { QueryProvider } from '@/api/query/query-client';
import { TASK_TYPES, type TaskType } from '@/api/schemas';
import { TASK_TYPE_LABELS } from '@/api/query/task-types';
import { cardClass, hintClass, inputClass } from '@/components/ui/styles';
import { fetchInsights, fillBuckets, formatRate, formatSeconds, type InsightsData } from './insights-api';
import {
  apiQuery,
  customPeriodProblem,
  failedTasksHref,
  parseView,
  PERIOD_LABELS,
  PERIODS,
  serializeView,
  type InsightsView,
} from './insights-url';

const Chart = lazy(() => import('./chart').then((m) => ({ default: m.Chart })));

export function InsightsScreen() {
  return (
    <QueryProvider>
      <InsightsScreenContent />
    </QueryProvider>
  );
}

const kindLabel = (kind: string) => TASK_TYPE_LABELS[kind as TaskType] ?? kind;
const personLabel = (creator: string | null) => creator ?? 'No name';
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

function Section({
  title,
  id,
  children,
  hint,
}: {
  title: string;
  id: string;
  children: ReactNode;
  hint?: string;
}) {
  return (
    <section aria-labelledby={id} className={`${cardClass} min-w-0 p-4`}>
      <h2 id={id} className="text-base font-semibold">
        {title}
      </h2>
      {hint && <p className={`${hintClass} mt-0.5`}>{hint}</p>}
      <div className="mt-3">{children}</div>
    </section>
  );
}

const th = 'border-b border-zinc-200 px-2 py-1.5 text-left font-medium dark:border-zinc-700';
const td = 'border-b border-zinc-100 px-2 py-1.5 dark:border-zinc-800';
const num = `${td} text-right tabular-nums`;
const thNum = `${th} text-right`;

/** A table's header row: text columns left, numeric ones (`true`) right-aligned. */
function ColumnHeads({ columns }: { columns: [label: string, numeric?: boolean][] }) {
  return (
    <thead>
      <tr>
        {columns.map(([label, numeric]) => (
          <th key={label} scope="col" className={numeric ? thNum : th}>
            {label}
          </th>
        ))}
      </tr>
    </thead>
  );
}

function Table({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    // Focusable, so a keyboard can scroll a table wider than a phone.
    <div
      tabIndex={0}
      className="overflow-x-auto rounded focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:outline-none"
    >
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

/** A chart with its figures as a table, folded under it. */
function ChartWithTable({ chart, table }: { chart: ReactNode; table: ReactNode }) {
  return (
    <>
      <Suspense fallback={<div className="h-[244px]" />}>{chart}</Suspense>
      <details className="mt-3">
        <summary className="cursor-pointer text-sm font-medium text-indigo-700 dark:text-indigo-300">
          Show as a table
        </summary>
        <div className="mt-2">{table}</div>
      </details>
    </>
  );
}

function Tile({ label, value, detail }: { label: string; value: string; detail?: string }) {
  return (
    <div className={`${cardClass} p-4`}>
      <dt className="text-sm text-zinc-600 dark:text-zinc-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums">{value}</dd>
      {detail && <dd className={hintClass}>{detail}</dd>}
    </div>
  );
}

const OUTCOMES = [
  ['succeeded', 'Succeeded', 2],
  ['failed', 'Failed', 1],
  ['running', 'In progress', 0],
] as const;

function bucketText(at: number, bucket: 'hour' | 'day') {
  const iso = new Date(at).toISOString();
  return bucket === 'hour' ? `${iso.slice(0, 10)} ${iso.slice(11, 16)}` : iso.slice(0, 10);
}

interface Series {
  label: string;
  color: number;
  values: number[];
}

/** Tasks created per hour or day, split by outcome or by kind: a chart, with its figures as a table. */
function OverTimeSection({
  by,
  series,
  x,
  rows,
  bucket,
}: {
  by: 'outcome' | 'kind';
  series: Series[];
  x: number[];
  rows: { at: number; i: number }[];
  bucket: 'hour' | 'day';
}) {
  const unit = bucket === 'hour' ? 'hour' : 'day';
  return (
    <Section
      title={`Tasks over time by ${by}`}
      id={`insights-${by}`}
      hint={`Tasks created per ${unit} (UTC)`}
    >
      <ChartWithTable
        chart={
          <Chart
            label={`Line chart: tasks created per ${unit} by ${by}. The table below has the figures.`}
            x={x}
            series={series}
          />
        }
        table={
          <Table caption={`Tasks created per ${unit} by ${by}`}>
            <thead>
              <tr>
                <th scope="col" className={th}>
                  {unit === 'hour' ? 'Hour (UTC)' : 'Day (UTC)'}
                </th>
                {series.map((s) => (
                  <th key={s.label} scope="col" className={thNum}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map(({ at, i }) => (
                <tr key={at}>
                  <th scope="row" className={`${td} text-left font-normal`}>
                    {bucketText(at, bucket)}
                  </th>
                  {series.map((s) => (
                    <td key={s.label} className={num}>
                      {s.values[i]}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </Table>
        }
      />
    </Section>
  );
}

function Figures({ data, person }: { data: InsightsData; person: string }) {
  const filled = useMemo(() => fillBuckets(data), [data]);
  const seconds = useMemo(() => filled.at.map((t) => t / 1000), [filled]);
  const outcomeSeries = useMemo(
    () => OUTCOMES.map(([key, label, color]) => ({ label, color, values: filled.byOutcome[key] })),
    [filled],
  );
  const kindSeries = useMemo(
    () =>
      TASK_TYPES.filter((kind) => filled.byKind.has(kind)).map((kind) => ({
        label: TASK_TYPE_LABELS[kind],
        color: TASK_TYPES.indexOf(kind) === 2 ? 3 : TASK_TYPES.indexOf(kind),
        values: filled.byKind.get(kind)!,
      })),
    [filled],
  );
  const hoursX = useMemo(() => data.busiestHours.map((h) => h.hour), [data]);
  const hoursSeries = useMemo(
    () => [{ label: 'Tasks created', color: 0, values: data.busiestHours.map((h) => h.tasks) }],
    [data],
  );
  const busiest = [...data.busiestHours].sort((a, b) => b.tasks - a.tasks)[0];
  const shownRows = filled.at
    .map((at, i) => ({ at, i }))
    .filter(
      ({ i }) =>
        filled.byOutcome.succeeded[i]! + filled.byOutcome.failed[i]! + filled.byOutcome.running[i]! > 0,
    );
  const { totals } = data;

  return (
    <>
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Tile label="Tasks created" value={totals.created.toLocaleString('en')} />
        <Tile
          label="Success rate"
          value={formatRate(totals.successRate)}
          detail={`of ${(totals.succeeded + totals.failed).toLocaleString('en')} finished`}
        />
        <Tile label="Failed" value={totals.failed.toLocaleString('en')} />
        <Tile label="In progress" value={totals.running.toLocaleString('en')} />
      </dl>
      {totals.created === 0 ? (
        <p className={`${cardClass} p-6 text-center text-sm text-zinc-600 dark:text-zinc-400`}>
          No tasks were created in this period{person ? ` by ${person}` : ''}.
        </p>
      ) : (
        <>
          <div className="grid gap-4 lg:grid-cols-2">
            <OverTimeSection
              by="outcome"
              series={outcomeSeries}
              x={seconds}
              rows={shownRows}
              bucket={data.period.bucket}
            />
            <OverTimeSection
              by="kind"
              series={kindSeries}
              x={seconds}
              rows={shownRows}
              bucket={data.period.bucket}
            />
          </div>
          <div className="grid gap-4 lg:grid-cols-2">
            <Section
              title="Time to finish"
              id="insights-durations"
              hint="From creation to success or failure"
            >
              <Table caption="Time to finish per kind">
                <ColumnHeads
                  columns={[
                    ['Kind'],
                    ['Finished', true],
                    ['Typical (p50)', true],
                    ['Slowest 5 % (p95)', true],
                  ]}
                />
                <tbody>
                  {data.durations.map((row) => (
                    <tr key={row.kind}>
                      <th scope="row" className={`${td} text-left font-normal`}>
                        {kindLabel(row.kind)}
                      </th>
                      <td className={num}>{row.finished.toLocaleString('en')}</td>
                      <td className={num}>{formatSeconds(row.p50Seconds)}</td>
                      <td className={num}>{formatSeconds(row.p95Seconds)}</td>
                    </tr>
                  ))}
                  {data.durations.length === 0 && (
                    <tr>
                      <td colSpan={4} className={`${td} text-zinc-600 dark:text-zinc-400`}>
                        No task has finished yet.
                      </td>
                    </tr>
                  )}
                </tbody>
              </Table>
            </Section>
            <Section
              title="Busiest hours"
              id="insights-hours"
              hint={
                busiest && busiest.tasks > 0
                  ? `Most tasks are created at ${String(busiest.hour).padStart(2, '0')}:00 UTC`
                  : undefined
              }
            >
              <ChartWithTable
                chart={
                  <Chart
                    label="Bar chart: tasks created in each hour of the day (UTC). The table below has the figures."
                    x={hoursX}
                    series={hoursSeries}
                    bars
                    timeAxis={false}
                    xLabel={hourLabel}
                  />
                }
                table={
                  <Table caption="Tasks created in each hour of the day (UTC)">
                    <ColumnHeads columns={[['Hour (UTC)'], ['Tasks created', true]]} />
                    <tbody>
                      {data.busiestHours.map((row) => (
                        <tr key={row.hour}>
                          <th scope="row" className={`${td} text-left font-normal`}>
                            {hourLabel(row.hour)}
                          </th>
                          <td className={num}>{row.tasks}</td>
                        </tr>
                      ))}
                    </tbody>
                  </Table>
                }
              />
            </Section>
          </div>
          <Section
            title="Failures by reason"
            id="insights-failures"
            hint="Each opens the failed tasks of that kind on the Tasks screen"
          >
            {data.failures.length === 0 ? (
              <p className="text-sm text-zinc-600 dark:text-zinc-400">No task failed in this period.</p>
            ) : (
              <Table caption="Failures grouped by error code and reason">
                <ColumnHeads columns={[['Reason'], ['Code'], ['Kind'], ['Tasks', true]]} />
                <tbody>
                  {data.failures.map((row) => (
                    <tr key={`${row.kind} ${row.code} ${row.reason}`}>
                      <th scope="row" className={`${td} text-left font-normal`}>
                        <Link
                          href={failedTasksHref(row.kind, person)}
                          className="text-indigo-700 underline decoration-indigo-300 underline-offset-2 hover:decoration-2 dark:text-indigo-300 dark:decoration-indigo-700"
                        >
                          {row.reason}
                        </Link>
                      </th>
                      <td className={`${td} tabular-nums`}>{row.code ?? '—'}</td>
                      <td className={td}>{kindLabel(row.kind)}</td>
                      <td className={num}>{row.count.toLocaleString('en')}</td>
                    </tr>
                  ))}
                </tbody>
              </Table>
            )}
          </Section>
          <Section
            title="Per person"
            id="insights-people"
            hint="Images: image generation tasks that succeeded; video minutes: image-to-video results"
          >
            <Table caption="Usage per person">
              <ColumnHeads
                columns={[
                  ['Person'],
                  ['Tasks', true],
                  ['Succeeded', true],
                  ['Failed', true],
                  ['Images', true],
                  ['Video minutes', true],
                  ['Languages'],
                ]}
              />
              <tbody>
                {data.people.map((row) => (
                  <tr key={row.creatorId ?? `name:${row.creator ?? ''}`}>
                    <th scope="row" className={`${td} text-left font-normal`}>
                      {personLabel(row.creator)}
                    </th>
                    <td className={num}>{row.tasks.toLocaleString('en')}</td>
                    <td className={num}>{row.succeeded.toLocaleString('en')}</td>
                    <td className={num}>{row.failed.toLocaleString('en')}</td>
                    <td className={num}>{row.images.toLocaleString('en')}</td>
                    <td className={num}>{row.videoMinutes.toLocaleString('en')}</td>
                    <td className={td}>{row.languages.join(', ') || '—'}</td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </Section>
        </>
      )}
    </>
  );
}

const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
