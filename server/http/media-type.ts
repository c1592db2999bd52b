// Content-Type read by parsing, never by prefix: `application/json, text/html` (two headers joined
// by a proxy, or one written that way) starts like JSON, yet a browser may sniff and render it as
// HTML. jshttp's content-type parser refuses anything that is not one well-formed media type.
import { format, parse } from 'content-type';

export interface MediaType {
  /** Lower-cased `type/subtype`. */
  type: string;
  parameters: Record<string, string>;
}

/** The header's media type, or undefined when it is absent or does not parse as exactly one. */
export function parseMediaType(header: string | null | undefined): MediaType | undefined {
  // The parser throws on an absent or empty header as on any other it cannot read.
  try {
    return parse(header as string);
  } catch {
    // Absent, empty or not one media type.
  }
  return undefined;
}

/** True only for exactly `application/json` (parameters such as charset allowed). */
export function isJsonMediaType(header: string | null | undefined): boolean {
  return parseMediaType(header)?.type === 'application/json';
}

/** The header written again from what was parsed, so nothing unparsed travels on. */
export function formatMediaType(type: MediaType): string {
  return format(type);
}
