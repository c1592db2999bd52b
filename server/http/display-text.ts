// Text that people read back (uploaded file names): without the characters that hide or disguise
// what it says. A right-to-left override turns "photo\u202Egnp.exe" into "photoexe.png" on screen;
// control characters and line separators break lines and logs.

/**
 * Control characters (C0, DEL, C1), the line and paragraph separators, and the bidirectional
 * controls: marks (U+061C, U+200E, U+200F), embeddings and overrides (U+202A-U+202E) and
 * isolates (U+2066-U+2069). Joiners (U+200D, used by emoji) are not among them.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;

/** The text without control, separator and bidirectional control characters. */
export function withoutHiddenCharacters(text: string): string {
  return text.replace(HIDDEN, '');
}

/** The longest display name the team's record keeps. */
const DISPLAY_NAME_MAX = 80;

/**
 * A name as the team sees it: no control characters, trimmed, at most `max` characters. The server
 * cleans the names it records with it (the identity provider's, the sign-in forms').
 */
export function cleanDisplayName(raw: string, max = DISPLAY_NAME_MAX): string {
  return (
    raw
      // eslint-disable-next-line no-control-regex -- control characters never belong in a name
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .trim()
      .slice(0, max)
  );
}
