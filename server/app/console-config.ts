// `GET /__console/config`: the backend in use, the callback address and who the request acts as;
// and the marker that lets the browser ask for the console's own inbox as a callback without ever
// knowing its secret path (server/proxy/console-inbox-marker.ts).
import type { Context, Hono, MiddlewareHandler } from 'hono';
import type { ConsoleInfo } from '../../src/api/console-info-schema';
import type { ServerConfig } from '../config/config';
import { NO_STORE } from '../http/no-store';
import { requestOrigin } from '../http/request-origin';
import { identityOf } from '../identity/request-identity';
import { consoleInboxMarker } from '../proxy/console-inbox-marker';

/** Mounts the marker on `/v1/*` and the config route; returns the marker's handlers. */
export function mountConsoleConfig(app: Hono, config: ServerConfig, inboxPath: string): MiddlewareHandler[] {
  const backend: Pick<ConsoleInfo, 'backend' | 'apiHost' | 'tokenConfigured'> = config.apiBaseUrl
    ? {
        backend: 'remote',
        apiHost: new URL(config.apiBaseUrl).host,
        tokenConfigured: Boolean(config.apiToken),
      }
    : { backend: 'emulator', apiHost: null, tokenConfigured: true };
  /** The inbox address the service can reach, or null when none is known (a real API without PUBLIC_BASE_URL). */
  const inboxUrl = (c: Context) => {
    const base = config.publicBaseUrl ?? (config.apiBaseUrl ? undefined : requestOrigin(c));
    return base ? `${base}${inboxPath}` : null;
  };
  const marker = consoleInboxMarker(inboxUrl, inboxPath.slice('/callbacks/'.length));
  app.use('/v1/*', ...marker);

  app.get('/__console/config', (c) => {
    // The in-process emulator reaches the inbox at the address the browser used; a real service
    // needs PUBLIC_BASE_URL, the console's address as seen from the internet. The browser gets it
    // without the secret: it sends the marker, and the server fills the address in (above).
    const callbackUrl = inboxUrl(c);
    const info: ConsoleInfo = {
      ...backend,
      callbackAddress: callbackUrl && `${new URL(callbackUrl).origin}/callbacks/…`,
      callbackUrlReachable: Boolean(callbackUrl),
      uploadMaxBytes: config.uploadMaxBytes,
    };
    const who = identityOf(c);
    if (who) info.user = { id: who.userId, name: who.name, role: who.role, source: who.source };
    return c.json(info, 200, NO_STORE);
  });
  return marker;
}
