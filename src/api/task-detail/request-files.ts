// Which field of a creation request holds which uploaded file. Shared by the browser (its history
// keeps the names beside the request) and the Node side (its record attaches them from the uploads
// it saw pass), so both use one shape and one walk over the request's media fields.

/** An uploaded file in a creation request: the field it went into, its URL and its original name. */
export interface RequestFile {
  /** `reference_images[0]`, `image_url`, `end_image_url` or `video_url`. */
  field: string;
  url: string;
  name: string;
}

const SINGLE_FIELDS = ['image_url', 'end_image_url', 'video_url'] as const;

/** Every media URL a creation request names, with the field it sits in. */
export function requestMediaUrls(body: unknown): { field: string; url: string }[] {
  if (!body || typeof body !== 'object') return [];
  const record = body as Record<string, unknown>;
  const found: { field: string; url: string }[] = [];
  const references = record.reference_images;
  if (Array.isArray(references)) {
    references.forEach((url, index) => {
      if (typeof url === 'string' && url) found.push({ field: `reference_images[${index}]`, url });
    });
  }
  for (const field of SINGLE_FIELDS) {
    const url = record[field];
    if (typeof url === 'string' && url) found.push({ field, url });
  }
  return found;
}

/** The request's media URLs that are known uploads, each with the name of the file it came from. */
export function filesOfRequest(body: unknown, nameOf: (url: string) => string | undefined): RequestFile[] {
  return requestMediaUrls(body).flatMap(({ field, url }) => {
    const name = nameOf(url);
    return name ? [{ field, url, name }] : [];
  });
}

/** "reference image", "start frame", … for a field of {@link RequestFile}. */
export function requestFileLabel(field: string): string {
  if (field.startsWith('reference_images')) return 'reference image';
  if (field === 'image_url') return 'start frame';
  if (field === 'end_image_url') return 'end frame';
  if (field === 'video_url') return 'video';
  return field;
}
