import { describe, expect, it } from 'vitest';
import { cleanDisplayName, withoutHiddenCharacters } from './display-text';

describe('withoutHiddenCharacters', () => {
  it('removes each range exactly at its bounds, and keeps the character one past each', () => {
    const removed = [
      '\u0000',
      '\u001f',
      '\u007f',
      '\u0080',
      '\u009f',
      '\u061c',
      '\u200e',
      '\u200f',
      '\u2028',
      '\u2029',
      '\u202a',
      '\u202e',
      '\u2066',
      '\u2069',
    ];
    for (const char of removed)
      expect(withoutHiddenCharacters(`a${char}b`), char.codePointAt(0)!.toString(16)).toBe('ab');
    // One past each bound: printable or harmless, kept (U+200D joins emoji, U+00A0 is a space).
    const kept = [
      ' ',
      '~',
      '\u00a0',
      '\u061b',
      '\u061d',
      '\u200d',
      '\u2010',
      '\u2027',
      '\u202f',
      '\u2065',
      '\u206a',
    ];
    for (const char of kept)
      expect(withoutHiddenCharacters(`a${char}b`), char.codePointAt(0)!.toString(16)).toBe(`a${char}b`);
  });

  it('keeps letters of every script and emoji sequences', () => {
    expect(withoutHiddenCharacters('Zoë 東京 مرحبا 👩‍💻.png')).toBe('Zoë 東京 مرحبا 👩‍💻.png');
  });
});

describe('cleanDisplayName', () => {
  it('removes C0 controls and DEL, keeps the printable character beside each bound, trims, cuts at max', () => {
    expect(cleanDisplayName('A\u0000d\u001fa\u007f \u0080~')).toBe('Ada \u0080~');
    expect(cleanDisplayName('  Ada Lovelace\n ')).toBe('Ada Lovelace');
    expect(cleanDisplayName('a'.repeat(80))).toBe('a'.repeat(80));
    expect(cleanDisplayName('b'.repeat(81))).toBe('b'.repeat(80));
    expect(cleanDisplayName('abcd', 3)).toBe('abc');
    expect(cleanDisplayName('abc', 3)).toBe('abc');
  });
});
