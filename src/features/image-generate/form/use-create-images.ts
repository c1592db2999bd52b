import type { ImageGenerateRequest } from '@/api/schemas';
import { recordCreatedTasksSafely } from '@/forms/record-created';

interface CreatedImages {
  body: ImageGenerateRequest;
  taskIds: string[];
  curl: string;
  /** Set when the tasks were created but could not be saved in this browser's history. */
  historyNote?: string;
}

/** POST /v1/image_generate, then the new tasks into the history. */
export async function createImages(
  body: ImageGenerateRequest,
  /** The names of files uploaded into the request's fields, for the history. */
  fileNames?: (url: string) => string | undefined,
): Promise<CreatedImages> {
  // Loaded on first use: the client and its response schemas are not needed to show the form.
  const { API_PATHS, createImageGeneration, toCurl } = await import('@/api/endpoints');
  const { task_ids } = await createImageGeneration(body);
  return {
    body,
    taskIds: task_ids,
    curl: toCurl('POST', API_PATHS.imageGenerate, body),
    historyNote: await recordCreatedTasksSafely(
      'image_generate',
      body,
      task_ids.map((task_id) => ({ task_id })),
      { fileNames },
    ),
  };
}
