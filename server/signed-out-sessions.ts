// Sign-outs that outlive the process. A session cookie cannot be taken back, so a signed-out
// session id is remembered until the cookie would have expired anyway. The store sits behind a
// small interface so it can move into the database with the rest of the server's state.
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SignedOutSessions {
  has(id: string): boolean;
  add(id: string, expiresAt: number): void;
}

export const SIGNED_OUT_FILE = 'signed-out-sessions';

/** In DATA_DIR, one `id expiresAt` line per sign-out; expired lines are dropped when loaded. */
export function fileSignedOutSessions(dataDir: string, now: () => number = Date.now): SignedOutSessions {
  const file = join(dataDir, SIGNED_OUT_FILE);
  const ids = new Map<string, number>();
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // One line per sign-out within the 7-day cookie life: small enough to read whole.
  for (const line of text.split('\n')) {
    const [id, expires] = line.split(' ');
    const expiresAt = Number(expires);
    if (id && expiresAt > now()) ids.set(id, expiresAt);
  }
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, [...ids].map(([id, expiresAt]) => `${id} ${expiresAt}\n`).join(''), { mode: 0o600 });
  return {
    has: (id) => (ids.get(id) ?? 0) > now(),
    add(id, expiresAt) {
      ids.set(id, expiresAt);
      appendFileSync(file, `${id} ${expiresAt}\n`);
    },
  };
}

export function memorySignedOutSessions(now: () => number = Date.now): SignedOutSessions {
  const ids = new Map<string, number>();
  return { has: (id) => (ids.get(id) ?? 0) > now(), add: (id, expiresAt) => void ids.set(id, expiresAt) };
}
