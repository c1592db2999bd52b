// The Create image form's rules: the request schema's own field schemas (src/api/schemas.ts), plus
// what only a form needs: rows of URLs, at most 5 of them (the service would silently drop the
// rest), and a format check where the URL shows its extension.
import { z } from '@/api/zod';
import {
  BOUNDS,
  IMAGE_GENERATE_DEFAULTS,
  IMAGE_QUALITIES,
  IMAGE_RATIOS,
  MODULES,
  REFERENCE_IMAGE_FORMATS,
  httpUrl,
  imageGenerateRequestSchema,
  promptSchema,
  type ImageGenerateRequest,
} from '@/api/schemas';
import { IMAGE_GENERATE_FIELDS } from '@/api/request-fields';

const FORMAT_EXTENSIONS = REFERENCE_IMAGE_FORMATS.map((format) => format.toLowerCase());
export const FORMAT_LIST = 'JPG, JPEG, PNG, BMP, WebP or GIF';

/** The file extension the URL's path ends with (`png`), or undefined when it shows none. */
export function urlExtension(url: string): string | undefined {
  try {
    const last = new URL(url).pathname.split('/').pop() ?? '';
    return /\.([a-z0-9]{2,5})$/i.exec(last)?.[1]?.toLowerCase();
  } catch {
    return undefined;
  }
}

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

export interface ImageFormValues {
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
