// The Create image form's values without zod: defaults, the fields it shows, the format rule as
// text and the request it sends. The screen renders from this module; the schema
// (image-form-schema.ts) loads on the first interaction.
import { IMAGE_GENERATE_DEFAULTS, IMAGE_QUALITIES, IMAGE_RATIOS, MODULES } from '@/api/core/rules';
import type { ImageGenerateRequest } from '@/api/schemas';
import { IMAGE_GENERATE_FIELDS } from '@/api/request-fields';
import type { ImageFormOutput } from '@/features/image-generate/image-form-schema';

export type { ImageFormInput, ImageFormOutput } from '@/features/image-generate/image-form-schema';

interface ImageFormValues {
  prompt: string;
  reference_images: { url: string }[];
  module: (typeof MODULES)[number];
  generate_count: number;
  image_quality: (typeof IMAGE_QUALITIES)[number];
  image_ratio: (typeof IMAGE_RATIOS)[number];
}

export const IMAGE_FORM_DEFAULTS: ImageFormValues = {
  prompt: '',
  reference_images: [],
  ...IMAGE_GENERATE_DEFAULTS,
};

type ImageFormField = Exclude<(typeof IMAGE_GENERATE_FIELDS)[number], 'callback_url'>;

/** Request fields the form shows (not callback_url), for placing the service's 100001/100002 errors. */
export const IMAGE_FORM_FIELDS: readonly ImageFormField[] = IMAGE_GENERATE_FIELDS.filter(
  (field): field is ImageFormField => field !== 'callback_url',
);

/** The body sent to POST /v1/image_generate: every field explicit, blank rows dropped. */
export function toImageRequest(values: ImageFormOutput): ImageGenerateRequest {
  const urls = values.reference_images.map((row) => row.url.trim()).filter(Boolean);
  return {
    prompt: values.prompt,
    ...(urls.length > 0 && { reference_images: urls }),
    module: values.module,
    generate_count: values.generate_count,
    image_quality: values.image_quality,
    image_ratio: values.image_ratio,
  };
}
