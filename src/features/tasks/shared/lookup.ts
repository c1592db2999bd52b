// The lookup box: one or many task ids, separated by spaces, commas, semicolons or new lines.
import type { TaskType } from '@/api/schemas';
import { taskTypeOfId } from '@/api/query/task-types';

const SEPARATORS = /[\s,;]+/;
/** Ids are opaque, but anything with quotes, slashes or control characters is a paste accident. */
const PLAUSIBLE_ID = /^[\w.:-]{1,200}$/;

interface ParsedIds {
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

/** The kind the history knows, else the provider's id prefix, else image-to-video. */
export function inferTaskKind(id: string, known?: TaskType): TaskType {
  if (known) return known;
  return taskTypeOfId(id) ?? 'image_to_video';
}
