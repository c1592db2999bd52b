// Which request field a service message names. A module of its own, beside errors.ts, so that a
// form can place an error on a field without loading the error type and its texts at mount.
import { IMAGE_GENERATE_FIELDS, IMAGE_TO_VIDEO_FIELDS, VIDEO_TRANSLATE_FIELDS } from './request-fields';

export interface FieldBounds {
  min: string;
  max: string;
  current: string;
}

/** `<field> should be [<min>,<max>], current: <value>` (section 7, code 100002). */
const BOUNDS_MESSAGE = /^\s*([\w.[\]]+) should be \[([^,\]]*),([^\]]*)\], current: (.*)$/s;
/** The emulator and most validators put the field first: `prompt: ...` or `prompt is required`. */
const LEADING_FIELD = /^\s*([a-z][a-z0-9_]*)(?=[:\s])/;

export function parseBoundsMessage(msg: string): ({ field: string } & FieldBounds) | undefined {
  const match = BOUNDS_MESSAGE.exec(msg);
  if (!match) return undefined;
  const [, field, min, max, current] = match;
  return { field: field!, min: min!.trim(), max: max!.trim(), current: current!.trim() };
}

/**
 * Every field name a request body can have. A 100001 message only names a field if it names one of
 * these: "invalid character 'x' looking for beginning of value" must not mark a field `invalid`.
 */
export const REQUEST_FIELDS: readonly string[] = [
  ...new Set([...IMAGE_GENERATE_FIELDS, ...VIDEO_TRANSLATE_FIELDS, ...IMAGE_TO_VIDEO_FIELDS]),
];

/** The request field an error message names, if it names one of `knownFields`. */
export function fieldFromMessage(
  msg: string,
  knownFields: readonly string[] = REQUEST_FIELDS,
): string | undefined {
  const bounds = parseBoundsMessage(msg);
  const candidate = bounds?.field ?? LEADING_FIELD.exec(msg)?.[1];
  if (candidate && knownFields.includes(candidate)) return candidate;
  // Elsewhere in the message, the earliest known field wins, also in Go validator spelling
  // ("Field validation for 'GenerateCount' failed on the 'max' tag").
  let found: string | undefined;
  let foundAt = Infinity;
  for (const field of knownFields) {
    const pattern = field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/_/g, '_?');
    const at = msg.search(new RegExp(`(?<!\\w)${pattern}(?!\\w)`, 'i'));
    if (at >= 0 && at < foundAt) [found, foundAt] = [field, at];
  }
  return found;
}
