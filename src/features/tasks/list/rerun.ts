// Re-running a task: the same request again (../rerun/rerun-params.ts: a translation's one
// language), recorded as a new task that links back to the old. Loaded when the button is pointed
// at or pressed (task-detail-actions.tsx), with the endpoints. `params` replaces what is sent
// ("Try again" on a failed tile asks for one task).
import { createImageGeneration, createImageToVideo, createVideoTranslation } from '@/api/endpoints';
import type { ImageGenerateRequest, VideoTranslateRequest } from '@/api/schemas';
import type { ImageToVideoRequest } from '@/api/image-to-video-request';
import { recordCreatedTasks } from '@/features/tasks/history/history';
import type { TaskRecord } from '@/features/tasks/history/task-record';
import { rerunParams } from '@/features/tasks/rerun/rerun-params';

export async function rerunTask(
  record: TaskRecord,
  params: Record<string, unknown> = rerunParams(record),
): Promise<TaskRecord[]> {
  const options = { rerunOf: record.id };
  if (record.kind === 'image_generate') {
    const body = params as unknown as ImageGenerateRequest;
    const { task_ids } = await createImageGeneration(body);
    return recordCreatedTasks(
      'image_generate',
      body,
      task_ids.map((task_id) => ({ task_id })),
      options,
    );
  }
  if (record.kind === 'video_translate') {
    const body = params as unknown as VideoTranslateRequest;
    const created = await createVideoTranslation(body);
    return recordCreatedTasks('video_translate', body, created, options);
  }
  const body = params as unknown as ImageToVideoRequest;
  const { task_ids } = await createImageToVideo(body);
  return recordCreatedTasks(
    'image_to_video',
    body,
    task_ids.map((task_id) => ({ task_id })),
    options,
  );
}
