import type { ImageToVideoRequest } from '@/api/image-to-video-request';
import { recordCreatedTasksSafely } from '@/forms/record-created';

interface CreatedVideos {
  body: ImageToVideoRequest;
  taskIds: string[];
  curl: string;
  historyNote?: string;
}

/** POST /v1/image_to_video (generate_count tasks), then the new tasks into the history. */
export async function createVideos({
  body,
  animatedFrom,
  fileNames,
}: {
  body: ImageToVideoRequest;
  /** The image task whose result is the start frame (Animate). */
  animatedFrom?: string;
  /** The names of files uploaded into the request's fields, for the history. */
  fileNames?: (url: string) => string | undefined;
}): Promise<CreatedVideos> {
  const { API_PATHS, createImageToVideo, toCurl } = await import('@/api/endpoints');
  const { task_ids } = await createImageToVideo(body);
  return {
    body,
    taskIds: task_ids,
    curl: toCurl('POST', API_PATHS.imageToVideo, body),
    historyNote: await recordCreatedTasksSafely(
      'image_to_video',
      body,
      task_ids.map((task_id) => ({ task_id })),
      { animatedFrom, fileNames },
    ),
  };
}
