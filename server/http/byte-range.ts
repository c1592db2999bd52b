// The one range of a `Range: bytes=a-b` header (also `a-` and `-n`), as RFC 9110 reads it: clamped
// to the size, a suffix longer than the file is the whole file, and a header that is not one
// satisfiable-or-not range (malformed, several ranges, last before first) is ignored: the whole
// body is sent. Written here rather than with range-parser, which answers 416 to those.

export type ByteRange = { start: number; end: number } | 'unsatisfiable' | undefined;

/** undefined: send the whole body; 'unsatisfiable': 416; else the bytes start..end (inclusive). */
export function byteRange(header: string | null | undefined, size: number): ByteRange {
  // Stryker disable next-line StringLiteral: no header and any other text without `bytes=` are both no range
  const match = /^bytes=(\d*)-(\d*)$/.exec(header?.trim() ?? '');
  if (!match || (!match[1] && !match[2])) return undefined;
  const start = match[1] ? Number(match[1]) : Math.max(0, size - Number(match[2]));
  const end = match[1] && match[2] ? Math.min(Number(match[2]), size - 1) : size - 1;
  if (match[1] && match[2] && Number(match[2]) < start) return undefined;
  // A start at or past the end of the file is unsatisfiable: end is at most size - 1, so that is
  // start > end (a separate `start >= size` test could never decide alone).
  return start > end ? 'unsatisfiable' : { start, end };
}
