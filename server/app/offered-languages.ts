// The target languages the service offers, which the spending limits check a translation's list
// against before they count it: the service's own list, asked through the app (the proxy adds the token).
import type { Hono } from 'hono';
import { API_PATHS } from '../../src/api/paths';
import { TARGET_LANGUAGES } from '../../src/api/schemas';
import type { ServerConfig } from '../config/config';
import { IDENTITY_KEY, SYSTEM_IDENTITY } from '../identity/request-identity';

/** How long the service's list of target languages is believed before it is asked again. */
const LANGUAGES_TTL_MS = 10 * 60_000;

/**
 * The target languages the service offers: the emulator's are TARGET_LANGUAGES; a real service is
 * asked through this app (the proxy adds the token), once per LANGUAGES_TTL_MS, and when it cannot
 * say, the console's own list stands in (a minute, then it is asked again).
 */
export function offeredLanguagesOf(config: ServerConfig, app: Hono): () => Promise<readonly string[]> {
  if (!config.apiBaseUrl) return () => Promise.resolve(TARGET_LANGUAGES);
  let cached: { list: readonly string[]; until: number } | undefined;
  return async () => {
    if (cached && Date.now() < cached.until) return cached.list;
    const answer = await Promise.resolve(
      app.fetch(
        new Request(`http://localhost${API_PATHS.targetLanguages}`, {
          headers: { accept: 'application/json' },
        }),
        { [IDENTITY_KEY]: SYSTEM_IDENTITY },
      ),
    )
      .then((response: Response) => response.json() as Promise<{ code?: unknown; data?: unknown }>)
      .catch(() => undefined);
    const list = answer?.code === 0 && Array.isArray(answer.data) ? answer.data : undefined;
    cached =
      list && list.length && list.every((item: unknown) => typeof item === 'string')
        ? { list: list as string[], until: Date.now() + LANGUAGES_TTL_MS }
        : { list: TARGET_LANGUAGES, until: Date.now() + 60_000 };
    return cached.list;
  };
}
