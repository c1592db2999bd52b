// The ID token's claims (already verified by openid-client) mapped to a person and a role.
import { describe, expect, it } from 'vitest';
import { personFromClaims, type OidcSettings } from './oidc';

const settings = (over: Partial<OidcSettings> = {}): OidcSettings => ({
  issuer: 'https://idp.example.com',
  clientId: 'console',
  redirectUri: 'https://console.example.com/auth/callback',
  rolesClaim: 'groups',
  adminValues: ['console-admins'],
  creatorValues: ['console-creators'],
  defaultRole: 'viewer',
  allowedDomains: [],
  ...over,
});

describe('personFromClaims', () => {
  it('gives the highest role the groups name, else the default', () => {
    const role = (groups: unknown) => personFromClaims(settings(), { sub: 's', groups });
    expect(role(['x', 'console-creators', 'console-admins'])).toMatchObject({ person: { role: 'admin' } });
    expect(role(['console-creators'])).toMatchObject({ person: { role: 'creator' } });
    expect(role('console-creators other')).toMatchObject({ person: { role: 'creator' } });
    expect(role(undefined)).toMatchObject({ person: { role: 'viewer' } });
  });

  it('refuses everyone else with OIDC_DEFAULT_ROLE=none', () => {
    expect(personFromClaims(settings({ defaultRole: 'none' }), { sub: 's', groups: ['x'] })).toEqual({
      refused: expect.stringMatching(/no role/),
    });
  });

  it('reads a dotted claim (Keycloak realm roles)', () => {
    const result = personFromClaims(settings({ rolesClaim: 'realm_access.roles' }), {
      sub: 's',
      realm_access: { roles: ['console-admins'] },
    });
    expect(result).toMatchObject({ person: { role: 'admin' } });
  });

  it('lets in only verified e-mails of OIDC_ALLOWED_DOMAINS', () => {
    const s = settings({ allowedDomains: ['example.com'] });
    expect(personFromClaims(s, { sub: 's', email: 'a@Example.com' })).toMatchObject({
      person: { email: 'a@example.com' },
    });
    expect(personFromClaims(s, { sub: 's', email: 'a@evil.example' })).toHaveProperty('refused');
    expect(personFromClaims(s, { sub: 's', email: 'a@example.com', email_verified: false })).toHaveProperty(
      'refused',
    );
    expect(personFromClaims(s, { sub: 's' })).toHaveProperty('refused');
  });

  it('keeps the roles to the console when no values are configured; names from name, then e-mail', () => {
    const open = settings({ adminValues: [], creatorValues: [] });
    expect(personFromClaims(open, { sub: 's', name: ' Ada ', groups: ['console-admins'] })).toEqual({
      person: { subject: 's', name: 'Ada', email: null, role: undefined },
    });
    expect(personFromClaims(open, { sub: 's', email: 'b@example.com' })).toMatchObject({
      person: { name: 'b@example.com' },
    });
    expect(personFromClaims(open, {})).toHaveProperty('refused');
  });
});

describe('against a real provider (oidc-provider on 127.0.0.1)', () => {
  it('refuses a provider whose discovery names another issuer (wrong issuer)', async () => {
    const { startOidcProvider, CLIENT } = await import('../../e2e/oidc-provider');
    const port = 4651;
    const provider = await startOidcProvider(port, 'http://127.0.0.1:1/auth/callback');
    try {
      const { createOidc } = await import('./oidc');
      const right = createOidc(settings({ issuer: provider.issuer, clientId: CLIENT.id, allowHttp: true }));
      await expect(right.start('/')).resolves.toMatchObject({
        url: expect.stringContaining('code_challenge='),
      });
      // The same provider reached under another name: its metadata's issuer does not match.
      const wrong = createOidc(
        settings({
          issuer: provider.issuer.replace('127.0.0.1', 'localhost'),
          clientId: CLIENT.id,
          allowHttp: true,
        }),
      );
      await expect(wrong.start('/')).rejects.toThrow();
    } finally {
      await provider.stop();
    }
  }, 30_000);
});
