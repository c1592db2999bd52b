// Where the Node side's own outbound requests may go. This console's own host names answer the
// in-process emulator's media and the callback inbox in-process; the service's origin and
// MEDIA_ORIGINS, which an admin configured, are trusted wherever they are (a team's service or media
// on its own network); every other address must be public (server/proxy/outbound.ts).
import type { Hono } from 'hono';
import type { ServerConfig } from '../config/config';
import { createGuardedFetch } from '../proxy/outbound';

/** What the console serves that its emulator may fetch from itself: media, samples, the inbox. */
const OWN_PATHS = /^\/(emulator\/(media|samples|uploads)|callbacks)\//;

const bareHost = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

export interface OwnAddresses {
  /** Whether a URL names this console itself (loopback, or PUBLIC_BASE_URL's host). */
  isOwnHost(url: URL): boolean;
  /** The service's origin and MEDIA_ORIGINS: where a real service's results come from. */
  resultOrigins: Set<string>;
  /** This console as its follower asks it: PUBLIC_BASE_URL, or loopback. */
  ownOrigin: string;
}

export function ownAddressesOf(config: ServerConfig): OwnAddresses {
  const ownHosts = new Set(['localhost', '127.0.0.1', '::1']);
  if (config.publicBaseUrl) ownHosts.add(bareHost(new URL(config.publicBaseUrl).hostname));
  return {
    isOwnHost: (url) => ownHosts.has(bareHost(url.hostname)),
    resultOrigins: new Set([
      ...(config.apiBaseUrl ? [new URL(config.apiBaseUrl).origin] : []),
      ...(config.mediaOrigins ?? []),
    ]),
    ownOrigin: config.publicBaseUrl ?? 'http://localhost',
  };
}

/**
 * Whether a callback's result URL is the service's: from its own origin or MEDIA_ORIGINS (which the
 * page's CSP lets media load from); the emulator's from this console's /emulator/ paths.
 */
export function trustedResultUrlOf(config: ServerConfig, own: OwnAddresses) {
  return (url: URL, origin: string): boolean =>
    config.apiBaseUrl
      ? own.resultOrigins.has(url.origin)
      : (url.origin === new URL(origin).origin || own.isOwnHost(url)) &&
        url.pathname.startsWith('/emulator/');
}

/** Result downloads, kept copies and previews: the emulator's media in-process, the service's trusted. */
export function resultFetchOf(config: ServerConfig, own: OwnAddresses, app: Hono): typeof fetch {
  return createGuardedFetch({
    local: (url, init) =>
      own.isOwnHost(url) && /^\/emulator\/(media|samples)\//.test(url.pathname)
        ? app.fetch(new Request(url, init))
        : config.apiBaseUrl && own.resultOrigins.has(url.origin)
          ? fetch(url, { ...init, redirect: 'manual' })
          : undefined,
  });
}

/** Webhooks: public addresses, or the team's own network where WEBHOOK_PRIVATE_ORIGINS names it. */
export function webhookFetchOf(config: ServerConfig): typeof fetch {
  const privateWebhookOrigins = new Set(config.webhookPrivateOrigins ?? []);
  return createGuardedFetch({
    local: (url, init) => (privateWebhookOrigins.has(url.origin) ? fetch(url, init) : undefined),
  });
}

/**
 * The emulator fetches reference images and POSTs callbacks on anyone's word: only public
 * addresses, except this console's own media and inbox, which are answered in-process.
 */
export function emulatorFetchOf(own: OwnAddresses, app: Hono): typeof fetch {
  return createGuardedFetch({
    local: (url, init) =>
      own.isOwnHost(url) && OWN_PATHS.test(url.pathname) ? app.fetch(new Request(url, init)) : undefined,
  });
}
