// Links from the service reach href/src/poster only when they are plain http(s) URLs. React 19
// blocks `javascript:` in href and src but not in poster or srcSet, and `data:` passes everywhere.

/** The normalized URL when it is http or https, otherwise undefined. */
export function safeMediaUrl(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!/^https?:\/\//i.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
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
