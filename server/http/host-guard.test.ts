import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { hostGuard, hostNameOf, isAllowedHost } from './host-guard';

const OPTIONS = {
  bindHost: '0.0.0.0',
  publicBaseUrl: 'https://console.example.com',
  allowedHosts: ['media.internal', '.corp.example'],
};

describe('Host allow-list (DNS rebinding)', () => {
  it('reads the host name out of a Host header', () => {
    expect(hostNameOf('Console.Example.com:8443')).toBe('console.example.com');
    expect(hostNameOf('[::1]:8080')).toBe('::1');
    expect(hostNameOf('localhost.')).toBe('localhost');
    expect(hostNameOf('')).toBeUndefined();
    expect(hostNameOf('a b')).toBeUndefined();
    expect(hostNameOf(' Localhost ')).toBe('localhost');
  });

  it.each([
    'localhost:8080',
    'app.localhost',
    '127.0.0.1:8080',
    '[::1]:8080',
    '192.168.1.20:8080',
    'console.example.com',
    'CONSOLE.EXAMPLE.COM:443',
    'media.internal',
    'corp.example',
    'team.corp.example',
  ])('answers %s', (host) => {
    expect(isAllowedHost(host, OPTIONS)).toBe(true);
  });

  it.each([
    'evil.example',
    'console.example.com.evil.example',
    'evilcorp.example',
    'media.internal.evil.example',
    '',
    undefined,
  ])('refuses %s', (host) => {
    expect(isAllowedHost(host, OPTIONS)).toBe(false);
  });

  it('knows the bind address as a name, and nothing when bound to all interfaces', () => {
    expect(
      isAllowedHost('console.lan', { bindHost: 'console.lan', publicBaseUrl: undefined, allowedHosts: [] }),
    ).toBe(true);
    expect(
      isAllowedHost('console.lan', { bindHost: '0.0.0.0', publicBaseUrl: undefined, allowedHosts: [] }),
    ).toBe(false);
    // An exact entry is not a domain: a name that merely ends with it is someone else's.
    const exact = { bindHost: '0.0.0.0', publicBaseUrl: undefined, allowedHosts: ['console.lan'] };
    expect(isAllowedHost('console.lan', exact)).toBe(true);
    expect(isAllowedHost('evilconsole.lan', exact)).toBe(false);
  });

  it('answers 421 before anything else runs', async () => {
    let reached = false;
    const app = new Hono();
    app.use(hostGuard(OPTIONS));
    app.get('/', (c) => {
      reached = true;
      return c.text('ok');
    });
    const refused = await app.request('http://evil.example/');
    expect(refused.status).toBe(421);
    expect(await refused.text()).toBe(
      'This console does not answer to that host name. Add it to ALLOWED_HOSTS if it is yours.',
    );
    expect(reached).toBe(false);
    expect((await app.request('http://127.0.0.1/')).status).toBe(200);
  });
});
