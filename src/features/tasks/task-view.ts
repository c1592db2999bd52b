// What a task looks like on screen, derived from its history record in one place so the card, the
// detail view, the tabs and the search all agree.
import {
  IMAGE_GENERATE_DEFAULTS,
  IMAGE_RATIOS,
  VIDEO_ASPECT_RATIO_DEFAULT,
  VIDEO_ASPECT_RATIOS,
} from '@/api/rules';
import type { TaskType } from '@/api/schemas';
import { isTerminalStatus } from '@/api/status';
import type { TaskRecord } from './history';
import { isFinalPollError } from './poll-schedule';
import { mediaLink, type MediaLink } from './safe-url';

export type TaskTab = 'all' | 'running' | 'succeeded' | 'failed';
export type TaskTone = 'running' | 'succeeded' | 'failed' | 'not_found' | 'waiting' | 'blocked';

export interface TaskView {
  tone: TaskTone;
  tab: Exclude<TaskTab, 'all'>;
  /** Badge text: the service's status verbatim, or what the console knows instead. */
  label: string;
  /** The last status request failed for a transient reason; what is shown may be out of date. */
  stale: boolean;
  errorMessage?: string;
  video: MediaLink;
  image: MediaLink;
  thumbnail: MediaLink;
  caption: MediaLink;
  durationSeconds?: number;
  width?: number;
  height?: number;
  name?: string;
  language?: string;
  prompt?: string;
  /** The request's title: the prompt, else the output name, else the uploaded file's name. */
  title?: string;
  /**
   * What people call the task: the title, with the language first for a translation ("Japanese -
   * All-hands recap"); undefined when nothing names it (a task looked up by id).
   */
  heading?: string;
}

const TRANSIENT = new Set(['network', 'server', 'rate_limit']);

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value : undefined);
const num = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

function paramsOf(record: TaskRecord): Record<string, unknown> {
  return record.params && typeof record.params === 'object' ? (record.params as Record<string, unknown>) : {};
}

const oneOf = <T extends string>(allowed: readonly T[], value: unknown, fallback: T): T | undefined =>
  value === undefined ? fallback : allowed.find((item) => item === value);

/**
 * The ratio ('9:16') a task asked its image or video to have, or the service's default when its
 * request left it out; undefined when the request is not known (a task looked up by id) or says
 * nothing of it (translations keep their video's own shape).
 */
export function requestedRatio(record: TaskRecord): string | undefined {
  if (record.params === undefined) return undefined;
  const params = paramsOf(record);
  if (record.kind === 'image_generate')
    return oneOf(IMAGE_RATIOS, params.image_ratio, IMAGE_GENERATE_DEFAULTS.image_ratio);
  if (record.kind === 'image_to_video')
    return oneOf(VIDEO_ASPECT_RATIOS, params.aspect_ratio, VIDEO_ASPECT_RATIO_DEFAULT);
  return undefined;
}

/** The result's own shape (CSS aspect-ratio) when the service gave its width and height. */
export const ownAspectRatio = (view: TaskView): string | undefined =>
  view.width && view.height ? `${view.width} / ${view.height}` : undefined;

/** The shape of a task's result (CSS aspect-ratio): its own size when the service gave it, else the ratio asked for. */
export function resultAspectRatio(record: TaskRecord, view: TaskView): string | undefined {
  return ownAspectRatio(view) ?? requestedRatio(record)?.replace(':', ' / ');
}

function toneOf(record: TaskRecord): TaskTone {
  if (record.status === 'SUCCEEDED') return 'succeeded';
  if (record.status === 'FAILED') return 'failed';
  const kind = record.lastError?.kind;
  if (kind === 'not_found') return 'not_found';
  if (kind === 'unavailable') return 'waiting';
  if (kind && isFinalPollError(kind)) return 'blocked';
  return 'running';
}

/** The status tab of a task; cheap (no URL parsing), for counting 10,000 tasks per keystroke. */
export function tabOf(record: TaskRecord): Exclude<TaskTab, 'all'> {
  const tone = toneOf(record);
  return tone === 'succeeded'
    ? 'succeeded'
    : tone === 'failed' || tone === 'not_found'
      ? 'failed'
      : 'running';
}

export function describeTask(record: TaskRecord): TaskView {
  const result = record.result ?? {};
  const params = paramsOf(record);
  const error = record.lastError;
  const terminal = isTerminalStatus(record.status);
  const tone = toneOf(record);
  const label =
    tone === 'not_found'
      ? 'Not found'
      : tone === 'waiting'
        ? record.status || 'Waiting for callback'
        : tone === 'blocked'
          ? record.status || 'Cannot check'
          : record.status || 'Checking…';
  const tab = tabOf(record);
  return {
    tone,
    tab,
    label,
    stale: Boolean(error && TRANSIENT.has(error.kind) && !terminal),
    errorMessage: text(result.error_message),
    video: mediaLink(result.video_url),
    image: mediaLink(result.image_url),
    thumbnail: mediaLink(result.thumbnail_url),
    caption: mediaLink(result.caption_url),
    durationSeconds: num(result.duration),
    width: num(result.width),
    height: num(result.height),
    name: text(result.name) ?? text(params.name),
    language: record.language ?? text(result.language),
    prompt: text(params.prompt),
    ...titles(record, params, record.language ?? text(result.language)),
  };
}

/** The request's title and the task's heading (see TaskView). */
function titles(
  record: TaskRecord & { title?: string; prompt?: string },
  params: Record<string, unknown>,
  language: string | undefined,
): Pick<TaskView, 'title' | 'heading'> {
  const title =
    text(record.title) ??
    text(params.prompt) ??
    text(record.prompt) ??
    text(params.name) ??
    text(record.files?.[0]?.name);
  if (!title) return {};
  return { title, heading: record.kind === 'video_translate' && language ? `${language} - ${title}` : title };
}

const views = new WeakMap<TaskRecord, TaskView>();
/** Records are immutable, so their view is computed once per version. */
export function viewOf(record: TaskRecord): TaskView {
  let view = views.get(record);
  if (!view) views.set(record, (view = describeTask(record)));
  return view;
}

const haystacks = new WeakMap<TaskRecord, string>();
export function matchesSearch(record: TaskRecord, query: string): boolean {
  if (!query) return true;
  let hay = haystacks.get(record);
  if (!hay) {
    const view = viewOf(record);
    hay = [record.id, view.prompt, view.name, view.language, record.status]
      .filter(Boolean)
      .join('\n')
      .toLowerCase();
    haystacks.set(record, hay);
  }
  return hay.includes(query);
}

export interface TaskFilters {
  tab: TaskTab;
  kind: TaskType | 'all';
  search: string;
}

/**
 * The gallery's filtering: the kind filter and the search narrow the tasks, the tab counts are taken
 * over what is left (so each tab says how many it would show), and the tab picks the tasks shown.
 */
export function filterTasks(tasks: readonly TaskRecord[], filters: TaskFilters) {
  const query = filters.search.trim().toLowerCase();
  const counts: Record<TaskTab, number> = { all: 0, running: 0, succeeded: 0, failed: 0 };
  const shown: TaskRecord[] = [];
  for (const task of tasks) {
    if (filters.kind !== 'all' && task.kind !== filters.kind) continue;
    if (!matchesSearch(task, query)) continue;
    const tab = tabOf(task);
    counts.all++;
    counts[tab]++;
    if (filters.tab === 'all' || filters.tab === tab) shown.push(task);
  }
  return { counts, shown };
}
