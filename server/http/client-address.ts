// Who the client is, behind trusted proxies, and the key the brakes count it under (the sign-in
// brake, the callback senders' limit and the per-client caps on event streams).
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';
import { parseIp } from './ip-address';
import { peerAddress } from './request-origin';
import { LOOPBACK_PROXIES, type TrustedProxies } from './trusted-proxies';

/**
 * One key per client network: an IPv4 address, or an IPv6 /64 (one subscriber's prefix: a single
 * client can pick any of its 2^64 addresses, so counting per address would never brake it).
 */
export function addressKey(address: string): string {
  const parsed = parseIp(address);
  if (!parsed) return address;
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${parsed.toString()}/64`).toString()}/64`;
}

/**
 * The client's address. A peer that is not a trusted proxy (TRUSTED_PROXIES, loopback by default)
 * is the client, whatever it says in X-Forwarded-For. Behind trusted proxies the entries are read
 * from the right (each proxy appends the address it saw): the first that is not a trusted proxy is
 * the client. Only entries that parse as an IP address count: at the first one that does not
 * (`garbage-1`, `unknown`, a name), the walk stops at the last address it had. Undefined without a
 * socket (a request made inside the process).
 */
export function clientAddress(c: Context, trusted: TrustedProxies = LOOPBACK_PROXIES): string | undefined {
  const peer = peerAddress(c);
  // Stryker disable next-line ConditionalExpression: without a peer every step below gives undefined too
  if (!peer) return undefined;
  let client = parseIp(peer)?.toString() ?? peer;
  if (!trusted(peer)) return client;
  // Stryker disable next-line StringLiteral: whatever stands in for a missing header is no IP address, so the walk stops at once
  const hops = (c.req.header('x-forwarded-for') ?? '').split(',').map((hop) => hop.trim());
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = strictIp(hops[i]!);
    if (!hop) break;
    client = hop.toString();
    if (!trusted(client)) break;
  }
  return client;
}

/** Only the ordinary spellings: `1.2.3.4` or IPv6; not `1`, `0x7f.1` or `010.0.0.1`, which ipaddr.js also reads. */
function strictIp(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const ordinary = ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);
  return ordinary ? parseIp(text) : undefined;
}

/** The key the brakes count under: the client's network (see addressKey), or 'unknown'. */
export function clientKey(c: Context, trusted: TrustedProxies = LOOPBACK_PROXIES): string {
  const address = clientAddress(c, trusted);
  return address ? addressKey(address) : 'unknown';
}
