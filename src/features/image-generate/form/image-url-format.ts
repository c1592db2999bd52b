// The reference images' formats as the form says them and checks them: shared by the form's plain
// values (image-form-model.ts) and its schema (image-form-schema.ts), which neither imports the other.
import { REFERENCE_IMAGE_FORMATS } from '@/api/core/rules';

export const FORMAT_EXTENSIONS: readonly string[] = REFERENCE_IMAGE_FORMATS.map((format) =>
  format.toLowerCase(),
);
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
