import { useMutation } from '@tanstack/react-query';
import { API_PATHS, createImageGeneration, toCurl } from '@/api/endpoints';
import type { ImageGenerateRequest } from '@/api/schemas';

export interface CreatedImages {
  body: ImageGenerateRequest;
  taskIds: string[];
  curl: string;
  /** Set when the tasks were created but could not be saved in this browser's history. */
  historyNote?: string;
}

export function useCreateImages() {
  return useMutation({
    mutationKey: ['create', 'image_generate'],
    mutationFn: async (body: ImageGenerateRequest): Promise<CreatedImages> => {
      const { task_ids } = await createImageGeneration(body);
      const created: CreatedImages = {
        body,
        taskIds: task_ids,
        curl: toCurl('POST', API_PATHS.imageGenerate, body),
      };
      try {
        // Loaded on first use: the history store (IndexedDB) is not needed to show the first screen.
        const { recordCreatedTasks } = await import('@/features/tasks/history');
        await recordCreatedTasks(
          'image_generate',
          body,
          task_ids.map((task_id) => ({ task_id })),
        );
      } catch {
        // The tasks exist on the service either way; losing the local record must not hide them.
        created.historyNote = 'These tasks could not be saved in this browser’s task history; keep the ids.';
      }
      return created;
    },
  });
}
