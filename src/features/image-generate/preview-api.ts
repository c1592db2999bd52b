// The server's preview of an image given by its link (server/preview/preview-route.ts): why it
// could not show one, in its words (a JSON `{ reason }`), when it said.
import { PREVIEW_PATH } from '@/api/preview-src';

/** `src` as thumbnailSrc made it; undefined for the console's own files, a success or no reason. */
export async function previewReason(src: string): Promise<string | undefined> {
  if (!src.startsWith(`${PREVIEW_PATH}?`)) return undefined;
  try {
    const response = await fetch(src);
    if (response.ok) return undefined;
    const body = (await response.json()) as { reason?: unknown };
    return typeof body.reason === 'string' ? body.reason : undefined;
  } catch {
    return undefined;
  }
}
