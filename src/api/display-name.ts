// The name this browser's user goes by on the team's record (creator of the tasks made here). It is
// kept in localStorage and sent with every /v1 request; the server records it. With APP_PASSWORD
// the signed-in session's name is meant to win on the server.
const KEY = 'media-console:display-name';
export const DISPLAY_NAME_HEADER = 'x-console-user';
export const DISPLAY_NAME_MAX = 80;

/**
 * A name as the team sees it: no control characters, trimmed, at most `max` characters. The server
 * cleans the names it records with it (the header's, the sign-in form's).
 */
export function cleanDisplayName(raw: string, max = DISPLAY_NAME_MAX): string {
  return (
    raw
      // eslint-disable-next-line no-control-regex -- control characters never belong in a name
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .trim()
      .slice(0, max)
  );
}

export function readDisplayName(): string {
  try {
    return localStorage.getItem(KEY)?.trim() ?? '';
  } catch {
    return ''; // storage blocked: no name, nothing breaks
  }
}

const listeners = new Set<() => void>();

/** For useSyncExternalStore: the Tasks screen's "Mine" and the name prompt follow Settings. */
export function subscribeDisplayName(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Saves the trimmed name (empty clears it); returns what was saved. */
export function saveDisplayName(name: string): string {
  const value = name.trim().slice(0, DISPLAY_NAME_MAX);
  try {
    if (value) localStorage.setItem(KEY, value);
    else localStorage.removeItem(KEY);
  } catch {
    // storage blocked: the name lasts for this page only
  }
  for (const listener of listeners) listener();
  return value;
}

const ASKED_KEY = 'media-console:display-name-asked';

/** The first-visit prompt asks once: saved or dismissed, it does not come back (Settings stays). */
export function nameWasAsked(): boolean {
  try {
    return localStorage.getItem(ASKED_KEY) === '1';
  } catch {
    return true; // storage blocked: asking on every page would nag
  }
}

export function markNameAsked(): void {
  try {
    localStorage.setItem(ASKED_KEY, '1');
  } catch {
    // storage blocked
  }
  for (const listener of listeners) listener();
}

/** Headers carry ASCII only: the name goes percent-encoded, the server decodes it. */
export function displayNameHeaders(): Record<string, string> {
  const name = readDisplayName();
  return name ? { [DISPLAY_NAME_HEADER]: encodeURIComponent(name) } : {};
}
