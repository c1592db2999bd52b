// Who made a request: the signed-in session's name, else the display name the browser sends. Used
// by the team's record and the proxy's and the emulator's upload quotas.
import type { Context } from 'hono';
import { cleanDisplayName, DISPLAY_NAME_HEADER } from '../../src/api/display-name';

/** The signed-in session's name (server/auth/auth.ts), else the display name the browser sends. */
export function creatorOf(c: Context): string | null {
  // Set by the sign-in guard (server/auth/auth.ts), handed over in the env by server/app/prod-app.ts.
  const fromSession = (c.env as Record<string, unknown> | undefined)?.consoleUser;
  if (typeof fromSession === 'string' && fromSession) return fromSession;
  const header = c.req.header(DISPLAY_NAME_HEADER);
  if (!header) return null;
  let name = header;
  try {
    name = decodeURIComponent(header); // headers carry ASCII; the browser percent-encodes the name
  } catch {
    // kept as sent
  }
  return cleanDisplayName(name) || null;
}
