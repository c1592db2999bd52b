import ipaddr from 'ipaddr.js';

/** The address parsed, an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`) as the IPv4 inside it; undefined when not an IP. */
export function parseIp(address: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  if (!ipaddr.isValid(address)) return undefined;
  const parsed = ipaddr.parse(address);
  return parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()
    ? (parsed as ipaddr.IPv6).toIPv4Address()
    : parsed;
}
