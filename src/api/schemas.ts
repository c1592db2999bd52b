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

const between = (min: number, max: number, label: string) =>
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
// Provider: image-to-video creation (POST /v1/image_to_video). The rules differ per model and, for
// model V, per mode (a start frame, or reference images); the mode is not a field of the body but
// follows from which images it carries. One table holds the rules of each (model, mode); the
// schema checks a body against the row its model and images select, and the form reads the same
// row to offer only what that row allows.

export const IMAGE_TO_VIDEO_MODELS = ['V', 'KL'] as const;
export type ImageToVideoModel = (typeof IMAGE_TO_VIDEO_MODELS)[number];
export const IMAGE_TO_VIDEO_MODES = ['start_frame', 'reference', 'multi_reference'] as const;
export type ImageToVideoMode = (typeof IMAGE_TO_VIDEO_MODES)[number];
export const VIDEO_ASPECT_RATIOS = ['16:9', '9:16'] as const;
export type VideoAspectRatio = (typeof VIDEO_ASPECT_RATIOS)[number];
export const VIDEO_RESOLUTIONS = ['720p', '1080p', '4k'] as const;
export type VideoResolution = (typeof VIDEO_RESOLUTIONS)[number];

export interface ImageToVideoModeRules {
  model: ImageToVideoModel;
  /** How messages name the row: `duration: must be 4, 6 or 8 for model V with a start frame`. */
  label: string;
  startFrame: boolean;
  /** Allowed count of reference_images; undefined = the field is not taken. */
  references?: { min: number; max: number };
  resolutions: readonly VideoResolution[];
  /** seconds; the first is the default */
  durations: readonly number[];
  defaultDuration: number;
  audio: boolean;
}

export const IMAGE_TO_VIDEO_MODE_RULES: Record<ImageToVideoMode, ImageToVideoModeRules> = {
  start_frame: {
    model: 'V',
    label: 'model V with a start frame',
    startFrame: true,
    resolutions: VIDEO_RESOLUTIONS,
    durations: [4, 6, 8],
    defaultDuration: 8,
    audio: true,
  },
  reference: {
    model: 'V',
    label: 'model V with reference images',
    startFrame: false,
    references: { min: 1, max: 3 },
    resolutions: VIDEO_RESOLUTIONS,
    durations: [8],
    defaultDuration: 8,
    audio: true,
  },
  multi_reference: {
    model: 'KL',
    label: 'model KL',
    startFrame: false,
    references: { min: 1, max: 7 },
    resolutions: ['720p', '1080p'],
    durations: [5, 10],
    defaultDuration: 5,
    audio: false,
  },
};

export const IMAGE_TO_VIDEO_DEFAULTS = {
  model: 'V',
  aspect_ratio: '16:9',
  aspect_resolution: '720p',
  generate_audio: false,
  generate_count: 1,
} as const;

/** "4, 6 or 8", "720p or 1080p" */
export function listInWords(values: readonly (string | number)[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1)}`;
}

/** The mode a body asks for: model KL has one; model V has a start frame unless it only gives references. */
export function imageToVideoModeOf(body: {
  model?: string;
  image_url?: string;
  reference_images?: readonly unknown[];
}): ImageToVideoMode {
  if (body.model === 'KL') return 'multi_reference';
  return body.image_url === undefined && body.reference_images !== undefined ? 'reference' : 'start_frame';
}

const imageToVideoShape = {
  model: z._default(z.enum(IMAGE_TO_VIDEO_MODELS), IMAGE_TO_VIDEO_DEFAULTS.model),
  prompt: promptSchema,
  image_url: z.optional(httpUrl('Start frame must be an http:// or https:// URL')),
  end_image_url: z.optional(httpUrl('End frame must be an http:// or https:// URL')),
  reference_images: z.optional(z.array(httpUrl('Each reference image must be an http:// or https:// URL'))),
  aspect_ratio: z._default(z.enum(VIDEO_ASPECT_RATIOS), IMAGE_TO_VIDEO_DEFAULTS.aspect_ratio),
  aspect_resolution: z.optional(z.enum(VIDEO_RESOLUTIONS)),
  /** seconds */
  duration: z.optional(z.int({ error: 'Duration must be a whole number of seconds' })),
  generate_audio: z.optional(z.boolean()),
  generate_count: z._default(
    between(BOUNDS.imageToVideoGenerateCount.min, BOUNDS.imageToVideoGenerateCount.max, 'Number of videos'),
    IMAGE_TO_VIDEO_DEFAULTS.generate_count,
  ),
  callback_url: z.optional(httpUrl('Callback URL must be an http:// or https:// URL')),
};

type ImageToVideoShapeOutput = z.output<z.ZodMiniObject<typeof imageToVideoShape>>;

/** Every rule of the body's (model, mode) row that the body breaks, each on the field it concerns. */
export function imageToVideoRuleIssues(body: ImageToVideoShapeOutput): { path: string; message: string }[] {
  const mode = imageToVideoModeOf(body);
  const rules = IMAGE_TO_VIDEO_MODE_RULES[mode];
  const issues: { path: string; message: string }[] = [];
  const refuse = (path: string, message: string) => issues.push({ path, message });
  if (rules.startFrame) {
    if (body.image_url === undefined)
      refuse('image_url', `is required for model V (a start frame), unless reference_images are given`);
    if (body.reference_images !== undefined)
      refuse(
        'reference_images',
        `cannot be combined with image_url for model V: choose a start frame or reference images`,
      );
  } else {
    if (body.image_url !== undefined) refuse('image_url', `is not supported by ${rules.label}`);
    if (body.end_image_url !== undefined)
      refuse('end_image_url', `is not supported by ${rules.label}: an end frame needs a start frame`);
    const count = body.reference_images?.length ?? 0;
    const { min, max } = rules.references!;
    if (body.reference_images === undefined) refuse('reference_images', `is required for ${rules.label}`);
    else if (count < min || count > max)
      refuse('reference_images', `must have ${min} to ${max} images for ${rules.label}, current: ${count}`);
  }
  if (body.aspect_resolution === undefined) {
    if (rules.model === 'V') refuse('aspect_resolution', `is required for model V`);
  } else if (!rules.resolutions.includes(body.aspect_resolution)) {
    refuse(
      'aspect_resolution',
      `must be ${listInWords(rules.resolutions)} for ${rules.label}, current: ${body.aspect_resolution}`,
    );
  }
  if (body.duration !== undefined && !rules.durations.includes(body.duration))
    refuse(
      'duration',
      `must be ${listInWords(rules.durations)} for ${rules.label}, current: ${body.duration}`,
    );
  if (body.generate_audio === true && !rules.audio)
    refuse('generate_audio', `is not supported by ${rules.label}`);
  return issues;
}

export const imageToVideoRequestSchema = z.object(imageToVideoShape).check(
  z.superRefine((body, ctx) => {
    for (const issue of imageToVideoRuleIssues(body))
      ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message, input: body });
  }),
);
export type ImageToVideoRequest = z.input<typeof imageToVideoRequestSchema>;
export type ImageToVideoParams = z.output<typeof imageToVideoRequestSchema>;

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
