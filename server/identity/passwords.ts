// Passwords of local accounts, hashed with scrypt (memory-hard, in node:crypto): 16 MiB and about
// 50 ms a hash, so a stolen table costs a guesser the same per try.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const PARAMS = { N: 2 ** 14, r: 8, p: 1 };
const KEY_BYTES = 32;
const PASSWORD_MIN = 12;
const PASSWORD_MAX = 256;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(
      password.normalize('NFKC'),
      salt,
      KEY_BYTES,
      { ...options, maxmem: 64 * 1024 * 1024 },
      (error, key) => (error ? reject(error) : resolve(key)),
    ),
  );
}

/** `scrypt$N$r$p$<salt>$<key>` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  // null and undefined are one part: no hash.
  const parts = String(stored).split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') {
    // Spend the same time on an unknown account as on a known one.
    await derive(password, Buffer.alloc(16), PARAMS);
    return false;
  }
  const [, n, r, p, salt, key] = parts;
  const expected = Buffer.from(key!, 'base64url');
  const actual = await derive(password, Buffer.from(salt!, 'base64url'), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Why a new password is refused, or undefined. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters.`;
  if (password.length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters.`;
  return undefined;
}
