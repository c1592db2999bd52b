// The interface's rules as plain values: bounds, enums, defaults, the marker and language lists.
// No zod here, so screens can show limits and choices without loading the schemas; the schemas in
// schemas.ts are built from these, and re-export them.

/** Documented bounds, in one place: schemas, emulator messages and form hints all read them. */
export const BOUNDS = {
  promptMaxLength: 1000,
  referenceImagesMax: 5,
  referenceImageMaxBytes: 20 * 1024 * 1024,
  generateCount: { min: 1, max: 8 },
  speakerNum: { min: 0, max: 2147483647 },
  /** "fewer than 100 characters" */
  videoNameMaxLength: 99,
  imageToVideoGenerateCount: { min: 1, max: 4 },
} as const;

export const MODULES = ['std', 'pro'] as const;
export const IMAGE_QUALITIES = ['1K', '2K', '4K'] as const;
export const IMAGE_RATIOS = [
  '1:1',
  '3:2',
  '2:3',
  '3:4',
  '4:3',
  '4:5',
  '5:4',
  '9:16',
  '16:9',
  '21:9',
] as const;
/** Image to video's aspect ratios and default (provider notes; image-to-video-rules.ts re-exports them). */
export const VIDEO_ASPECT_RATIOS = ['16:9', '9:16'] as const;
export type VideoAspectRatio = (typeof VIDEO_ASPECT_RATIOS)[number];
export const VIDEO_ASPECT_RATIO_DEFAULT: VideoAspectRatio = '16:9';
export const REFERENCE_IMAGE_FORMATS = ['JPG', 'JPEG', 'PNG', 'BMP', 'WebP', 'GIF'] as const;

export const IMAGE_GENERATE_DEFAULTS = {
  module: 'std',
  generate_count: 1,
  image_quality: '2K',
  image_ratio: '9:16',
} as const;

/** Provider defaults for video translation (provider-notes); the interface does not state them. */
/**
 * `callback_url` meaning "this console's own inbox". The inbox address carries its secret, so the
 * browser never stores it (drafts, task history, exports): it sends this marker and the console's
 * server puts the real address in before the request leaves for the service.
 */
export const CONSOLE_INBOX = 'console:inbox';

/**
 * Where the browser reads the callback log (`/log`) and stream (`/events`) and posts a pasted
 * callback: the inbox's own routes without its secret, behind the sign-in like every /__console path.
 */
export const CONSOLE_CALLBACKS_PATH = '/__console/callbacks';

/**
 * Target languages the console offers when the service's list (GET /v1/target_languages) cannot be
 * read; the emulator answers the same list.
 */
export const TARGET_LANGUAGES = [
  'English',
  'Chinese',
  'Japanese',
  'Korean',
  'Spanish',
  'French',
  'German',
  'Portuguese',
  'Italian',
  'Russian',
  'Arabic',
  'Hindi',
  'Indonesian',
  'Thai',
  'Vietnamese',
  'Turkish',
] as const;

export const VIDEO_TRANSLATE_DEFAULTS = {
  speaker_num: 1,
  translate_audio_only: true,
  enable_dynamic_duration: true,
  enable_caption: false,
} as const;

export const TERMINAL_STATUSES = ['SUCCEEDED', 'FAILED'] as const;

export const TASK_TYPES = ['image_generate', 'video_translate', 'image_to_video'] as const;
export type TaskType = (typeof TASK_TYPES)[number];

export function translatedVideoName(language: string, name: string | undefined, unixSeconds: number) {
  return name ? `${language}-${name}` : `${language}-videoTranslate-${unixSeconds}`;
}
