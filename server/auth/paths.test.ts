// Which paths the guard leaves open and where a sign-in may send the browser next: pure rules, tested
// without an app (server/auth/auth.test.ts drives them through the production app).
import { describe, expect, it } from 'vitest';
import { isPublicPath, safeNext } from './paths';

const SECRET = 's3cret-s3cret-s3cret';

describe('the sign-in paths', () => {
  it('only lets the sign-in page, favicon, emulator media and callback deliveries through', () => {
    expect(isPublicPath('POST', `/callbacks/${SECRET}`)).toBe(true);
    expect(isPublicPath('GET', `/callbacks/${SECRET}`)).toBe(false);
    expect(isPublicPath('POST', `/callbacks/${SECRET}/events`)).toBe(false);
    expect(isPublicPath('GET', '/emulator/media/images/a.png')).toBe(true);
    expect(isPublicPath('GET', '/emulator/samples/cat.png')).toBe(true);
    expect(isPublicPath('POST', '/emulator/reset')).toBe(false);
    // The emulator's settings steer the backend: signed-in users only, reading included.
    expect(isPublicPath('GET', '/emulator/settings')).toBe(false);
    expect(isPublicPath('POST', '/emulator/settings')).toBe(false);
    expect(isPublicPath('GET', '/v1/tasks')).toBe(false);
  });

  it('keeps the redirect after sign-in on this site', () => {
    expect(safeNext('/tasks?x=1')).toBe('/tasks?x=1');
    for (const bad of [
      'https://evil.example',
      '//evil.example',
      '/\\evil.example',
      '/login?next=/x',
      '/\t/evil.example',
      '/\n/evil.example',
      '/\r\n/evil.example',
      '/a\\b',
      '/tasks\u0000',
      '/x\u007f',
      undefined,
    ]) {
      expect(safeNext(bad), JSON.stringify(bad)).toBe('/');
    }
  });

  // `/.//evil.example/x` passed and was sent as Location, which a browser resolves to
  // `//evil.example/x`, another host. The path is judged (and returned) as a browser resolves it.
  it('judges the return path as a browser resolves it, dot segments and encodings included', () => {
    for (const bad of [
      '/.//evil.example/x',
      '/..//evil.example/x',
      '/././/evil.example',
      '/a/..//evil.example',
      '/%2e//evil.example',
      '/%2E%2E//evil.example',
      '/.\\/evil.example',
      '/\t//evil.example',
      '/./\n/evil.example',
      '///evil.example',
      '/./login',
      '/x/../auth/callback',
    ])
      expect(safeNext(bad), JSON.stringify(bad)).toBe('/');
    // Encoded slashes stay encoded: a browser keeps them in the path, on this site.
    expect(safeNext('/%2F%2Fevil.example')).toBe('/%2F%2Fevil.example');
    // A same-site path comes back in the form a browser would request it.
    expect(safeNext('/tasks/./a/../b?x=1#top')).toBe('/tasks/b?x=1#top');
    expect(safeNext('/tasks/i2is-1')).toBe('/tasks/i2is-1');
  });
});

describe('the sign-in pages and one-time links', () => {
  it('leaves each sign-in page open, by its exact path, to any method', () => {
    for (const path of ['/login', '/login.css', '/logout', '/favicon.svg', '/auth/start', '/auth/callback']) {
      expect(isPublicPath('GET', path), path).toBe(true);
      expect(isPublicPath('POST', path), path).toBe(true);
      expect(isPublicPath('GET', `${path}/x`), `${path}/x`).toBe(false);
      expect(isPublicPath('GET', `/x${path}`), `/x${path}`).toBe(false);
    }
  });

  it('leaves an invitation or a set-up link open: one segment after it, not none and not two', () => {
    expect(isPublicPath('GET', '/invite/abc')).toBe(true);
    expect(isPublicPath('POST', '/setup/abc')).toBe(true);
    for (const path of ['/invite/', '/setup/', '/invite/a/b', '/x/invite/a', '/invitee/a', '/invite'])
      expect(isPublicPath('GET', path), path).toBe(false);
  });

  it('sends the browser to /auth and /login lookalikes, never to the sign-in routes themselves', () => {
    expect(safeNext('/auth')).toBe('/auth');
    expect(safeNext('/authors/x')).toBe('/authors/x');
    expect(safeNext('/auth/start')).toBe('/');
    expect(safeNext('/logins')).toBe('/');
    expect(safeNext('/x/login')).toBe('/x/login');
    expect(safeNext('')).toBe('/');
    expect(safeNext('tasks')).toBe('/');
    expect(safeNext('/?q=a%20b#h')).toBe('/?q=a%20b#h');
    // Another host with a path: refused, not cut down to the path.
    expect(safeNext('//evil.example/tasks')).toBe('/');
    // Not a URL at all (a host that cannot be): refused, not thrown.
    expect(safeNext('//[')).toBe('/');
  });
});
