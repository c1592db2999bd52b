/** A plain object (not null, not an array): the first check of every hand-written answer check. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
