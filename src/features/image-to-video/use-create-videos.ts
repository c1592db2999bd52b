import { useMutation } from '@tanstack/react-query';
import { API_PATHS, createImageToVideo, toCurl } from '@/api/endpoints';
import type { ImageToVideoRequest } from '@/api/image-to-video-request';

export interface CreatedVideos {
  body: ImageToVideoRequest;
  taskIds: string[];
  curl: string;
  historyNote?: string;
}

export function useCreateVideos() {
  return useMutation({
    mutationKey: ['create', 'image_to_video'],
    mutationFn: async ({
      body,
      animatedFrom,
    }: {
      body: ImageToVideoRequest;
      /** The image task whose result is the start frame (Animate). */
      animatedFrom?: string;
    }): Promise<CreatedVideos> => {
      const { task_ids } = await createImageToVideo(body);
      const created: CreatedVideos = {
        body,
        taskIds: task_ids,
        curl: toCurl('POST', API_PATHS.imageToVideo, body),
      };
      try {
        const { recordCreatedTasks } = await import('@/features/tasks/history');
        await recordCreatedTasks(
          'image_to_video',
          body,
          task_ids.map((task_id) => ({ task_id })),
          { animatedFrom },
        );
      } catch {
        created.historyNote = 'These tasks could not be saved in this browser’s task history; keep the ids.';
      }
      return created;
    },
  });
}
