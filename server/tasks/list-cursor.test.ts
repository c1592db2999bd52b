// A page's cursor as text (server/tasks/list-cursor.ts): written and read back, each part at its
// bound and one past it. A cursor a client made up is read as none, never as another place.
import { describe, expect, it } from 'vitest';
import { decodeCursor, encodeCursor } from './list-cursor';

describe('the cursor', () => {
  it('reads back what it wrote, with a sort key of any sign (0 included) or without one', () => {
    const view = { createdAt: 1767225600123, id: 'task-1.b' };
    expect(encodeCursor(view)).toBe('1767225600123.task-1.b');
    expect(decodeCursor(encodeCursor(view))).toEqual({ at: new Date(1767225600123), id: 'task-1.b' });
    for (const key of [0, -1, 12.5]) {
      expect(encodeCursor(view, key)).toBe(`${key}~1767225600123.task-1.b`);
      expect(decodeCursor(encodeCursor(view, key))).toEqual({
        key,
        at: new Date(1767225600123),
        id: 'task-1.b',
      });
    }
  });

  it('takes a time of 1 to 15 digits and a key of at most 15 digits and 20 decimals', () => {
    expect(decodeCursor(`${'9'.repeat(15)}.t`)?.at).toEqual(new Date(999999999999999));
    expect(decodeCursor('0.t')?.at).toEqual(new Date(0));
    expect(decodeCursor(`${'1'.repeat(15)}.${'2'.repeat(20)}~5.t`)?.key).toBe(
      Number(`${'1'.repeat(15)}.${'2'.repeat(20)}`),
    );
    for (const wrong of [
      `${'9'.repeat(16)}.t`,
      `${'1'.repeat(16)}~5.t`,
      '~5.t',
      '5.',
      '5.a\nb',
      '5',
      'x5.t',
      '-5.t',
      '5~x.t',
      '',
    ])
      expect(decodeCursor(wrong), wrong).toBeUndefined();
    expect(decodeCursor(undefined)).toBeUndefined();
    // A key of 21 decimals is no key: the whole is a time of 1 ms and an id (no task has).
    expect(decodeCursor(`1.${'2'.repeat(21)}~5.t`)).toEqual({ at: new Date(1), id: `${'2'.repeat(21)}~5.t` });
  });
});
