// Every body of the interface (../shared/api-spec.md) and of the provider's extra endpoints
// (../shared/provider-notes.md), as zod/mini schemas. One module serves the browser client, the
// emulator and the tests, so a rule changed here changes everywhere at once.
//
// Request schemas are the wire contract (what the service accepts). Response schemas are lenient:
// only the fields the app cannot do without are required and unknown fields are kept, because a
// real backend may add fields or omit optional ones and the console must keep working.
import { isHttpUrl } from './http-url';
import { z } from './zod';

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

/** An absolute http(s) URL, by the one check in http-url.ts; reported as zod's URL format issue. */
export const httpUrl = (error = 'Enter an http:// or https:// URL') =>
  z.string({ error }).check(
    z.superRefine((value, ctx) => {
      if (!isHttpUrl(value))
        ctx.addIssue({ code: 'invalid_format', format: 'url', input: value, message: error });
    }),
  );

/** A whole number in [min, max], worded for a form. */
export const between = (min: number, max: number, label: string) =>
  z
    .int({ error: `${label} must be a whole number` })
    .check(
      z.minimum(min, { error: `${label} must be at least ${min}` }),
      z.maximum(max, { error: `${label} must be at most ${max}` }),
    );

// ---------------------------------------------------------------------------------------------
// 2.1 Envelope

export const envelopeSchema = z.looseObject({
  code: z.int(),
  msg: z.optional(z.string()),
  data: z.optional(z.unknown()),
});
export type Envelope = z.infer<typeof envelopeSchema>;

// ---------------------------------------------------------------------------------------------
// 2.2 / 2.3 Image generation

export const promptSchema = z.string({ error: 'Prompt is required' }).check(
  z.trim(),
  z.minLength(1, { error: 'Prompt is required' }),
  z.maxLength(BOUNDS.promptMaxLength, {
    error: `Prompt must be at most ${BOUNDS.promptMaxLength} characters`,
  }),
);

export const imageGenerateRequestSchema = z.object({
  prompt: promptSchema,
  // The service silently keeps the first five; the schema mirrors that instead of refusing.
  reference_images: z.optional(
    z.pipe(
      z.array(httpUrl('Each reference image must be an http:// or https:// URL')),
      z.transform((urls) => urls.slice(0, BOUNDS.referenceImagesMax)),
    ),
  ),
  module: z._default(z.enum(MODULES), IMAGE_GENERATE_DEFAULTS.module),
  generate_count: z._default(
    between(BOUNDS.generateCount.min, BOUNDS.generateCount.max, 'Number of images'),
    IMAGE_GENERATE_DEFAULTS.generate_count,
  ),
  image_quality: z._default(z.enum(IMAGE_QUALITIES), IMAGE_GENERATE_DEFAULTS.image_quality),
  image_ratio: z._default(z.enum(IMAGE_RATIOS), IMAGE_GENERATE_DEFAULTS.image_ratio),
  // Not in the interface (section 6: "not shown"); sent only when the user fills it.
  callback_url: z.optional(httpUrl('Callback URL must be an http:// or https:// URL')),
});
export type ImageGenerateRequest = z.input<typeof imageGenerateRequestSchema>;
export type ImageGenerateParams = z.output<typeof imageGenerateRequestSchema>;

export const imageGenerateResultSchema = z.looseObject({
  task_ids: z.array(z.string().check(z.minLength(1))),
});
export type ImageGenerateResult = z.infer<typeof imageGenerateResultSchema>;

// ---------------------------------------------------------------------------------------------
// 2.4 / 2.5 Video translation

export const videoNameSchema = z.string().check(
  z.maxLength(BOUNDS.videoNameMaxLength, {
    error: `Video name must be fewer than ${BOUNDS.videoNameMaxLength + 1} characters`,
  }),
);

