// A share link's token: 32 random bytes (256 bits) as base64url, shown once to the person who made
// it. Only its sha256 is stored, and a visitor's token is found by its hash, so neither the
// database nor a timing of string comparisons tells anything about a live token.
import { createHash, randomBytes } from 'node:crypto';

/** 32 bytes in base64url without padding: 43 characters from [A-Za-z0-9_-]. */
export const SHARE_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const newShareToken = (): string => randomBytes(32).toString('base64url');

export const shareTokenHash = (token: string): string =>
  createHash('sha256').update(token).digest('base64url');
