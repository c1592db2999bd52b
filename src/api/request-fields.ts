// The fields of each request body, in the order the interface lists them. One list per request
// serves the emulator (which reports the first field of the body first), the forms (which place
// the service's 100001/100002 errors) and ApiError (which finds the field a message names).
// Written out rather than read from the schemas so the app shell, which needs ApiError, does not
// pull zod into the first screen's bundle; request-fields.test.ts checks them against the schemas.

export const IMAGE_GENERATE_FIELDS = [
  'prompt',
  'reference_images',
  'module',
  'generate_count',
  'image_quality',
  'image_ratio',
  'callback_url',
] as const;

export const VIDEO_TRANSLATE_FIELDS = [
  'target_languages',
  'video_url',
  'speaker_num',
  'translate_audio_only',
  'enable_dynamic_duration',
  'enable_caption',
  'name',
  'callback_url',
] as const;

export const IMAGE_TO_VIDEO_FIELDS = [
  'model',
  'prompt',
  'image_url',
  'end_image_url',
  'reference_images',
  'aspect_ratio',
  'aspect_resolution',
  'duration',
  'generate_audio',
  'generate_count',
  'callback_url',
] as const;
