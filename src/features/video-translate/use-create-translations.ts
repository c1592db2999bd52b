import { queryOptions, useMutation } from '@tanstack/react-query';
import { API_PATHS, createVideoTranslation, getTargetLanguages, toCurl } from '@/api/endpoints';
import type { VideoTranslateRequest } from '@/api/schemas';

export interface CreatedTranslations {
  body: VideoTranslateRequest;
  tasks: { task_id: string; language: string }[];
  curl: string;
  historyNote?: string;
}

export function useCreateTranslations() {
  return useMutation({
    mutationKey: ['create', 'video_translate'],
    mutationFn: async (body: VideoTranslateRequest): Promise<CreatedTranslations> => {
      const data = await createVideoTranslation(body);
      const tasks = data.map(({ task_id, language }) => ({ task_id, language }));
      const created: CreatedTranslations = {
        body,
        tasks,
        curl: toCurl('POST', API_PATHS.videoTranslate, body),
      };
      try {
        // Loaded on first use: the history store (IndexedDB) is not needed to show the first screen.
        const { recordCreatedTasks } = await import('@/features/tasks/history');
        await recordCreatedTasks('video_translate', body, tasks);
      } catch {
        created.historyNote = 'These tasks could not be saved in this browser’s task history; keep the ids.';
      }
      return created;
    },
  });
}

/** The backend's language list; not part of the interface, so a failure means "use the built-in list". */
export const targetLanguagesQuery = queryOptions({
  queryKey: ['video_translate', 'target_languages'],
  queryFn: ({ signal }) => getTargetLanguages(signal),
  staleTime: Infinity,
  retry: false,
});
