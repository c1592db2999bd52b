// Where the browser loads an image someone gave by its link (a reference image, a start frame):
// this console's own files directly, any other host through the server's preview
// (server/preview/preview-route.ts), since the page's CSP allows images from 'self' and the
// service's media hosts only.
import { parseHttpUrl } from './core/http-url';

export const PREVIEW_PATH = '/__console/preview';

/** The address to show `url` from; a non-http(s) text comes back as it is (the caller checks). */
export function thumbnailSrc(url: string): string {
  const parsed = parseHttpUrl(url);
  if (!parsed) return url;
  if (parsed.origin === window.location.origin) return parsed.href;
  return `${PREVIEW_PATH}?url=${encodeURIComponent(parsed.href)}`;
}
