// The one check for "an absolute http(s) URL", used by the request schemas, the media links the
// gallery renders, the form previews and the emulator's callbacks and downloads. React 19 swaps a
// `javascript:` URL in href, src or action for one that throws, but checks nothing in poster or
// srcSet, and `data:` passes everywhere, so anything else must never reach those attributes.

/** The parsed URL when the text is an absolute http or https URL, otherwise undefined. */
export function parseHttpUrl(text: string): URL | undefined {
  // `new URL` alone accepts `http:example.com`; the service wants the `//` form.
  if (!/^https?:\/\//i.test(text)) return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

export function isHttpUrl(value: unknown): value is string {
  return typeof value === 'string' && parseHttpUrl(value) !== undefined;
}
