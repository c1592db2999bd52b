// Local accounts' passwords: the stored form (scrypt with its parameters and a salt of its own), a
// check that takes the right password only (also written with other Unicode forms of the same
// characters), stored values that are not such a hash, and a new password's bounds.
import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashPassword, passwordProblem, verifyPassword } from './passwords';

const PASSWORD = 'ﬁne long password';

describe('a stored password', () => {
  it('is scrypt with its parameters, a 16-byte salt and a 32-byte key, salted anew each time', async () => {
    const stored = await hashPassword(PASSWORD);
    const [scheme, n, r, p, salt, key] = stored.split('$');
    expect([scheme, n, r, p]).toEqual(['scrypt', '16384', '8', '1']);
    expect(Buffer.from(salt!, 'base64url')).toHaveLength(16);
    expect(Buffer.from(key!, 'base64url')).toHaveLength(32);
    expect(await hashPassword(PASSWORD)).not.toBe(stored);

    expect(await verifyPassword(PASSWORD, stored)).toBe(true);
    // The same characters in another Unicode form (NFKC) are the same password.
    expect(await verifyPassword('fine long password', stored)).toBe(true);
    expect(await verifyPassword('fine long passwore', stored)).toBe(false);
    // A key cut short, or a sixth part that is not scrypt's, is no match (and no error).
    expect(await verifyPassword(PASSWORD, stored.slice(0, -2))).toBe(false);
    expect(await verifyPassword(PASSWORD, stored.replace(/^scrypt/, 'bcrypt'))).toBe(false);
  });

  it('is checked with the parameters it was stored with, not the current ones', async () => {
    const salt = randomBytes(16);
    const params = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
    const key = scryptSync(PASSWORD.normalize('NFKC'), salt, 32, params);
    const stored = [
      'scrypt',
      params.N,
      params.r,
      params.p,
      salt.toString('base64url'),
      key.toString('base64url'),
    ];
    expect(await verifyPassword(PASSWORD, stored.join('$'))).toBe(true);
  });

  it('is never matched by nothing, or by text that is not one', async () => {
    for (const stored of [null, undefined, '', 'scrypt$16384$8$1$c2FsdA', 'scrypt$16384$8$1$c2FsdA$a2V5$x'])
      expect(await verifyPassword(PASSWORD, stored), String(stored)).toBe(false);
  });
});

describe('a new password', () => {
  it('takes 12 to 256 characters', () => {
    expect(passwordProblem('p'.repeat(11))).toBe('Use at least 12 characters.');
    expect(passwordProblem('p'.repeat(12))).toBeUndefined();
    expect(passwordProblem('p'.repeat(256))).toBeUndefined();
    expect(passwordProblem('p'.repeat(257))).toBe('Use at most 256 characters.');
  });
});
