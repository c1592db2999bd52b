// The inbox secret is the callback's only proof of origin: compared whole, never by its length.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isValidCallbackSecret, resolveCallbackSecret, SECRET_FILE, secretMatches } from './secret';

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

describe('isValidCallbackSecret', () => {
  it('takes 16 to 200 URL-safe characters, and nothing around them', () => {
    for (const ok of ['a'.repeat(16), 'A-z_0.9~'.repeat(25)]) expect(isValidCallbackSecret(ok)).toBe(true);
    for (const bad of [
      'a'.repeat(15),
      'a'.repeat(201),
      `/${'a'.repeat(16)}`,
      `${'a'.repeat(16)}/`,
      `${'a'.repeat(16)}\n`,
    ])
      expect(isValidCallbackSecret(bad), JSON.stringify(bad)).toBe(false);
  });
});

describe('resolveCallbackSecret', () => {
  it('refuses a kept secret that is not one, and a place where none can be kept', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-'));
    try {
      writeFileSync(join(dir, SECRET_FILE), 'short\n');
      expect(() => resolveCallbackSecret(dir, undefined)).toThrow(
        `${join(dir, SECRET_FILE)} does not hold a valid callback secret; delete it to make a new one`,
      );
      rmSync(join(dir, SECRET_FILE));
      mkdirSync(join(dir, SECRET_FILE));
      expect(() => resolveCallbackSecret(dir, undefined)).toThrow(/EISDIR/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
