// The Insights screen's figures for one period: the totals, the charts over time with their tables,
// time to finish, busiest hours, failures by reason and the people. Charts load with this screen only
// (./chart.tsx); every chart has its figures in a table beside it.
import { lazy, Suspense, useMemo, type ReactNode } from 'react';
import { Link } from 'wouter';
import { TASK_TYPES, type TaskType } from '@/api/schemas';
import { TASK_TYPE_LABELS } from '@/api/query/task-types';
import { cardClass, hintClass } from '@/components/ui/styles';
import { fillBuckets, formatRate, formatSeconds, type InsightsData } from './insights-api';
import { failedTasksHref } from './insights-url';

const Chart = lazy(() => import('./chart').then((m) => ({ default: m.Chart })));

const kindLabel = (kind: string) => TASK_TYPE_LABELS[kind as TaskType] ?? kind;
const personLabel = (creator: string | null) => creator ?? 'No name';

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

export function Figures({ data, person }: { data: InsightsData; person: string }) {
  const { totals } = data;
  return (
    <>
      <TotalTiles totals={totals} />
      {totals.created === 0 ? (
        <p className={`${cardClass} p-6 text-center text-sm text-zinc-600 dark:text-zinc-400`}>
          No tasks were created in this period{person ? ` by ${person}` : ''}.
        </p>
      ) : (
        <>
          <OverTime data={data} />
          <div className="grid gap-4 lg:grid-cols-2">
            <DurationsSection durations={data.durations} />
            <BusiestHoursSection hours={data.busiestHours} />
          </div>
          <FailuresSection failures={data.failures} person={person} />
          <PeopleSection people={data.people} />
        </>
      )}
    </>
  );
}

function TotalTiles({ totals }: { totals: InsightsData['totals'] }) {
  return (
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
  );
}

/** The period's tasks by outcome and by kind, bucket by bucket, each a chart with its table. */
function OverTime({ data }: { data: InsightsData }) {
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
  const shownRows = filled.at
    .map((at, i) => ({ at, i }))
    .filter(
      ({ i }) =>
        filled.byOutcome.succeeded[i]! + filled.byOutcome.failed[i]! + filled.byOutcome.running[i]! > 0,
    );
  return (
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
  );
}

function DurationsSection({ durations }: { durations: InsightsData['durations'] }) {
  return (
    <Section title="Time to finish" id="insights-durations" hint="From creation to success or failure">
      <Table caption="Time to finish per kind">
        <ColumnHeads
          columns={[['Kind'], ['Finished', true], ['Typical (p50)', true], ['Slowest 5 % (p95)', true]]}
        />
        <tbody>
          {durations.map((row) => (
            <tr key={row.kind}>
              <th scope="row" className={`${td} text-left font-normal`}>
                {kindLabel(row.kind)}
              </th>
              <td className={num}>{row.finished.toLocaleString('en')}</td>
              <td className={num}>{formatSeconds(row.p50Seconds)}</td>
              <td className={num}>{formatSeconds(row.p95Seconds)}</td>
            </tr>
          ))}
          {durations.length === 0 && (
            <tr>
              <td colSpan={4} className={`${td} text-zinc-600 dark:text-zinc-400`}>
                No task has finished yet.
              </td>
            </tr>
          )}
        </tbody>
      </Table>
    </Section>
  );
}

function BusiestHoursSection({ hours }: { hours: InsightsData['busiestHours'] }) {
  const x = useMemo(() => hours.map((h) => h.hour), [hours]);
  const series = useMemo(
    () => [{ label: 'Tasks created', color: 0, values: hours.map((h) => h.tasks) }],
    [hours],
  );
  const busiest = [...hours].sort((a, b) => b.tasks - a.tasks)[0];
  return (
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
            x={x}
            series={series}
            bars
            timeAxis={false}
            xLabel={hourLabel}
          />
        }
        table={
          <Table caption="Tasks created in each hour of the day (UTC)">
            <ColumnHeads columns={[['Hour (UTC)'], ['Tasks created', true]]} />
            <tbody>
              {hours.map((row) => (
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
  );
}

function FailuresSection({ failures, person }: { failures: InsightsData['failures']; person: string }) {
  return (
    <Section
      title="Failures by reason"
      id="insights-failures"
      hint="Each opens the failed tasks of that kind on the Tasks screen"
    >
      {failures.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">No task failed in this period.</p>
      ) : (
        <Table caption="Failures grouped by error code and reason">
          <ColumnHeads columns={[['Reason'], ['Code'], ['Kind'], ['Tasks', true]]} />
          <tbody>
            {failures.map((row) => (
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
  );
}

function PeopleSection({ people }: { people: InsightsData['people'] }) {
  return (
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
          {people.map((row) => (
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
  );
}

const hourLabel = (hour: number) => `${String(hour).padStart(2, '0')}:00`;
