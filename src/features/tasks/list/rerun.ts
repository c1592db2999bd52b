// Re-running a task: the same request again, recorded as a new task that links back to the old.
// Loaded when the button is pointed at or pressed (task-detail-actions.tsx), with the endpoints.
import { createImageGeneration, createImageToVideo, createVideoTranslation } from '@/api/endpoints';
import type { ImageGenerateRequest, VideoTranslateRequest } from '@/api/schemas';
import type { ImageToVideoRequest } from '@/api/image-to-video-request';
import { recordCreatedTasks } from '@/features/tasks/history/history';
import type { TaskRecord } from '@/features/tasks/history/task-record';

export async function rerunTask(record: TaskRecord): Promise<TaskRecord[]> {
  const options = { rerunOf: record.id };
  if (record.kind === 'image_generate') {
    const params = record.params as ImageGenerateRequest;
    const { task_ids } = await createImageGeneration(params);
    return recordCreatedTasks(
      'image_generate',
      params,
      task_ids.map((task_id) => ({ task_id })),
      options,
    );
  }
  if (record.kind === 'video_translate') {
    // One translation task covers one language: re-run that language only.
    const original = record.params as VideoTranslateRequest;
    const params: VideoTranslateRequest = record.language
      ? { ...original, target_languages: [record.language] }
      : original;
    const created = await createVideoTranslation(params);
    return recordCreatedTasks('video_translate', params, created, options);
  }
  const params = record.params as ImageToVideoRequest;
  const { task_ids } = await createImageToVideo(params);
  return recordCreatedTasks(
    'image_to_video',
    params,
    task_ids.map((task_id) => ({ task_id })),
    options,
  );
}
