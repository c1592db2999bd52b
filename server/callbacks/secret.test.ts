// The inbox secret is the callback's only proof of origin: compared whole, never by its length.
import { describe, expect, it } from 'vitest';
import { secretMatches } from './secret';

const SECRET = 'test-secret-0123456789abcdef';

describe('secretMatches', () => {
  it('takes exactly the secret', () => {
    expect(secretMatches(SECRET, SECRET)).toBe(true);
  });

  it('refuses a wrong secret of the same length, however close', () => {
    expect(secretMatches(SECRET, 'x'.repeat(SECRET.length))).toBe(false);
    expect(secretMatches(SECRET, `${SECRET.slice(0, -1)}0`)).toBe(false);
    expect(secretMatches(SECRET, `0${SECRET.slice(1)}`)).toBe(false);
  });

  it('refuses a prefix, a longer text and no secret at all', () => {
    expect(secretMatches(SECRET, SECRET.slice(0, -1))).toBe(false);
    expect(secretMatches(SECRET, `${SECRET}0`)).toBe(false);
    expect(secretMatches(SECRET, '')).toBe(false);
    expect(secretMatches(SECRET, undefined)).toBe(false);
  });
});