export const videoTranslateRequestSchema = z.object({
  target_languages: z
    .array(z.string().check(z.trim(), z.minLength(1, { error: 'A language cannot be empty' })))
    .check(z.minLength(1, { error: 'Choose at least one target language' })),
  video_url: httpUrl('Video URL must be an http:// or https:// URL'),
  speaker_num: z.optional(between(BOUNDS.speakerNum.min, BOUNDS.speakerNum.max, 'Number of speakers')),
  translate_audio_only: z.optional(z.boolean()),
  enable_dynamic_duration: z.optional(z.boolean()),
  enable_caption: z.optional(z.boolean()),
  name: z.optional(videoNameSchema),
  callback_url: z.optional(httpUrl('Callback URL must be an http:// or https:// URL')),
});
export type VideoTranslateRequest = z.input<typeof videoTranslateRequestSchema>;

export const videoTranslateResultSchema = z.array(
  z.looseObject({ task_id: z.string().check(z.minLength(1)), language: z.string() }),
);
export type VideoTranslateResult = z.infer<typeof videoTranslateResultSchema>;

/** Section 2.4: `<target_language>-<name>`, or `<target_language>-videoTranslate-<unix seconds>`. */
export function translatedVideoName(language: string, name: string | undefined, unixSeconds: number) {
  return name ? `${language}-${name}` : `${language}-videoTranslate-${unixSeconds}`;
}

// ---------------------------------------------------------------------------------------------
// 2.6 and provider task records (status query responses)

const optionalText = z.optional(z.nullable(z.string()));
const optionalInt = z.optional(z.nullable(z.number()));
const statusSchema = z.string().check(z.minLength(1));

export const imageToVideoTaskSchema = z.looseObject({
  task_id: z.string(),
  status: statusSchema,
  video_url: optionalText,
  thumbnail_url: optionalText,
  error_message: optionalText,
  /** seconds */
  duration: optionalInt,
  /** pixels */
  width: optionalInt,
  height: optionalInt,
});
export type ImageToVideoTask = z.infer<typeof imageToVideoTaskSchema>;

export const imageGenerateTaskSchema = z.looseObject({
  task_id: z.string(),
  status: statusSchema,
  image_url: optionalText,
  thumbnail_url: optionalText,
  error_message: optionalText,
});
export type ImageGenerateTask = z.infer<typeof imageGenerateTaskSchema>;

export const videoTranslateTaskSchema = z.looseObject({
  task_id: z.string(),
  status: statusSchema,
  name: optionalText,
  language: optionalText,
  video_url: optionalText,
  caption_url: optionalText,
  error_message: optionalText,
});
export type VideoTranslateTask = z.infer<typeof videoTranslateTaskSchema>;

export const targetLanguagesSchema = z.array(z.string());

// ---------------------------------------------------------------------------------------------
// 6. Completion callbacks. Callbacks only carry terminal statuses (provider-notes).

const callbackStatus = z.enum(TERMINAL_STATUSES);
const callbackEnvelope = {
  code: z.int(),
  msg: z.optional(z.string()),
};

export const videoTranslateCallbackSchema = z.looseObject({
  ...callbackEnvelope,
  task_type: z.literal('video_translate'),
  data: z.looseObject({
    task_id: z.string().check(z.minLength(1)),
    status: callbackStatus,
    name: optionalText,
    language: optionalText,
    video_url: optionalText,
    caption_url: optionalText,
    error_message: optionalText,
  }),
});

export const imageToVideoCallbackSchema = z.looseObject({
  ...callbackEnvelope,
  task_type: z.literal('image_to_video'),
  data: z.looseObject({
    task_id: z.string().check(z.minLength(1)),
    status: callbackStatus,
    video_url: optionalText,
    thumbnail_url: optionalText,
    error_message: optionalText,
  }),
});

export const imageGenerateCallbackSchema = z.looseObject({
  ...callbackEnvelope,
  task_type: z.literal('image_generate'),
  data: z.looseObject({
    task_id: z.string().check(z.minLength(1)),
    status: callbackStatus,
    image_url: optionalText,
    error_message: optionalText,
  }),
});

export const callbackBodySchema = z.discriminatedUnion('task_type', [
  videoTranslateCallbackSchema,
  imageToVideoCallbackSchema,
  imageGenerateCallbackSchema,
]);
export type CallbackBody = z.infer<typeof callbackBodySchema>;
export type TaskType = CallbackBody['task_type'];
export const TASK_TYPES = ['image_generate', 'video_translate', 'image_to_video'] as const;
