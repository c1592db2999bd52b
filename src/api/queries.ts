// queryOptions factories for the status queries, keyed in layers: ['tasks', kind, id]. The task
// gallery adds polling (interval, in-flight cap, history updates) on top of these same keys.
import { queryOptions } from '@tanstack/react-query';
import { getImageGenerateTask, getImageToVideoTask, getVideoTranslateTask } from './endpoints';
import type { ImageGenerateTask, ImageToVideoTask, TaskType, VideoTranslateTask } from './schemas';

export type TaskStatusData = ImageToVideoTask | ImageGenerateTask | VideoTranslateTask;

export const taskKeys = {
  all: ['tasks'] as const,
  kind: (kind: TaskType) => ['tasks', kind] as const,
  task: (kind: TaskType, id: string) => ['tasks', kind, id] as const,
};

export const imageToVideoTaskQuery = (id: string) =>
  queryOptions({
    queryKey: taskKeys.task('image_to_video', id),
    queryFn: ({ signal }): Promise<TaskStatusData> => getImageToVideoTask(id, signal),
  });

export const imageGenerateTaskQuery = (id: string) =>
  queryOptions({
    queryKey: taskKeys.task('image_generate', id),
    queryFn: ({ signal }): Promise<TaskStatusData> => getImageGenerateTask(id, signal),
  });

export const videoTranslateTaskQuery = (id: string) =>
  queryOptions({
    queryKey: taskKeys.task('video_translate', id),
    queryFn: ({ signal }): Promise<TaskStatusData> => getVideoTranslateTask(id, signal),
  });

const FACTORIES = {
  image_to_video: imageToVideoTaskQuery,
  image_generate: imageGenerateTaskQuery,
  video_translate: videoTranslateTaskQuery,
} satisfies Record<TaskType, (id: string) => unknown>;

/** The status query of any kind of task. */
export const taskStatusQuery = (kind: TaskType, id: string) => FACTORIES[kind](id);

/** The plain fetcher behind a status query (for callers that wrap it, such as the poller). */
export function fetchTaskStatus(kind: TaskType, id: string, signal?: AbortSignal): Promise<TaskStatusData> {
  if (kind === 'image_generate') return getImageGenerateTask(id, signal);
  if (kind === 'video_translate') return getVideoTranslateTask(id, signal);
  return getImageToVideoTask(id, signal);
}
