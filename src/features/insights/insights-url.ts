// The Insights screen's choices live in the URL (`/insights?period=30d&kind=image_generate&person=Ana`,
// `/insights?period=custom&from=2026-03-01&to=2026-03-10`), so a link opens the same view and reload,
// back and forward keep it. Anything invalid falls back to the default instead of breaking the screen.
import { TASK_TYPES, type TaskType } from '@/api/schemas';

export const PERIODS = ['24h', '7d', '30d', 'custom'] as const;
export type Period = (typeof PERIODS)[number];
export const PERIOD_LABELS: Record<Period, string> = {
  '24h': '24 hours',
  '7d': '7 days',
  '30d': '30 days',
  custom: 'Custom',
};
const PERIOD_MS: Record<Exclude<Period, 'custom'>, number> = {
  '24h': 24 * 3600_000,
  '7d': 7 * 24 * 3600_000,
  '30d': 30 * 24 * 3600_000,
};
const DAY_MS = 24 * 3600_000;

export interface InsightsView {
  period: Period;
  /** Custom period: first and last day (UTC, YYYY-MM-DD), both included. */
  from: string;
  to: string;
  kind: TaskType | 'all';
  person: string;
}

export const DEFAULT_VIEW: InsightsView = { period: '7d', from: '', to: '', kind: 'all', person: '' };
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (value: string) => DAY.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`));

export function parseView(search: string): InsightsView {
  const params = new URLSearchParams(search);
  const period = params.get('period') ?? '';
  const kind = params.get('kind') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  return {
    period: (PERIODS as readonly string[]).includes(period) ? (period as Period) : DEFAULT_VIEW.period,
    from: isDay(from) ? from : '',
    to: isDay(to) ? to : '',
    kind: (TASK_TYPES as readonly string[]).includes(kind) ? (kind as TaskType) : 'all',
    person: (params.get('person') ?? '').trim().slice(0, 80),
  };
}

export function serializeView(view: InsightsView): string {
  const params = new URLSearchParams();
  if (view.period !== DEFAULT_VIEW.period) params.set('period', view.period);
  if (view.period === 'custom') {
    if (view.from) params.set('from', view.from);
    if (view.to) params.set('to', view.to);
  }
  if (view.kind !== 'all') params.set('kind', view.kind);
  if (view.person) params.set('person', view.person);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** A custom period's problem in words, or undefined when it can be asked for. */
export function customPeriodProblem(view: InsightsView): string | undefined {
  if (view.period !== 'custom') return undefined;
  if (!view.from || !view.to) return 'Choose the first and the last day of the period.';
  if (view.from > view.to) return 'The first day must not be after the last day.';
  const days = (Date.parse(view.to) - Date.parse(view.from)) / DAY_MS + 1;
  if (days > 366) return 'A period can cover at most 366 days.';
  return undefined;
}

/** The server's query (`from`, `to` as ISO instants, `kind`, `creator`) for this view at `now`. */
export function apiQuery(view: InsightsView, now: number): string {
  const params = new URLSearchParams();
  if (view.period === 'custom') {
    params.set('from', `${view.from}T00:00:00Z`);
    params.set('to', new Date(Date.parse(`${view.to}T00:00:00Z`) + DAY_MS).toISOString());
  } else {
    params.set('from', new Date(now - PERIOD_MS[view.period]).toISOString());
    params.set('to', new Date(now).toISOString());
  }
  if (view.kind !== 'all') params.set('kind', view.kind);
  if (view.person) params.set('creator', view.person);
  return params.toString();
}

/** The Tasks screen's failed tab for one kind (and the person, through its search). */
export function failedTasksHref(kind: string, person: string): string {
  const params = new URLSearchParams({ tab: 'failed' });
  if ((TASK_TYPES as readonly string[]).includes(kind)) params.set('kind', kind);
  if (person) params.set('q', person);
  return `/tasks?${params.toString()}`;
}
