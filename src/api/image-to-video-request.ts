// Provider: image-to-video creation (POST /v1/image_to_video), the request schema shared by the
// Image to video form and the emulator. A module of its own, beside schemas.ts, so that only the
// screen that sends this request ships it: whatever schemas.ts holds is on the first screen.
import { BOUNDS, between, httpUrl, promptSchema } from './schemas';
import {
  IMAGE_TO_VIDEO_DEFAULTS,
  IMAGE_TO_VIDEO_MODELS,
  IMAGE_TO_VIDEO_MODE_RULES,
  VIDEO_ASPECT_RATIOS,
  VIDEO_RESOLUTIONS,
  listInWords,
  type ImageToVideoMode,
} from './image-to-video/image-to-video-rules';
import { z } from './zod';

export * from './image-to-video/image-to-video-rules';

/** The mode a body asks for: model KL has one; model V has a start frame unless it only gives references. */
export function imageToVideoModeOf(body: {
  model?: string;
  image_url?: string;
  reference_images?: readonly unknown[];
}): ImageToVideoMode {
  if (body.model === 'KL') return 'multi_reference';
  return body.image_url === undefined && body.reference_images !== undefined ? 'reference' : 'start_frame';
}

function buildImageToVideoRequestSchema() {
  const shape = {
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
  return z.object(shape).check(
    z.superRefine((body, ctx) => {
      for (const issue of imageToVideoRuleIssues(body))
        ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message, input: body });
    }),
  );
}

type ImageToVideoShapeOutput = z.output<ReturnType<typeof buildImageToVideoRequestSchema>>;

/** Every rule of the body's (model, mode) row that the body breaks, each on the field it concerns. */
function imageToVideoRuleIssues(body: ImageToVideoShapeOutput): { path: string; message: string }[] {
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

export const imageToVideoRequestSchema = buildImageToVideoRequestSchema();
export type ImageToVideoRequest = z.input<typeof imageToVideoRequestSchema>;
