// Which addresses the Node side takes for its own, and which result URLs it trusts: loopback and
// PUBLIC_BASE_URL's host are its own; a real service's results come only from its origin and
// MEDIA_ORIGINS; the emulator's only from this console's /emulator/ paths.
import { describe, expect, it } from 'vitest';
import { readServerConfig } from '../config/config';
import { ownAddressesOf, trustedResultUrlOf } from './own-addresses';

const emulatorConfig = readServerConfig({
  DATA_DIR: '/nonexistent',
  PUBLIC_BASE_URL: 'https://console.example.com',
});
const remoteConfig = readServerConfig({
  DATA_DIR: '/nonexistent',
  API_BASE_URL: 'https://api.example.com',
  MEDIA_ORIGINS: 'https://media.example.com',
});

describe('ownAddressesOf', () => {
  it('takes loopback (IPv6 in brackets too) and PUBLIC_BASE_URL’s host for its own, nothing else', () => {
    const own = ownAddressesOf(emulatorConfig);
    for (const url of [
      'http://localhost:8080/x',
      'http://127.0.0.1/x',
      'http://[::1]:5173/x',
      'https://console.example.com/x',
    ])
      expect(own.isOwnHost(new URL(url)), url).toBe(true);
    for (const url of ['http://10.0.0.1/x', 'https://console.example.com.evil.test/x', 'http://127.0.0.2/x'])
      expect(own.isOwnHost(new URL(url)), url).toBe(false);
    expect(own.ownOrigin).toBe('https://console.example.com');
    expect(ownAddressesOf(remoteConfig).ownOrigin).toBe('http://localhost');
  });

  it('lists the service’s origin and MEDIA_ORIGINS as where results come from', () => {
    expect([...ownAddressesOf(remoteConfig).resultOrigins]).toEqual([
      'https://api.example.com',
      'https://media.example.com',
    ]);
    expect([...ownAddressesOf(emulatorConfig).resultOrigins]).toEqual([]);
  });
});

describe('trustedResultUrlOf', () => {
  it('with a real service: its origin and MEDIA_ORIGINS only, whatever the path', () => {
    const trusted = trustedResultUrlOf(remoteConfig, ownAddressesOf(remoteConfig));
    expect(trusted(new URL('https://media.example.com/a.png'), 'https://api.example.com')).toBe(true);
    expect(trusted(new URL('https://api.example.com/files/a.mp4'), 'https://api.example.com')).toBe(true);
    expect(trusted(new URL('http://localhost/emulator/media/a.png'), 'http://localhost')).toBe(false);
  });

  it('with the emulator: this console’s /emulator/ paths only', () => {
    const trusted = trustedResultUrlOf(emulatorConfig, ownAddressesOf(emulatorConfig));
    expect(trusted(new URL('http://127.0.0.1:8080/emulator/media/a.png'), 'http://10.1.1.1')).toBe(true);
    expect(trusted(new URL('http://10.1.1.1/emulator/media/a.png'), 'http://10.1.1.1')).toBe(true);
    expect(trusted(new URL('http://127.0.0.1:8080/callbacks/x'), 'http://127.0.0.1:8080')).toBe(false);
    expect(trusted(new URL('http://10.9.9.9/emulator/media/a.png'), 'http://10.1.1.1')).toBe(false);
  });
});
