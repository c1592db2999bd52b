import { describe, expect, it } from 'vitest';
import { COMPARE_MAX, COMPARE_MIN, compareIds } from './compare-rules';

describe('compareIds', () => {
  it(`takes ${COMPARE_MIN} to ${COMPARE_MAX} distinct ids, refuses one and five`, () => {
    expect(compareIds('?ids=a')).toBeUndefined();
    expect(compareIds('?ids=a,b')).toEqual(['a', 'b']);
    expect(compareIds('?ids=a,b,c,d')).toEqual(['a', 'b', 'c', 'd']);
    expect(compareIds('?ids=a,b,c,d,e')).toBeUndefined();
    // The same id twice is one result; empty parts are none.
    expect(compareIds('?ids=a,a')).toBeUndefined();
    expect(compareIds('?ids=a,,b,')).toEqual(['a', 'b']);
    expect(compareIds('')).toBeUndefined();
  });
});
