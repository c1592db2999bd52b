// What a task looks like on screen, derived from its history record in one place so the card, the
// detail view, the tabs and the search all agree.
import {
  IMAGE_GENERATE_DEFAULTS,
  IMAGE_RATIOS,
  VIDEO_ASPECT_RATIO_DEFAULT,
  VIDEO_ASPECT_RATIOS,
} from '@/api/core/rules';
import { isTerminalStatus } from '@/api/status';
import {
  matchesView,
  phaseOf,
  searchTextOf,
  viewedFields,
  type TaskTab,
  type TaskViewQuery,
  type ViewedTask,
} from '@/api/task-view/task-view-rule';
import type { DownloadNameInput } from '@/api/download-name';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { isFinalPollError } from '@/api/core/follow-schedule';
import { keptUrl } from './result-copies';
import { mediaLink, type MediaLink } from './safe-url';

export type { TaskTab };
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
  // The tab by the one view rule (src/api/task-view/task-view-rule.ts): the status alone decides, as on the
  // server, so a task the service no longer finds stays in progress (its card says "Not found").
  const tab = phaseOf(record.status);
  return {
    tone,
    tab,
    label,
    stale: Boolean(error && TRANSIENT.has(error.kind) && !terminal),
    errorMessage: text(result.error_message),
    // A kept copy (the team's storage, same origin) before the service's link, which expires.
    video: mediaLink(keptUrl(record.copies, 'video') ?? result.video_url),
    image: mediaLink(keptUrl(record.copies, 'image') ?? result.image_url),
    thumbnail: mediaLink(keptUrl(record.copies, 'thumbnail') ?? result.thumbnail_url),
    caption: mediaLink(keptUrl(record.copies, 'caption') ?? result.caption_url),
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

/** What a task's downloads are named from: its request's title, prompt or name, its place in the request. */
export function downloadSubject(
  record: TaskRecord & { batch?: readonly string[] },
  view: TaskView,
  batch: readonly string[] | null | undefined = record.batch,
): DownloadNameInput {
  return {
    id: record.id,
    kind: record.kind,
    prompt: view.prompt,
    name: view.name,
    language: view.language,
    title: view.title,
    batch,
  };
}

const views = new WeakMap<TaskRecord, TaskView>();
/** Records are immutable, so their view is computed once per version. */
export function viewOf(record: TaskRecord): TaskView {
  let view = views.get(record);
  if (!view) views.set(record, (view = describeTask(record)));
  return view;
}

/**
 * A record of this browser's history as the view rule reads it. The history holds no creator: the
 * tasks this browser created are taken as made by `me` (offline, "Mine" is what this browser made).
 */
function offlineViewed(record: TaskRecord, me: string | undefined): ViewedTask {
  return viewedFields({ ...record, creator: record.source === 'created' ? me : undefined });
}

/** Records are immutable: each version's fields and search text are read once per name. */
const viewed = new WeakMap<TaskRecord, { me: string | undefined; task: ViewedTask }>();
const texts = new WeakMap<ViewedTask, string>();
const cachedText = (task: ViewedTask) => {
  let text = texts.get(task);
  if (text === undefined) texts.set(task, (text = searchTextOf(task)));
  return text;
};

function viewedOnce(record: TaskRecord, me: string | undefined): ViewedTask {
  let entry = viewed.get(record);
  if (!entry || entry.me !== me) viewed.set(record, (entry = { me, task: offlineViewed(record, me) }));
  return entry.task;
}

/**
 * The offline view: this browser's history through the same rule as the server's list (kind,
 * creator, search); the tab counts are taken over what that leaves (so each tab says how many it
 * would show), and the tab picks the tasks shown.
 */
export function filterTasks(tasks: readonly TaskRecord[], query: TaskViewQuery, me?: string) {
  const everyTab = { ...query, tab: 'all' as const };
  const counts: Record<TaskTab, number> = { all: 0, running: 0, succeeded: 0, failed: 0 };
  const shown: TaskRecord[] = [];
  for (const record of tasks) {
    const task = viewedOnce(record, me);
    if (!matchesView(task, everyTab, cachedText)) continue;
    const tab = phaseOf(task.status);
    counts.all++;
    counts[tab]++;
    if (query.tab === 'all' || query.tab === tab) shown.push(record);
  }
  return { counts, shown };
}
