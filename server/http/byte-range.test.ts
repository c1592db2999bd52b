// The range rule both the emulator's media and the kept results follow, at each bound.
import { describe, expect, it } from 'vitest';
import { byteRange } from './byte-range';

describe('byteRange (a file of 100 bytes)', () => {
  it.each([
    ['bytes=0-99', { start: 0, end: 99 }],
    ['bytes=0-100', { start: 0, end: 99 }],
    ['bytes=99-', { start: 99, end: 99 }],
    ['bytes=100-', 'unsatisfiable'],
    ['bytes=100-110', 'unsatisfiable'],
    ['bytes=-1', { start: 99, end: 99 }],
    ['bytes=-100', { start: 0, end: 99 }],
    ['bytes=-101', { start: 0, end: 99 }],
    [' bytes=5-5 ', { start: 5, end: 5 }],
    ['bytes=5-4', undefined],
    ['bytes=-', undefined],
    ['bytes=0-1,5-6', undefined],
    ['items=0-1', undefined],
    ['xbytes=0-1', undefined],
    [null, undefined],
  ] as const)('%s -> %j', (header, expected) => {
    expect(byteRange(header, 100)).toEqual(expected);
  });
});
