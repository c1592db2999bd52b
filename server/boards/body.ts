// What the boards' and stars' routes read from a request body.
export { NO_STORE } from '../http/no-store';

const storableId = (id: unknown) =>
  typeof id === 'string' && id.length > 0 && id.length <= 200 && !id.includes('\0');

/** Distinct task ids, in order (at most `max`), or undefined when it is not such a list. */
export function idsOf(value: unknown, max: number): string[] | 'too-many' | undefined {
  if (!Array.isArray(value) || !value.length || !value.every(storableId)) return undefined;
  const distinct = [...new Set(value as string[])];
  return distinct.length > max ? 'too-many' : distinct;
}
