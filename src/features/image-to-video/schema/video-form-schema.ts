// The Image to video form's rules. The form keeps every value of every mode (so switching back and
// forth loses nothing); what it sends is the request of the chosen (model, mode) row, checked by the
// very schema the emulator uses (imageToVideoRequestSchema), issue for issue on the same fields.
// Loaded on the form's first focus or press (src/forms/lazy-zod-resolver.ts), with zod.
import { z } from '@/api/zod';
import { httpUrl } from '@/api/schemas';
import {
  IMAGE_TO_VIDEO_MODE_RULES,
  IMAGE_TO_VIDEO_MODELS,
  IMAGE_TO_VIDEO_MODES,
  VIDEO_ASPECT_RATIOS,
  VIDEO_RESOLUTIONS,
  imageToVideoRequestSchema,
  type ImageToVideoMode,
} from '@/api/image-to-video-request';
import { toVideoRequest } from '@/features/image-to-video/video-form-model';

/** The request schema's words, as a form says them: "Must be 4, 6 or 8 …", with the missing ones plainer. */
function formMessage(field: string, message: string, mode: ImageToVideoMode): string {
  const rules = IMAGE_TO_VIDEO_MODE_RULES[mode];
  if (field === 'image_url' && message.startsWith('is required'))
    return 'Enter the start frame: a public link to the image the video starts from';
  if (field === 'reference_images' && rules.references && /^(is required|must have)/.test(message)) {
    const { min, max } = rules.references;
    return `Add ${min} to ${max} reference images for ${rules.label}`;
  }
  return message.charAt(0).toUpperCase() + message.slice(1);
}

const imageRow = z.object({
  url: z.union([z.literal(''), httpUrl('Enter an http:// or https:// image URL')]),
});

export const videoFormSchema = z
  .object({
    model: z.enum(IMAGE_TO_VIDEO_MODELS),
    mode: z.enum(IMAGE_TO_VIDEO_MODES),
    prompt: z.string(),
    image_url: z.string(),
    end_image_url: z.string(),
    reference_images: z.array(imageRow),
    aspect_ratio: z.enum(VIDEO_ASPECT_RATIOS),
    aspect_resolution: z.enum(VIDEO_RESOLUTIONS),
    duration: z.string(),
    generate_audio: z.boolean(),
    generate_count: z.number({ error: 'Enter a whole number from 1 to 4' }),
    source_task: z.string(),
    source_url: z.string(),
  })
  .check(
    z.superRefine((values, ctx) => {
      const result = imageToVideoRequestSchema.safeParse(toVideoRequest(values));
      if (result.success) return;
      const seen = new Set<string>();
      for (const issue of result.error.issues) {
        const field = String(issue.path[0] ?? 'prompt');
        if (seen.has(field)) continue;
        seen.add(field);
        ctx.addIssue({
          code: 'custom',
          path: [field],
          message: formMessage(field, issue.message, values.mode),
          input: values,
        });
      }
    }),
  );

export type VideoFormOutput = z.output<typeof videoFormSchema>;
