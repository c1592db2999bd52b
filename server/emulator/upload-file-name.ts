// The name an upload is given back under (the provider's answer carries the file's name).
import type { MediaType } from '../../src/api/media-type';
import { withoutHiddenCharacters } from '../http/display-text';

/** The name given back in the answer: the browser's name without paths, with the real extension. */
export function safeFileName(name: string, type: MediaType): string {
  // Control and bidirectional control characters have no place in a name shown back to people.
  const trimmed = withoutHiddenCharacters(name.split(/[\\/]/).pop() ?? '').trim();
  // By code points, so a cut never leaves half of a surrogate pair.
  const base = Array.from(trimmed).slice(0, 200).join('');
  const stem = base.replace(/\.[^.]*$/, '') || 'file';
  const ext = /\.([^.]+)$/.exec(base)?.[1]?.toLowerCase();
  const matches = ext === type.ext || (type.ext === 'jpg' && ext === 'jpeg');
  return matches ? base : `${stem}.${type.ext}`;
}
