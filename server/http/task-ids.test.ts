// The one rule for a body's list of task ids: at the bounds of an id's length and of the list's.
import { describe, expect, it } from 'vitest';
import { z } from '../../src/api/zod';
import { taskIdList, tooManyOr } from './task-ids';

const TOO_MANY = 'At most 3 at once';
const list = taskIdList(3, TOO_MANY);
const reason = tooManyOr(TOO_MANY, 'Send {"ids": [task ids]}');
const refusal = (value: unknown) => {
  const parsed = list.safeParse(value);
  return parsed.success ? undefined : reason(parsed.error.issues);
};

describe('a list of task ids', () => {
  it('takes ids of 1 and 200 characters, refuses 0, 201 and one with a NUL', () => {
    expect(list.safeParse(['a', 'b'.repeat(200)]).data).toEqual(['a', 'b'.repeat(200)]);
    for (const bad of ['', 'c'.repeat(201), 'd\0e', 7])
      expect(refusal(['a', bad])).toBe('Send {"ids": [task ids]}');
  });

  it('drops repeats in order, then holds exactly the most and refuses one more', () => {
    expect(list.safeParse(['x', 'y', 'x', 'z', 'y']).data).toEqual(['x', 'y', 'z']);
    expect(refusal(['a', 'b', 'c', 'd'])).toBe(TOO_MANY);
    expect(refusal(['a', 'b', 'c', 'a'])).toBeUndefined();
  });

  it('refuses no list, an empty one and something else', () => {
    for (const bad of [undefined, [], 'a', { ids: ['a'] }])
      expect(refusal(bad)).toBe('Send {"ids": [task ids]}');
  });
});

describe('the reason of a body with more than the list', () => {
  it('is the list being too long, even when another field is wrong too', () => {
    const body = z.object({ ids: list, hidden: z.boolean() });
    const parsed = body.safeParse({ ids: ['a', 'b', 'c', 'd'], hidden: 'yes' });
    expect(parsed.error?.issues).toHaveLength(2);
    expect(reason(parsed.error!.issues)).toBe(TOO_MANY);
  });
});
