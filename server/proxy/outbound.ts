// Every address the console server fetches on someone's word (reference images, callback URLs)
// goes through here. Private, loopback, link-local and other non-public targets are refused after
// DNS resolution (at connect time, so a name cannot change its answer between check and use) and
// again after each redirect; the console's own media and inbox are answered in-process instead.
// Refusals and network failures read the same, so the error text cannot map an internal network.
import { lookup, type LookupAddress } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { parseIp } from '../http/ip-address';

export const MAX_REDIRECTS = 5;

/** Thrown for any target that may not be fetched; deliberately says nothing about why. */
export class BlockedTargetError extends Error {
  constructor() {
    super('The address cannot be fetched');
    this.name = 'BlockedTargetError';
  }
}

/** Only ordinary public unicast addresses; IPv4-mapped IPv6 is judged as the IPv4 inside it. */
export function isPublicAddress(address: string): boolean {
  return parseIp(address)?.range() === 'unicast';
}

/** Resolves like Node does, then refuses the connection if any answer is not public. */
export const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
  lookup(hostname, { family, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(new BlockedTargetError(), []);
    if (addresses.length === 0 || !addresses.every((entry) => isPublicAddress(entry.address)))
      return callback(new BlockedTargetError(), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

const publicOnlyAgent = new Agent({ connect: { lookup: publicOnlyLookup } });

interface GuardedFetchOptions {
  /**
   * Answers requests to the console's own address in-process (its media, its callback inbox);
   * returns undefined for everything else.
   */
  local?: (url: URL, init: RequestInit) => Response | Promise<Response> | undefined;
  /** Tests replace the network; it receives only requests the guard let through. */
  transport?: (url: URL, init: RequestInit) => Promise<Response>;
}

const defaultTransport = (url: URL, init: RequestInit) =>
  undiciFetch(url, {
    ...(init as Parameters<typeof undiciFetch>[1]),
    redirect: 'manual',
    dispatcher: publicOnlyAgent,
  }) as unknown as Promise<Response>;

export function createGuardedFetch(options: GuardedFetchOptions = {}): typeof fetch {
  const transport = options.transport ?? defaultTransport;
  return async (input, init = {}) => {
    let url = new URL(input instanceof Request ? input.url : String(input));
    let request: RequestInit = { ...init, redirect: 'manual' };
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new BlockedTargetError();
      if (url.username || url.password) throw new BlockedTargetError();
      const own = options.local?.(url, request);
      if (own) return await own;
      // Stryker disable next-line Regex: a hostname holds brackets only around an IPv6 literal, so anchors change nothing
      const host = url.hostname.replace(/^\[|\]$/g, '');
      // Literal addresses never reach the DNS lookup, so they are judged here.
      if (isIP(host) && !isPublicAddress(host)) throw new BlockedTargetError();
      // Only the caller's own abort or timeout passes as itself; a refusal (ours, or wrapped by
      // undici as a cause) and any network failure read the same.
      const response = await transport(url, request).catch((error: unknown) => {
        if ((error as Error).name === 'AbortError' || (error as Error).name === 'TimeoutError') throw error;
        throw new BlockedTargetError();
      });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status > 399 || !location) return response;
      await response.body?.cancel().catch(() => undefined);
      url = new URL(location, url);
      // 303, and 301/302 after a POST, continue as GET without a body (as browsers do).
      if (
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && request.method === 'POST')
      )
        request = { ...request, method: 'GET', body: undefined };
    }
    throw new BlockedTargetError();
  };
}
