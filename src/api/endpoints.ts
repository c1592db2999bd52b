// One function per endpoint of the interface and of the provider's extras. The status queries are
// checked by hand (task-status-check.ts), so the poller and the task page do not load zod; the
// creation answers are checked with the zod schemas, which load when a request is sent (a form
// has loaded zod for its own check by then).
import { apiRequest } from './client';
import { API_PATHS } from './paths';
import { imageGenerateTaskCheck, imageToVideoTaskCheck, videoTranslateTaskCheck } from './task-status-check';
import type {
  ImageGenerateRequest,
  ImageGenerateTask,
  ImageToVideoTask,
  TaskType,
  VideoTranslateRequest,
  VideoTranslateTask,
} from './schemas';
import type { ImageToVideoRequest } from './image-to-video-request';

export { API_PATHS, toCurl } from './paths';
export { getTargetLanguages } from './languages';

const responseSchemas = () => import('./schemas');

export const createImageGeneration = async (
  body: ImageGenerateRequest,
  signal?: AbortSignal,
  headers?: Record<string, string>,
) =>
  apiRequest(API_PATHS.imageGenerate, {
    body,
    schema: (await responseSchemas()).imageGenerateResultSchema,
    signal,
    headers,
  });

export const createVideoTranslation = async (
  body: VideoTranslateRequest,
  signal?: AbortSignal,
  headers?: Record<string, string>,
) =>
  apiRequest(API_PATHS.videoTranslate, {
    body,
    schema: (await responseSchemas()).videoTranslateResultSchema,
    signal,
    headers,
  });

export const createImageToVideo = async (
  body: ImageToVideoRequest,
  signal?: AbortSignal,
  headers?: Record<string, string>,
) =>
  apiRequest(API_PATHS.imageToVideo, {
    body,
    schema: (await responseSchemas()).imageGenerateResultSchema,
    signal,
    headers,
  });

export const getImageToVideoTask = (id: string, signal?: AbortSignal) =>
  apiRequest(API_PATHS.imageToVideoTask(id), { schema: imageToVideoTaskCheck, signal, statusQuery: true });

export const getImageGenerateTask = (id: string, signal?: AbortSignal) =>
  apiRequest(API_PATHS.imageGenerateTask(id), { schema: imageGenerateTaskCheck, signal, statusQuery: true });

export const getVideoTranslateTask = (id: string, signal?: AbortSignal) =>
  apiRequest(API_PATHS.videoTranslateTask(id), {
    schema: videoTranslateTaskCheck,
    signal,
    statusQuery: true,
  });

export type TaskStatusData = ImageToVideoTask | ImageGenerateTask | VideoTranslateTask;

/** The status request of any kind of task. */
export function fetchTaskStatus(kind: TaskType, id: string, signal?: AbortSignal): Promise<TaskStatusData> {
  if (kind === 'image_generate') return getImageGenerateTask(id, signal);
  if (kind === 'video_translate') return getVideoTranslateTask(id, signal);
  return getImageToVideoTask(id, signal);
}

/** Query keys of the status queries, in layers: ['tasks', kind, id]. */
export const taskKeys = {
  all: ['tasks'] as const,
  kind: (kind: TaskType) => ['tasks', kind] as const,
  task: (kind: TaskType, id: string) => ['tasks', kind, id] as const,
};
