// Which peers may say who the client is (X-Forwarded-For): TRUSTED_PROXIES, comma- or
// space-separated addresses and CIDR ranges, `loopback` (the default: nginx on the same machine)
// or `none`. Any other peer is the client itself, whatever headers it sends.
import ipaddr from 'ipaddr.js';
import { parseIp } from './ip-address';

/** True when the peer at `address` is a proxy whose X-Forwarded-For is believed. */
export type TrustedProxies = (address: string) => boolean;

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

// Built when asked for (two short parses): a list built at load would be fixed before a test could
// change it, and a mistake in it would go unseen.
const loopback = (): Range[] => [ipaddr.parseCIDR('127.0.0.0/8'), ipaddr.parseCIDR('::1/128')];

function rangeOf(entry: string): Range[] | undefined {
  if (entry.toLowerCase() === 'loopback') return loopback();
  if (entry.includes('/')) {
    try {
      const [address, bits] = ipaddr.parseCIDR(entry);
      // `::ffff:10.0.0.0/104` is the IPv4 range it maps; peers are compared as IPv4.
      if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96)
        return [[(address as ipaddr.IPv6).toIPv4Address(), bits - 96]];
      return [[address, bits]];
    } catch {
      // Not a range: parseIp below refuses it too (it holds a slash).
    }
  }
  const address = parseIp(entry);
  // The whole address: 32 bits for IPv4, 128 for IPv6.
  return address ? [[address, address.toByteArray().length * 8]] : undefined;
}

function matcher(ranges: Range[]): TrustedProxies {
  return (raw) => {
    const address = parseIp(raw);
    return Boolean(
      address && ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits)),
    );
  };
}

/** Loopback only: TRUSTED_PROXIES unset. */
export const LOOPBACK_PROXIES: TrustedProxies = (address) => matcher(loopback())(address);

/**
 * TRUSTED_PROXIES read: unset or blank means loopback, `none` means no proxy at all. `invalid`
 * lists the entries that are not an address, a CIDR range or a keyword (they trust nothing).
 */
export function parseTrustedProxies(raw: string | undefined): { trusted: TrustedProxies; invalid: string[] } {
  // Stryker disable next-line Regex: a run of separators split one by one leaves empty entries, which are dropped
  const entries = (raw ?? '').split(/[\s,]+/).filter(Boolean);
  if (entries.length === 0) return { trusted: LOOPBACK_PROXIES, invalid: [] };
  if (entries.length === 1 && entries[0]!.toLowerCase() === 'none')
    return { trusted: () => false, invalid: [] };
  const ranges: Range[] = [];
  const invalid: string[] = [];
  for (const entry of entries) {
    const found = rangeOf(entry);
    if (found) ranges.push(...found);
    else invalid.push(entry);
  }
  return { trusted: matcher(ranges), invalid };
}
