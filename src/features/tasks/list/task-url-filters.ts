// The Tasks screen's filters live in the URL (`/tasks?tab=failed&kind=image_generate&q=cat&mine=1`,
// and `from`/`to` days, `creator`, `code`, `reason`, `sort`, `view`, `hidden=show`, `starred=only`), so a support link opens the
// same view and reload, back and forward keep it. Anything the URL holds that is not a valid value
// falls back to the default instead of breaking the screen. `by=task|request` is the gallery's
// grouping, when chosen (else this browser's last choice).
import { TASK_TYPES, type TaskType } from '@/api/core/rules';
import { TASK_SORTS, type TaskSort } from '@/api/task-view/task-view-rule';
import type { GalleryMode } from '@/features/tasks/requests/request-groups';
import type { TaskTab } from '@/features/tasks/shared/task-view';

export type TasksLayout = 'gallery' | 'table';

export interface UrlFilters {
  tab: TaskTab;
  kind: TaskType | 'all';
  search: string;
  /** Only the tasks whose creator is this browser's (or the session's) name. */
  mine: boolean;
  /** One card per request or per task, when the URL says (else ./gallery-mode.ts's stored choice). */
  by?: GalleryMode;
  /** Created on or after this day, on or before `to` (YYYY-MM-DD, this browser's days). */
  from?: string;
  to?: string;
  /** Created by this person (a name from the team's record). */
  creator?: string;
  /** Failed with this error code, or this reason (as the server groups them). */
  code?: string;
  reason?: string;
  /** Another order than newest first. */
  sort?: Exclude<TaskSort, 'newest'>;
  /** The table instead of the gallery. */
  view?: 'table';
  /** With the tasks I hid from my view ("Show hidden"). */
  hidden?: 'show';
  /** Only the results I starred (the Starred view). */
  starred?: 'only';
  /** Only the results someone asked changes on. */
  review?: 'changes_requested';
}

export const DEFAULT_FILTERS: UrlFilters = { tab: 'all', kind: 'all', search: '', mine: false };
/** The filters' reset: the default, each optional filter cleared (the grouping and layout kept). */
export const CLEARED_FILTERS: Partial<UrlFilters> = {
  ...DEFAULT_FILTERS,
  from: undefined,
  to: undefined,
  creator: undefined,
  code: undefined,
  reason: undefined,
  starred: undefined,
  review: undefined,
};
const TABS: readonly string[] = ['all', 'running', 'succeeded', 'failed'];
/** The server reads at most 200 characters of a search. */
const SEARCH_MAX = 200;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const dayOf = (value: string | null) =>
  value && DAY.test(value) && !Number.isNaN(Date.parse(value)) ? value : undefined;
const textOf = (value: string | null, max: number) => (value ? value.slice(0, max) : undefined);

export function parseFilters(search: string): UrlFilters {
  const params = new URLSearchParams(search);
  const tab = params.get('tab') ?? '';
  const kind = params.get('kind') ?? '';
  const sort = params.get('sort') ?? '';
  const optional = {
    from: dayOf(params.get('from')),
    to: dayOf(params.get('to')),
    creator: textOf(params.get('creator'), 80),
    code: textOf(params.get('code'), 40),
    reason: textOf(params.get('reason'), 500),
    sort:
      sort !== 'newest' && (TASK_SORTS as readonly string[]).includes(sort)
        ? (sort as UrlFilters['sort'])
        : undefined,
    view: params.get('view') === 'table' ? ('table' as const) : undefined,
    hidden: params.get('hidden') === 'show' ? ('show' as const) : undefined,
    starred: params.get('starred') === 'only' ? ('only' as const) : undefined,
    review: params.get('review') === 'changes_requested' ? ('changes_requested' as const) : undefined,
  };
  return {
    tab: TABS.includes(tab) ? (tab as TaskTab) : 'all',
    kind: (TASK_TYPES as readonly string[]).includes(kind) ? (kind as TaskType) : 'all',
    search: (params.get('q') ?? '').slice(0, SEARCH_MAX),
    mine: params.get('mine') === '1',
    ...(params.get('by') === 'task' || params.get('by') === 'request'
      ? { by: params.get('by') as GalleryMode }
      : {}),
    ...Object.fromEntries(Object.entries(optional).filter(([, value]) => value !== undefined)),
  };
}

/** The query string for these filters, defaults left out (`''` for the plain screen). */
export function serializeFilters(filters: UrlFilters): string {
  const params = new URLSearchParams();
  if (filters.tab !== 'all') params.set('tab', filters.tab);
  if (filters.kind !== 'all') params.set('kind', filters.kind);
  if (filters.search.trim()) params.set('q', filters.search.trim());
  if (filters.mine) params.set('mine', '1');
  if (filters.by) params.set('by', filters.by);
  for (const key of [
    'from',
    'to',
    'creator',
    'code',
    'reason',
    'sort',
    'view',
    'hidden',
    'starred',
    'review',
  ] as const) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const isFiltered = (filters: UrlFilters) =>
  filters.tab !== 'all' ||
  filters.kind !== 'all' ||
  filters.search.trim() !== '' ||
  filters.mine ||
  Boolean(filters.starred || filters.review) ||
  Boolean(filters.from || filters.to || filters.creator || filters.code || filters.reason);

/** A day (YYYY-MM-DD) in this browser's time zone, `days` after `at`. */
export function dayString(at: Date, days = 0): string {
  const day = new Date(at.getFullYear(), at.getMonth(), at.getDate() + days);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}`;
}

/** The start of a day (YYYY-MM-DD) in this browser's time zone, in epoch ms. */
function startOfDay(day: string, plusDays = 0): number {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d + plusDays).getTime();
}

/** The period as the server takes it: from the start of `from` to the end of `to` (epoch ms). */
export function periodOf(filters: Pick<UrlFilters, 'from' | 'to'>): { from?: number; to?: number } {
  return {
    ...(filters.from && { from: startOfDay(filters.from) }),
    ...(filters.to && { to: startOfDay(filters.to, 1) }),
  };
}
