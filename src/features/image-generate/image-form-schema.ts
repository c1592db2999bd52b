// The Create image form's rules (loaded on the form's first interaction, with zod): the request schema's own field schemas (src/api/schemas.ts), plus
// what only a form needs: rows of URLs, at most 5 of them (the service would silently drop the
// rest), and a format check where the URL shows its extension.
import { z } from '@/api/zod';
import {
  BOUNDS,
  IMAGE_QUALITIES,
  IMAGE_RATIOS,
  MODULES,
  httpUrl,
  imageGenerateRequestSchema,
  promptSchema,
} from '@/api/schemas';
import { FORMAT_EXTENSIONS, FORMAT_LIST, urlExtension } from './form/image-url-format';

const referenceImageUrl = httpUrl('Enter an http:// or https:// image URL').check(
  z.refine((url) => {
    const extension = urlExtension(url);
    return extension === undefined || FORMAT_EXTENSIONS.includes(extension);
  }, `The service accepts ${FORMAT_LIST} images`),
);

// A blank row is allowed (it is not sent), so an empty string passes before the URL rules apply.
const referenceImageRow = z.object({
  url: z.union([z.literal(''), referenceImageUrl]),
});

export const imageFormSchema = z.object({
  prompt: promptSchema,
  reference_images: z.array(referenceImageRow).check(
    z.maxLength(BOUNDS.referenceImagesMax, {
      error: `At most ${BOUNDS.referenceImagesMax} reference images: the service ignores any beyond the fifth`,
    }),
  ),
  module: z.enum(MODULES, { error: 'Choose Standard or Professional' }),
  generate_count: imageGenerateRequestSchema.shape.generate_count,
  image_quality: z.enum(IMAGE_QUALITIES, { error: `Choose one of ${IMAGE_QUALITIES.join(', ')}` }),
  image_ratio: z.enum(IMAGE_RATIOS, { error: 'Choose one of the ten aspect ratios' }),
});

export type ImageFormInput = z.input<typeof imageFormSchema>;
export type ImageFormOutput = z.output<typeof imageFormSchema>;
