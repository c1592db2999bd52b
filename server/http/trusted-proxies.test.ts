import { describe, expect, it } from 'vitest';
import { LOOPBACK_PROXIES, parseTrustedProxies } from './trusted-proxies';

describe('TRUSTED_PROXIES', () => {
  it('reads one IPv6 address as itself alone, and an IPv4-mapped range as the IPv4 range it maps', () => {
    const single = parseTrustedProxies('2001:db8::5').trusted;
    expect([single('2001:db8::5'), single('2001:db8::6')]).toEqual([true, false]);
    const mapped = parseTrustedProxies('::ffff:10.0.0.0/120').trusted;
    expect([mapped('10.0.0.255'), mapped('::ffff:10.0.0.7'), mapped('10.0.1.0')]).toEqual([
      true,
      true,
      false,
    ]);
    // /96 is the whole IPv4 space; one bit less is an IPv6 range no IPv4 peer is in.
    expect(parseTrustedProxies('::ffff:0.0.0.0/96').trusted('203.0.113.1')).toBe(true);
    expect(parseTrustedProxies('::ffff:0.0.0.0/95').trusted('203.0.113.1')).toBe(false);
  });

  it('keeps a narrow IPv6 range that maps no IPv4 as IPv6, and lists nothing invalid when unset', () => {
    const narrow = parseTrustedProxies('2001:db8::/120');
    expect(narrow.invalid).toEqual([]);
    expect([narrow.trusted('2001:db8::ff'), narrow.trusted('2001:db8::100')]).toEqual([true, false]);
    for (const unset of [undefined, '', ' , '])
      expect(parseTrustedProxies(unset).invalid, JSON.stringify(unset)).toEqual([]);
  });

  it('trusts loopback by default, IPv4-mapped included, and nothing else', () => {
    for (const trusted of [
      LOOPBACK_PROXIES,
      parseTrustedProxies(undefined).trusted,
      parseTrustedProxies(' ').trusted,
    ]) {
      for (const address of ['127.0.0.1', '127.255.255.255', '::1', '::ffff:127.0.0.1'])
        expect(trusted(address), address).toBe(true);
      for (const address of ['128.0.0.0', '126.255.255.255', '::2', '10.0.0.1', 'localhost', 'garbage-1'])
        expect(trusted(address), address).toBe(false);
    }
  });

  it('reads addresses and CIDR ranges, exactly to their edges', () => {
    const { trusted, invalid } = parseTrustedProxies('10.0.0.0/30, 192.0.2.7 2001:db8::/64,loopback');
    expect(invalid).toEqual([]);
    for (const address of [
      '10.0.0.0',
      '10.0.0.3',
      '192.0.2.7',
      '::ffff:192.0.2.7',
      '2001:db8::ffff',
      '127.0.0.1',
    ])
      expect(trusted(address), address).toBe(true);
    for (const address of [
      '10.0.0.4',
      '9.255.255.255',
      '192.0.2.6',
      '192.0.2.8',
      '2001:db8:0:1::',
      '::ffff:10.0.0.4',
    ])
      expect(trusted(address), address).toBe(false);
  });

  it('trusts nobody with none, and lists entries that are not addresses', () => {
    const none = parseTrustedProxies('none').trusted;
    expect(none('127.0.0.1')).toBe(false);
    expect(none('::1')).toBe(false);
    expect(parseTrustedProxies('none').invalid).toEqual([]);
    expect(parseTrustedProxies(' NONE ').invalid).toEqual([]);
    // `none` among others is no keyword: the others are still trusted.
    const mixed = parseTrustedProxies('none 10.0.0.1');
    expect(mixed.invalid).toEqual(['none']);
    expect(mixed.trusted('10.0.0.1')).toBe(true);
    expect(parseTrustedProxies('10.0.0.1, nginx.local, 10.0.0.0/33, none').invalid).toEqual([
      'nginx.local',
      '10.0.0.0/33',
      'none',
    ]);
  });
});
