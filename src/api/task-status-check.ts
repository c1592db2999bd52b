// The status answers (GET /v1/.../task/<id>) checked by hand, exactly as strictly as the zod task
// schemas in schemas.ts (`task-status-check.test.ts` holds them to the same verdicts on valid and
// malformed bodies). The poller, which runs on every screen while a task may still change, and the
// task page read these answers; with this check neither loads zod (~9 KB gzip).
import { isRecord, refuse, type CheckResult } from './callback-check';
import type { ImageGenerateTask, ImageToVideoTask, VideoTranslateTask } from './schemas';

function taskCheck<T>(text: readonly string[], numbers: readonly string[] = []) {
  return {
    safeParse(value: unknown): CheckResult<T> {
      if (!isRecord(value)) return refuse([], 'expected an object');
      if (typeof value.task_id !== 'string') return refuse(['task_id'], 'expected a string');
      if (typeof value.status !== 'string' || !value.status)
        return refuse(['status'], 'expected a non-empty string');
      for (const field of text) {
        const text = value[field];
        if (text != null && typeof text !== 'string') return refuse([field], 'expected a string');
      }
      for (const field of numbers) {
        const number = value[field];
        if (number != null && !Number.isFinite(number)) return refuse([field], 'expected a number');
      }
      return { success: true, data: value as T };
    },
  };
}

export const imageToVideoTaskCheck = taskCheck<ImageToVideoTask>(
  ['video_url', 'thumbnail_url', 'error_message'],
  ['duration', 'width', 'height'],
);
export const imageGenerateTaskCheck = taskCheck<ImageGenerateTask>([
  'image_url',
  'thumbnail_url',
  'error_message',
]);
export const videoTranslateTaskCheck = taskCheck<VideoTranslateTask>([
  'name',
  'language',
  'video_url',
  'caption_url',
  'error_message',
]);
