import { describe, expect, it } from 'vitest';
import { ConfigError, isLoopbackHost, readProdConfig, signInSummary } from './prod-config';

const REMOTE = { API_BASE_URL: 'https://api.example.com/v1', API_TOKEN: 'tok' };

function problems(env: Record<string, string>): string[] {
  try {
    readProdConfig(env);
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

describe('readProdConfig', () => {
  it('has safe defaults: loopback, port 8080, emulator, open access', () => {
    const config = readProdConfig({});
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8080,
      appPassword: undefined,
      demo: false,
      mediaOrigins: [],
      distDir: 'dist',
    });
    expect(config.server.apiBaseUrl).toBeUndefined();
  });

  it('starts on a public bind with a password, with ALLOW_OPEN_ACCESS=1, or on loopback', () => {
    expect(problems({ ...REMOTE, HOST: '0.0.0.0', APP_PASSWORD: 'long enough pw' })).toEqual([]);
    expect(problems({ ...REMOTE, HOST: '0.0.0.0', ALLOW_OPEN_ACCESS: '1' })).toEqual([]);
    expect(problems({ ...REMOTE, HOST: '::1' })).toEqual([]);
    expect(problems({ HOST: '0.0.0.0', APP_PASSWORD: 'long enough pw' })).toEqual([]);
    expect(problems({ HOST: '0.0.0.0', ALLOW_OPEN_ACCESS: '1' })).toEqual([]);
  });

  // A published console without a configured sign-in starts, asking for one (the first
  // admin from a one-time set-up link); only loopback with nothing configured is open.
  it('asks for a sign-in on a public bind or a PUBLIC_BASE_URL, open only on loopback with nothing set', () => {
    const read = (env: Record<string, string>) => readProdConfig({ DATA_DIR: 'd', ...env });
    for (const env of [
      { ...REMOTE, HOST: '0.0.0.0' },
      { HOST: '0.0.0.0' },
      { HOST: '::' },
      { HOST: '127.0.0.1', PUBLIC_BASE_URL: 'https://console.example.com' },
      { HOST: '127.0.0.1', APP_PASSWORD: 'long enough pw' },
      { HOST: '127.0.0.1', TRUSTED_AUTH_HEADER: 'X-Forwarded-User', TRUSTED_PROXIES: '127.0.0.1/32' },
    ] as Record<string, string>[])
      expect(read(env).open, JSON.stringify(env)).toBe(false);
    expect(read({}).open).toBe(true);
    expect(read({ ...REMOTE, HOST: '::1' }).open).toBe(true);
    expect(read({ HOST: '0.0.0.0', ALLOW_OPEN_ACCESS: '1' }).open).toBe(true);
  });

  it('reads single sign-on: the redirect URI from PUBLIC_BASE_URL, role values, default role, domains', () => {
    const config = readProdConfig({
      DATA_DIR: 'd',
      PUBLIC_BASE_URL: 'https://console.example.com/',
      OIDC_ISSUER: 'https://accounts.google.com',
      OIDC_CLIENT_ID: 'id',
      OIDC_CLIENT_SECRET: 'secret',
      OIDC_ADMIN_VALUES: 'console-admins, ops,Media Admins',
      OIDC_DEFAULT_ROLE: 'none',
      OIDC_ALLOWED_DOMAINS: 'Example.com',
    });
    expect(config.oidc).toMatchObject({
      redirectUri: 'https://console.example.com/auth/callback',
      rolesClaim: 'groups',
      adminValues: ['console-admins', 'ops', 'Media Admins'],
      creatorValues: [],
      defaultRole: 'none',
      allowedDomains: ['example.com'],
    });
    expect(problems({ OIDC_ISSUER: 'https://idp.example.com', OIDC_CLIENT_ID: 'id' })).toEqual([
      expect.stringMatching(/PUBLIC_BASE_URL must be set with OIDC_ISSUER/),
    ]);
    expect(
      problems({
        OIDC_ISSUER: 'http://idp.example.com',
        OIDC_CLIENT_ID: 'id',
        PUBLIC_BASE_URL: 'https://c.example.com',
        OIDC_DEFAULT_ROLE: 'boss',
      }),
    ).toEqual([
      expect.stringMatching(/OIDC_DEFAULT_ROLE/),
      expect.stringMatching(/OIDC_ISSUER must be an https URL/),
    ]);
  });

  it('starts a published console with a password or ALLOW_OPEN_ACCESS=1, and an unpublished one open', () => {
    const published = { ...REMOTE, PUBLIC_BASE_URL: 'https://console.example.com' };
    expect(problems({ ...published, APP_PASSWORD: 'long enough pw' })).toEqual([]);
    expect(problems({ ...published, ALLOW_OPEN_ACCESS: '1' })).toEqual([]);
    expect(problems({ ...REMOTE, HOST: '127.0.0.1' })).toEqual([]);
    // A blank PUBLIC_BASE_URL is unset, not published.
    expect(problems({ ...REMOTE, PUBLIC_BASE_URL: '  ' })).toEqual([]);
  });

  it('refuses RESULTS_STORE=s3 without S3_BUCKET, and a store it does not know', () => {
    expect(problems({ RESULTS_STORE: 's3' })).toEqual(['RESULTS_STORE=s3 needs S3_BUCKET']);
    expect(problems({ RESULTS_STORE: 's3', S3_BUCKET: 'team-results' })).toEqual([]);
    expect(problems({ RESULTS_STORE: 'disk' })).toEqual([]);
    expect(problems({ RESULTS_STORE: 'ftp' })).toEqual(['RESULTS_STORE must be disk or s3, got "ftp"']);
  });

  it('reads TRUSTED_AUTH_ADMINS comma-separated: a name with a space stays one value', () => {
    const config = readProdConfig({
      DATA_DIR: 'd',
      TRUSTED_AUTH_HEADER: 'Tailscale-User-Name',
      TRUSTED_PROXIES: '127.0.0.1',
      TRUSTED_AUTH_ADMINS: 'Ana Lima, bo@example.com',
    });
    expect(config.trustedAuthAdmins).toEqual(['Ana Lima', 'bo@example.com']);
  });

  it('reads TRUSTED_PROXIES as addresses and ranges, refusing anything else', () => {
    const trusted = readProdConfig({ TRUSTED_PROXIES: '10.0.0.0/8, ::1' }).server.trustedProxies!;
    expect(trusted('10.1.2.3')).toBe(true);
    expect(trusted('127.0.0.1')).toBe(false);
    expect(readProdConfig({}).server.trustedProxies!('127.0.0.1')).toBe(true);
    expect(problems({ TRUSTED_PROXIES: 'nginx, 10.0.0.0/40' })[0]).toMatch(
      /TRUSTED_PROXIES.*"nginx", "10\.0\.0\.0\/40"/,
    );
  });

  it('refuses UPLOAD_QUOTA_MB_PER_DAY and UPLOAD_DISK_MAX_MB outside 1 to 10000000 MB', () => {
    for (const name of ['UPLOAD_QUOTA_MB_PER_DAY', 'UPLOAD_DISK_MAX_MB']) {
      expect(problems({ [name]: '1' }), name).toEqual([]);
      expect(problems({ [name]: '10000000' }), name).toEqual([]);
      for (const bad of ['0', '10000001', '2.5', 'lots'])
        expect(problems({ [name]: bad })[0], `${name}=${bad}`).toMatch(
          new RegExp(`^${name} must be a whole number`),
        );
    }
  });

  it('reads LOGIN_FAILURES_TOTAL from 1 to 1000000, 100 by default', () => {
    expect(readProdConfig({}).loginFailuresTotal).toBe(100);
    expect(readProdConfig({ LOGIN_FAILURES_TOTAL: '1' }).loginFailuresTotal).toBe(1);
    expect(readProdConfig({ LOGIN_FAILURES_TOTAL: '1000000' }).loginFailuresTotal).toBe(1_000_000);
    for (const bad of ['0', '1000001', '1.5', 'many', '-3'])
      expect(problems({ LOGIN_FAILURES_TOTAL: bad })[0], bad).toMatch(/LOGIN_FAILURES_TOTAL/);
  });

  it('reads ALLOWED_HOSTS as names or .domains, refusing anything else', () => {
    expect(readProdConfig({ ALLOWED_HOSTS: 'console.example.com, .corp.example' }).allowedHosts).toEqual([
      'console.example.com',
      '.corp.example',
    ]);
    expect(problems({ ALLOWED_HOSTS: 'https://x.example' })[0]).toMatch(/ALLOWED_HOSTS/);
  });

  it('lists every problem at once, with the variable name', () => {
    const found = problems({
      PORT: '80a',
      API_BASE_URL: 'ftp://x',
      APP_PASSWORD: 'short',
      ALLOW_OPEN_ACCESS: 'maybe',
      MEDIA_ORIGINS: 'https://ok.example.com, not a url',
      CALLBACK_SECRET: 'a/b',
      EMULATOR_TIME_SCALE: '-1',
      SESSION_SECRET: 'short',
    });
    for (const name of [
      'PORT',
      'API_BASE_URL',
      'APP_PASSWORD',
      'ALLOW_OPEN_ACCESS',
      'MEDIA_ORIGINS',
      'CALLBACK_SECRET',
      'EMULATOR_TIME_SCALE',
      'SESSION_SECRET',
    ]) {
      expect(
        found.some((p) => p.includes(name)),
        name,
      ).toBe(true);
    }
  });

  it('parses MEDIA_ORIGINS into origins', () => {
    expect(
      readProdConfig({ MEDIA_ORIGINS: 'https://cdn.example.com/path, http://media.example.org:8080' })
        .mediaOrigins,
    ).toEqual(['https://cdn.example.com', 'http://media.example.org:8080']);
  });

  it('warns, without refusing, when the token is missing', () => {
    expect(readProdConfig({ API_BASE_URL: 'https://api.example.com' }).warnings[0]).toMatch(/API_TOKEN/);
  });

  it('keeps the demo on the emulator', () => {
    expect(readProdConfig({ DEMO: '1' }).demo).toBe(true);
    expect(problems({ ...REMOTE, DEMO: '1' })[0]).toMatch(/DEMO/);
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.5', false],
    ['console.example.com', false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

// With the header set and TRUSTED_PROXIES unset, any local process was believed (loopback).
describe('TRUSTED_AUTH_HEADER without TRUSTED_PROXIES', () => {
  it('refuses to start, saying what to set', () => {
    for (const proxies of [undefined, '', '  ', 'none']) {
      const env: Record<string, string> = { TRUSTED_AUTH_HEADER: 'X-Forwarded-Email' };
      if (proxies !== undefined) env.TRUSTED_PROXIES = proxies;
      const found = problems(env);
      expect(found, JSON.stringify(env)).toHaveLength(1);
      expect(found[0]).toMatch(/TRUSTED_AUTH_HEADER needs TRUSTED_PROXIES set .*127\.0\.0\.1\/32/);
    }
  });

  it('starts once the proxy is named', () => {
    for (const proxies of ['127.0.0.1/32', '10.0.0.5', 'loopback'])
      expect(
        problems({ TRUSTED_AUTH_HEADER: 'X-Forwarded-Email', TRUSTED_PROXIES: proxies }),
        proxies,
      ).toEqual([]);
  });
});

describe('signInSummary (the start-up line)', () => {
  const summary = (env: Record<string, string>) => signInSummary(readProdConfig({ DATA_DIR: 'd', ...env }));

  it('names the sign-in in force, never "no APP_PASSWORD" when single sign-on is enforced', () => {
    const sso = summary({
      PUBLIC_BASE_URL: 'https://console.example.com',
      OIDC_ISSUER: 'https://accounts.example.com',
      OIDC_CLIENT_ID: 'console',
      OIDC_CLIENT_SECRET: 'secret',
      SESSION_SECRET: 'a'.repeat(32),
    });
    expect(sso).toBe('sign-in required: single sign-on (accounts.example.com), local accounts');
    expect(sso).not.toMatch(/open access|APP_PASSWORD/);
    expect(summary({ APP_PASSWORD: 'long enough pw' })).toBe(
      'sign-in required: the shared APP_PASSWORD, local accounts',
    );
    expect(summary({ TRUSTED_AUTH_HEADER: 'X-Forwarded-Email', TRUSTED_PROXIES: '127.0.0.1/32' })).toBe(
      'sign-in required: the x-forwarded-email header from TRUSTED_PROXIES, local accounts',
    );
    expect(summary({ HOST: '0.0.0.0' })).toBe('sign-in required: local accounts');
  });

  it('says why a console is open', () => {
    expect(summary({})).toBe('open access on loopback (no sign-in configured)');
    expect(summary({ HOST: '0.0.0.0', ALLOW_OPEN_ACCESS: '1' })).toMatch(
      /^open access \(ALLOW_OPEN_ACCESS=1\)/,
    );
  });
});
