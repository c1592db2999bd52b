// The Tasks screen's further filters, behind "Filters": the period (presets and days), the creator
// (a pick list of the names in the team's record), the failure (by reason or by code, each with
// how many failed tasks of the view have it, from the server) and the review ("Changes requested").
// All of them live in the URL.
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { NO_ERROR_CODE } from '@/api/task-view/task-view-rule';
import { inputClass } from '@/components/ui/styles';
import { fetchCreators, fetchFailures, teamKeys, type TeamQuery } from '@/features/tasks/team/team-tasks';
import { dayString, type UrlFilters } from './task-url-filters';
import { PERIOD_PRESETS, presetPeriod } from './period-presets';

/** A failure without a code, in the code list and in the URL. */
const NO_CODE = NO_ERROR_CODE;

const labelClass = 'mb-1 block text-xs font-medium text-zinc-700 dark:text-zinc-300';

function Period({
  filters,
  onChange,
}: {
  filters: UrlFilters;
  onChange: (next: Partial<UrlFilters>) => void;
}) {
  const fromId = useId();
  const toId = useId();
  const today = dayString(new Date());
  return (
    <fieldset className="min-w-0">
      <legend className={labelClass}>Created</legend>
      <div className="flex flex-wrap gap-1" role="group" aria-label="Period">
        {PERIOD_PRESETS.map((preset) => {
          const { label } = preset;
          const period = presetPeriod(preset);
          const pressed = filters.from === period.from && filters.to === period.to;
          return (
            <button
              key={label}
              type="button"
              aria-pressed={pressed}
              onClick={() => onChange(pressed ? { from: undefined, to: undefined } : period)}
              className={`rounded-md border px-2 py-1 text-sm font-medium ${
                pressed
                  ? 'border-indigo-600 bg-indigo-600 text-white dark:border-indigo-500 dark:bg-indigo-500'
                  : 'border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100'
              }`}
            >
              {label}
            </button>
          );
        })}
        <button
          type="button"
          aria-pressed={!filters.from && !filters.to}
          onClick={() => onChange({ from: undefined, to: undefined })}
          className={`rounded-md border px-2 py-1 text-sm font-medium ${
            !filters.from && !filters.to
              ? 'border-indigo-600 bg-indigo-600 text-white dark:border-indigo-500 dark:bg-indigo-500'
              : 'border-zinc-300 bg-white text-zinc-800 hover:bg-zinc-50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100'
          }`}
        >
          Any time
        </button>
      </div>
      <div className="mt-2 grid grid-cols-2 gap-2">
        <div>
          <label htmlFor={fromId} className={labelClass}>
            From
          </label>
          <input
            id={fromId}
            type="date"
            value={filters.from ?? ''}
            max={filters.to ?? today}
            onChange={(event) => onChange({ from: event.target.value || undefined })}
            className={inputClass}
          />
        </div>
        <div>
          <label htmlFor={toId} className={labelClass}>
            To
          </label>
          <input
            id={toId}
            type="date"
            value={filters.to ?? ''}
            min={filters.from}
            onChange={(event) => onChange({ to: event.target.value || undefined })}
            className={inputClass}
          />
        </div>
      </div>
    </fieldset>
  );
}

