// Every body of the interface (../shared/api-spec.md) and of the provider's extra endpoints
// (../shared/provider-notes.md), as zod/mini schemas. One module serves the browser client, the
// emulator and the tests, so a rule changed here changes everywhere at once.
//
// Request schemas are the wire contract (what the service accepts). Response schemas are lenient:
// only the fields the app cannot do without are required and unknown fields are kept, because a
// real backend may add fields or omit optional ones and the console must keep working.
import { isHttpUrl } from './core/http-url';
import { z } from './zod';

import {
  BOUNDS,
  IMAGE_GENERATE_DEFAULTS,
  IMAGE_QUALITIES,
  IMAGE_RATIOS,
  MODULES,
  TERMINAL_STATUSES,
} from './core/rules';

export * from './core/rules';

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

export { envelopeSchema, type Envelope } from './envelope';

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

// ---------------------------------------------------------------------------------------------
// Provider: file upload (POST /v1/figure-resource/upload/file, multipart part `file`). Its answer
// has the provider's own envelope, not {code, msg, data}: {code, success, message, result}.

/** File types the browser lets through before uploading (videos up to UPLOAD_MAX_MB, see /__console/config). */
export const UPLOAD_IMAGE_TYPES = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/bmp': ['bmp'],
  'image/webp': ['webp'],
  'image/gif': ['gif'],
} as const;
export const UPLOAD_VIDEO_TYPES = {
  'video/mp4': ['mp4'],
  'video/quicktime': ['mov'],
  'video/webm': ['webm'],
} as const;

export const uploadAnswerSchema = z.looseObject({
  code: z.optional(z.int()),
  success: z.optional(z.boolean()),
  /** `{"global": "success"}` on the provider; a plain string or a `msg` field elsewhere. */
  message: z.optional(z.unknown()),
  msg: z.optional(z.string()),
  result: z.optional(
    z.nullable(
      z.looseObject({
        url: z.string(),
        fileId: z.optional(z.nullable(z.string())),
        fileName: z.optional(z.nullable(z.string())),
      }),
    ),
  ),
});
export type UploadAnswer = z.infer<typeof uploadAnswerSchema>;

/** The words of an upload answer's `message` (string, `{global}` or any string value), or `msg`. */
export function uploadAnswerMessage(answer: Pick<UploadAnswer, 'message' | 'msg'>): string {
  const { message } = answer;
  if (typeof message === 'string') return message;
  if (message && typeof message === 'object') {
    const record = message as Record<string, unknown>;
    const text =
      typeof record.global === 'string'
        ? record.global
        : Object.values(record).find((v) => typeof v === 'string');
    if (typeof text === 'string') return text;
  }
  return answer.msg ?? '';
}
