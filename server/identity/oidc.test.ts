// The ID token's claims (already verified by openid-client) mapped to a person and a role.
import { createSign, generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { CustomFetch } from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { oidcSettings as settings } from '../testing/oidc-settings';
import { personFromClaims } from './oidc';

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

describe('ID tokens the console must refuse (a real provider; its token endpoint answers what the test says)', () => {
  // The provider publishes its real key set; the token endpoint's answer is replaced by one the test
  // signs: with the provider's own key (so only the named claim is wrong) or with a stranger's.
  const providerKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const strangerKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'provider-key';
  const signingJwk = { ...providerKey.privateKey.export({ format: 'jwk' }), kid, use: 'sig', alg: 'RS256' };
  const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const sign = (claims: Record<string, unknown>, key: KeyObject = providerKey.privateKey) => {
    const input = `${base64url({ alg: 'RS256', typ: 'JWT', kid })}.${base64url(claims)}`;
    return `${input}.${createSign('RSA-SHA256').update(input).sign(key).toString('base64url')}`;
  };

  let provider: { issuer: string; stop(): Promise<void> };
  let CLIENT_ID: string;
  beforeAll(async () => {
    const { startOidcProvider, CLIENT } = await import('../../e2e/oidc-provider');
    CLIENT_ID = CLIENT.id;
    provider = await startOidcProvider(4652, 'https://console.example.com/auth/callback', signingJwk);
  }, 30_000);
  afterAll(() => provider.stop());

  /** Runs start → callback → finish, the token endpoint answering an ID token with `claims` changed. */
  async function finishWith(
    change: (claims: Record<string, unknown>) => Record<string, unknown>,
    key?: KeyObject,
  ) {
    let nonce = '';
    const transport: { fetch: CustomFetch } = {
      fetch: async (url, init) => {
        if (!url.endsWith('/token')) return fetch(url, init as RequestInit);
        const now = Math.floor(Date.now() / 1000);
        const claims = change({
          iss: provider.issuer,
          aud: CLIENT_ID,
          sub: 'cole',
          name: 'Cole Creator',
          groups: ['console-creators'],
          nonce,
          iat: now,
          exp: now + 300,
        });
        return Response.json({ access_token: 'at', token_type: 'Bearer', id_token: sign(claims, key) });
      },
    };
    const { createOidc } = await import('./oidc');
    const oidc = createOidc(
      settings({ issuer: provider.issuer, clientId: CLIENT_ID, allowHttp: true }),
      transport,
    );
    const { flow } = await oidc.start('/');
    nonce = flow.nonce;
    return oidc.finish(
      new URL(
        `https://console.example.com/auth/callback?code=c&state=${flow.state}&iss=${encodeURIComponent(provider.issuer)}`,
      ),
      flow,
    );
  }

  it('takes a token signed by the provider for this client (so each refusal below is for its own reason)', async () => {
    await expect(finishWith((claims) => claims)).resolves.toMatchObject({
      person: { subject: 'cole', role: 'creator' },
    });
  });

  it('refuses a forged token (signed by another key)', async () => {
    await expect(finishWith((claims) => claims, strangerKey.privateKey)).rejects.toThrow();
  });

  it('refuses an expired token', async () => {
    const past = Math.floor(Date.now() / 1000) - 3600;
    await expect(finishWith((claims) => ({ ...claims, iat: past - 300, exp: past }))).rejects.toThrow();
  });

  it('refuses a token for another audience', async () => {
    await expect(finishWith((claims) => ({ ...claims, aud: 'another-app' }))).rejects.toThrow();
  });

  it('refuses a token from another issuer', async () => {
    await expect(finishWith((claims) => ({ ...claims, iss: 'https://evil.example.com' }))).rejects.toThrow();
  });

  it("refuses a token carrying another sign-in's nonce (replayed)", async () => {
    await expect(finishWith((claims) => ({ ...claims, nonce: 'an-older-flows-nonce' }))).rejects.toThrow();
  });
});
