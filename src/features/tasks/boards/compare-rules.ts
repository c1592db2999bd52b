// How many results Compare shows side by side: the selection, the board page and the compare screen
// hold to it.
export const COMPARE_MIN = 2;
export const COMPARE_MAX = 4;

/** The ids of `/compare?ids=a,b`: distinct, non-empty, in order; none when there are too few or too many. */
export function compareIds(search: string): string[] | undefined {
  const raw = new URLSearchParams(search).get('ids') ?? '';
  const ids = [
    ...new Set(
      raw
        .split(',')
        .map((id) => id.trim())
        .filter(Boolean),
    ),
  ];
  return ids.length >= COMPARE_MIN && ids.length <= COMPARE_MAX ? ids : undefined;
}