function Creator({
  filters,
  onChange,
}: {
  filters: UrlFilters;
  onChange: (next: Partial<UrlFilters>) => void;
}) {
  const id = useId();
  const creators = useQuery({
    queryKey: teamKeys.creators(),
    queryFn: ({ signal }) => fetchCreators(signal),
    staleTime: 60_000,
  });
  const names = creators.data ?? [];
  // A name from a link that the list does not hold (yet) stays choosable.
  const shown = filters.creator && !names.includes(filters.creator) ? [filters.creator, ...names] : names;
  return (
    <div className="min-w-0">
      <label htmlFor={id} className={labelClass}>
        Creator
      </label>
      <select
        id={id}
        value={filters.mine ? '' : (filters.creator ?? '')}
        disabled={filters.mine}
        title={filters.mine ? '"Mine" is on' : undefined}
        onChange={(event) => onChange({ creator: event.target.value || undefined })}
        className={inputClass}
      >
        <option value="">Everyone</option>
        {shown.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
    </div>
  );
}

function Failure({
  filters,
  query,
  onChange,
}: {
  filters: UrlFilters;
  /** The view's server query: the counts are under its other filters. */
  query: TeamQuery;
  onChange: (next: Partial<UrlFilters>) => void;
}) {
  const reasonId = useId();
  const codeId = useId();
  const failures = useQuery({
    queryKey: teamKeys.failures(query),
    queryFn: ({ signal }) => fetchFailures(query, signal),
    staleTime: 15_000,
  });
  const reasons = failures.data?.reasons ?? [];
  const codes = failures.data?.codes ?? [];
  const count = (n: number) => `${n.toLocaleString()} failed`;
  return (
    <>
      <div className="min-w-0">
        <label htmlFor={reasonId} className={labelClass}>
          Error reason
        </label>
        <select
          id={reasonId}
          value={filters.reason ?? ''}
          onChange={(event) => onChange({ reason: event.target.value || undefined })}
          className={inputClass}
        >
          <option value="">Any reason</option>
          {filters.reason && !reasons.some((row) => row.reason === filters.reason) && (
            <option value={filters.reason}>{filters.reason}</option>
          )}
          {reasons.map((row) => (
            <option key={`${row.code ?? ''}\n${row.reason}`} value={row.reason}>
              {`${row.reason}${row.code ? ` (${row.code})` : ''} · ${count(row.count)}`}
            </option>
          ))}
        </select>
      </div>
      <div className="min-w-0">
        <label htmlFor={codeId} className={labelClass}>
          Error code
        </label>
        <select
          id={codeId}
          value={filters.code ?? ''}
          onChange={(event) => onChange({ code: event.target.value || undefined })}
          className={inputClass}
        >
          <option value="">Any code</option>
          {filters.code && !codes.some((row) => (row.code ?? NO_CODE) === filters.code) && (
            <option value={filters.code}>{filters.code}</option>
          )}
          {codes.map((row) => (
            <option key={row.code ?? NO_CODE} value={row.code ?? NO_CODE}>
              {`${row.code ?? 'No code'} · ${count(row.count)}`}
            </option>
          ))}
        </select>
      </div>
    </>
  );
}

/** What the team said: any, or only the results someone asked changes on (the server's filter). */
function Review({
  filters,
  onChange,
}: {
  filters: UrlFilters;
  onChange: (next: Partial<UrlFilters>) => void;
}) {
  const id = useId();
  return (
    <div className="min-w-0">
      <label htmlFor={id} className={labelClass}>
        Review
      </label>
      <select
        id={id}
        value={filters.review ?? ''}
        onChange={(event) => onChange({ review: event.target.value ? 'changes_requested' : undefined })}
        className={inputClass}
      >
        <option value="">Any review</option>
        <option value="changes_requested">Changes requested</option>
      </select>
    </div>
  );
}

export function MoreFilters({
  id,
  filters,
  query,
  onChange,
}: {
  id: string;
  filters: UrlFilters;
  query: TeamQuery;
  onChange: (next: Partial<UrlFilters>) => void;
}) {
  return (
    <div
      id={id}
      role="group"
      aria-label="More filters"
      className="grid gap-3 rounded-xl border border-zinc-200 bg-zinc-50 p-3 sm:grid-cols-2 lg:grid-cols-[minmax(0,1.4fr)_minmax(0,1fr)_minmax(0,1.4fr)_minmax(0,1fr)] dark:border-zinc-800 dark:bg-zinc-900/60"
    >
      <Period filters={filters} onChange={onChange} />
      <Creator filters={filters} onChange={onChange} />
      <Failure filters={filters} query={query} onChange={onChange} />
      <Review filters={filters} onChange={onChange} />
    </div>
  );
}
