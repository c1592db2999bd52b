// What a status query returns for a task, and the completion callback body (section 6), both built
// from the same state so a callback never disagrees with a query made at the same moment.
import type { CallbackBody } from '../../src/api/schemas';
import {
  stateAt,
  type ImageGenerateTaskRecord,
  type ImageToVideoTaskRecord,
  type TaskRecord,
  type VideoTranslateTaskRecord,
} from './tasks';

const MEDIA_PATHS = {
  image: (id: string) => `/emulator/media/images/${id}.png`,
  imageThumbnail: (id: string) => `/emulator/media/images/${id}.thumb.png`,
  video: (id: string) => `/emulator/media/videos/${id}.mp4`,
  videoThumbnail: (id: string) => `/emulator/media/thumbnails/${id}.jpg`,
  caption: (id: string) => `/emulator/media/captions/${id}.ass`,
} as const;

/** The emulated video file is this long (server/emulator/assets). */
export const EMULATED_VIDEO_SECONDS = 4;

const RESOLUTION_SHORT_SIDE = { '720p': 720, '1080p': 1080, '4k': 2160 } as const;

export function videoSize(task: ImageToVideoTaskRecord): { width: number; height: number } {
  const short = RESOLUTION_SHORT_SIDE[task.resolution];
  const long = Math.round((short * 16) / 9);
  return task.aspectRatio === '16:9' ? { width: long, height: short } : { width: short, height: long };
}

function progress(task: TaskRecord, now: number) {
  const state = stateAt(task, now);
  const succeeded = state.status === 'SUCCEEDED';
  const errorMessage =
    state.status === 'FAILED' && task.outcome.type === 'fail' ? task.outcome.errorMessage : '';
  const url = (path: string) => (succeeded ? task.origin + path : '');
  return { status: state.status, succeeded, errorMessage, url };
}

export function imageGenerateView(task: ImageGenerateTaskRecord, now: number) {
  const { status, errorMessage, url } = progress(task, now);
  return {
    task_id: task.id,
    status,
    image_url: url(MEDIA_PATHS.image(task.id)),
    thumbnail_url: url(MEDIA_PATHS.imageThumbnail(task.id)),
    error_message: errorMessage,
  };
}

export function videoTranslateView(task: VideoTranslateTaskRecord, now: number) {
  const { status, errorMessage, url } = progress(task, now);
  return {
    task_id: task.id,
    name: task.name,
    language: task.language,
    status,
    video_url: url(MEDIA_PATHS.video(task.id)),
    // enable_caption: "Whether a caption file is generated" (section 2.4).
    caption_url: task.enableCaption ? url(MEDIA_PATHS.caption(task.id)) : '',
    error_message: errorMessage,
  };
}

export function imageToVideoView(task: ImageToVideoTaskRecord, now: number) {
  const { status, errorMessage, url } = progress(task, now);
  return {
    task_id: task.id,
    status,
    video_url: url(MEDIA_PATHS.video(task.id)),
    thumbnail_url: url(MEDIA_PATHS.videoThumbnail(task.id)),
    error_message: errorMessage,
    duration: task.duration,
    ...videoSize(task),
  };
}

/** Section 6 bodies; only meaningful once the task is terminal (callbacks carry terminal statuses). */
export function callbackBody(task: TaskRecord, now: number): CallbackBody {
  const envelope = { code: 0, msg: 'ok' };
  switch (task.kind) {
    case 'video_translate':
      return {
        ...envelope,
        task_type: 'video_translate',
        data: videoTranslateView(task, now),
      } as CallbackBody;
    case 'image_to_video': {
      const { task_id, status, video_url, thumbnail_url, error_message } = imageToVideoView(task, now);
      return {
        ...envelope,
        task_type: 'image_to_video',
        data: { task_id, status, video_url, thumbnail_url, error_message },
      } as CallbackBody;
    }
    case 'image_generate': {
      const { task_id, status, image_url, error_message } = imageGenerateView(task, now);
      return {
        ...envelope,
        task_type: 'image_generate',
        data: { task_id, status, image_url, error_message },
      } as CallbackBody;
    }
  }
}
