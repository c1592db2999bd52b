// One function per creation endpoint of the interface and of the provider's extras. The browser
// never asks the service about a task: the server follows every task (server/follow) and the
// screens read its record. The creation answers are checked with the zod schemas, which load when a
// request is sent (a form has loaded zod for its own check by then).
import { apiRequest } from './client';
import { API_PATHS } from './paths';
import type { ImageGenerateRequest, VideoTranslateRequest } from './schemas';
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
