// The lookup box: one or many task ids, separated by spaces, commas, semicolons or new lines.
import type { TaskKind } from './history';

const SEPARATORS = /[\s,;]+/;
/** Ids are opaque, but anything with quotes, slashes or control characters is a paste accident. */
const PLAUSIBLE_ID = /^[\w.:-]{1,200}$/;

export interface ParsedIds {
  ids: string[];
  invalid: string[];
}

export function parseTaskIds(text: string): ParsedIds {
  const ids: string[] = [];
  const invalid: string[] = [];
  for (const token of text.split(SEPARATORS)) {
    const id = token.trim().replace(/^["'`]+|["'`]+$/g, '');
    if (!id) continue;
    if (!PLAUSIBLE_ID.test(id)) invalid.push(id);
    else if (!ids.includes(id)) ids.push(id);
  }
  return { ids, invalid };
}

const PREFIXES: readonly [string, TaskKind][] = [
  ['i2is-', 'image_generate'],
  ['i2v-', 'image_to_video'],
  ['vt-', 'video_translate'],
];

/** The kind the history knows, else the provider's id prefix, else image-to-video. */
export function inferTaskKind(id: string, known?: TaskKind): TaskKind {
  if (known) return known;
  const lower = id.toLowerCase();
  return PREFIXES.find(([prefix]) => lower.startsWith(prefix))?.[1] ?? 'image_to_video';
}
