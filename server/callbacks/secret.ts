// The inbox URL is the only thing protecting POST /callbacks/<secret>: the service cannot send a
// header we choose, so the secret lives in the path. It is either given (CALLBACK_SECRET) or made
// once and kept in DATA_DIR, so the URL registered with the service survives restarts.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const SECRET_FILE = 'callback-secret';
export const SECRET_RULE =
  'CALLBACK_SECRET must be 16 to 200 characters of A-Z, a-z, 0-9, ".", "_", "~" or "-"';

/** 16 to 200 characters that survive a URL path segment untouched. */
export function isValidCallbackSecret(value: string): boolean {
  // The pattern is made here, not once at load, so that the mutation run can tell its variants apart.
  return /^[A-Za-z0-9._~-]{16,200}$/.test(value);
}

export function resolveCallbackSecret(dataDir: string, configured: string | undefined): string {
  if (configured !== undefined) {
    if (!isValidCallbackSecret(configured)) {
      throw new Error(SECRET_RULE);
    }
    return configured;
  }
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, SECRET_FILE);
  try {
    // `wx`: when two processes start on the same DATA_DIR at once, exactly one secret wins.
    writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stored = readFileSync(file, 'utf8').trim();
  if (!isValidCallbackSecret(stored))
    throw new Error(`${file} does not hold a valid callback secret; delete it to make a new one`);
  return stored;
}

/** Constant-time comparison, so response timing does not leak the secret byte by byte. */
export function secretMatches(expected: string, candidate: string | undefined): boolean {
  if (candidate === undefined) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(candidate);
  return a.length === b.length && timingSafeEqual(a, b);
}
