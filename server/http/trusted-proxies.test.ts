import { describe, expect, it } from 'vitest';
import { LOOPBACK_PROXIES, parseTrustedProxies } from './trusted-proxies';

describe('TRUSTED_PROXIES', () => {
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
    expect(parseTrustedProxies('10.0.0.1, nginx.local, 10.0.0.0/33, none').invalid).toEqual([
      'nginx.local',
      '10.0.0.0/33',
      'none',
    ]);
  });
});
