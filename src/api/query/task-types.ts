// The three kinds of task the service runs: their names on screen and the provider's id prefixes.
import type { TaskType } from '../schemas';

export const TASK_TYPE_LABELS: Record<TaskType, string> = {
  image_generate: 'Image generation',
  video_translate: 'Video translation',
  image_to_video: 'Image to video',
};

/** The provider's task ids start with these (provider-notes); the emulator makes the same. */
export const TASK_ID_PREFIXES: Record<TaskType, string> = {
  image_generate: 'i2is-',
  video_translate: 'vt-',
  image_to_video: 'i2v-',
};

/** The kind an id's prefix names, if any. */
export function taskTypeOfId(id: string): TaskType | undefined {
  const lower = id.toLowerCase();
  return (Object.keys(TASK_ID_PREFIXES) as TaskType[]).find((type) =>
    lower.startsWith(TASK_ID_PREFIXES[type]),
  );
}
