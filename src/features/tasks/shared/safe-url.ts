// Links from the service reach href/src/poster only when they are plain http(s) URLs.
import { parseHttpUrl } from '@/api/core/http-url';

/** The normalized URL when it is http or https, otherwise undefined. */
export function safeMediaUrl(value: unknown): string | undefined {
  return typeof value === 'string' ? parseHttpUrl(value.trim())?.href : undefined;
}

export interface MediaLink {
  /** Safe to put in href/src/poster. */
  url?: string;
  /** What the service sent, to show as text when it is not safe. */
  raw?: string;
}

export function mediaLink(value: unknown): MediaLink {
  const raw = typeof value === 'string' && value.trim() ? value.trim() : undefined;
  return { url: safeMediaUrl(raw), raw };
}

/** The file name part of a URL, for download attributes and labels. */
export function fileNameOf(url: string, fallback: string): string {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last) : fallback;
  } catch {
    return fallback;
  }
}
