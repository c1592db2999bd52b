// Who made a request: the signed-in session's name, else the display name the browser sends. Used
// by the team's record, the proxy's and the emulator's upload quotas, and the sign-in form.
import type { Context } from 'hono';

export const CREATOR_HEADER = 'x-console-user';
const CREATOR_MAX = 80;

/** A name as the team sees it: no control characters, trimmed, at most `max` characters. */
export function cleanDisplayName(raw: string, max = CREATOR_MAX): string {
  return (
    raw
      // eslint-disable-next-line no-control-regex -- control characters never belong in a name
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .trim()
      .slice(0, max)
  );
}

/** The signed-in session's name (server/auth/auth.ts), else the display name the browser sends. */
export function creatorOf(c: Context): string | null {
  // Set by the sign-in guard (server/auth/auth.ts), handed over in the env by server/app/prod-app.ts.
  const fromSession = (c.env as Record<string, unknown> | undefined)?.consoleUser;
  if (typeof fromSession === 'string' && fromSession) return fromSession;
  const header = c.req.header(CREATOR_HEADER);
  if (!header) return null;
  let name = header;
  try {
    name = decodeURIComponent(header); // headers carry ASCII; the browser percent-encodes the name
  } catch {
    // kept as sent
  }
  return cleanDisplayName(name) || null;
}
