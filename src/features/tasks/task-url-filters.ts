// The Tasks screen's filters live in the URL (`/tasks?tab=failed&kind=image_generate&q=cat&mine=1`),
// so a support link opens the same view and reload, back and forward keep it. Anything the URL
// holds that is not a valid value falls back to the default instead of breaking the screen.
// `by=task|request` is the gallery's grouping, when chosen (else this browser's last choice).
import { TASK_TYPES, type TaskType } from '@/api/rules';
import type { GalleryMode } from './request-groups';
import type { TaskTab } from './task-view';

export interface UrlFilters {
  tab: TaskTab;
  kind: TaskType | 'all';
  search: string;
  /** Only the tasks whose creator is this browser's (or the session's) name. */
  mine: boolean;
  /** One card per request or per task, when the URL says (else ./gallery-mode.ts's stored choice). */
  by?: GalleryMode;
}

export const DEFAULT_FILTERS: UrlFilters = { tab: 'all', kind: 'all', search: '', mine: false };
const TABS: readonly string[] = ['all', 'running', 'succeeded', 'failed'];
/** The server reads at most 200 characters of a search. */
const SEARCH_MAX = 200;

export function parseFilters(search: string): UrlFilters {
  const params = new URLSearchParams(search);
  const tab = params.get('tab') ?? '';
  const kind = params.get('kind') ?? '';
  return {
    tab: TABS.includes(tab) ? (tab as TaskTab) : 'all',
    kind: (TASK_TYPES as readonly string[]).includes(kind) ? (kind as TaskType) : 'all',
    search: (params.get('q') ?? '').slice(0, SEARCH_MAX),
    mine: params.get('mine') === '1',
    ...(params.get('by') === 'task' || params.get('by') === 'request'
      ? { by: params.get('by') as GalleryMode }
      : {}),
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
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const isFiltered = (filters: UrlFilters) =>
  filters.tab !== 'all' || filters.kind !== 'all' || filters.search.trim() !== '' || filters.mine;
