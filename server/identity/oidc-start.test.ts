// A sign-in's first step against a provider whose discovery the test answers (no provider runs):
// the address the browser is sent to carries this console's return address, the scopes, a PKCE
// challenge of the flow's verifier, its state and nonce; discovery is asked once, and again after
// it failed. (oidc.test.ts runs a real provider for the ID token checks.)
import { createHash } from 'node:crypto';
import type { CustomFetch } from 'openid-client';
import { describe, expect, it } from 'vitest';
import { createOidc, type OidcSettings } from './oidc';

const ISSUER = 'https://idp.example.com';
const settings = (over: Partial<OidcSettings> = {}): OidcSettings => ({
  issuer: ISSUER,
  clientId: 'console',
  redirectUri: 'https://console.example.com/auth/callback',
  rolesClaim: 'groups',
  adminValues: [],
  creatorValues: [],
  defaultRole: 'viewer',
  allowedDomains: [],
  ...over,
});

/** A provider's discovery document; the first `failures` asks answer 500. */
function discovery(failures = 0, issuer = ISSUER) {
  const asked: string[] = [];
  const fetch: CustomFetch = async (url) => {
    asked.push(url);
    if (asked.length <= failures) return new Response('down', { status: 500 });
    return Response.json({
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/jwks`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
    });
  };
  return { fetch, asked };
}

describe('starting a sign-in', () => {
  it("sends the browser to the provider with this console's address, the scopes, PKCE, state and nonce", async () => {
    const { fetch } = discovery();
    const { url, flow } = await createOidc(settings(), { fetch }).start('/tasks?tab=mine');
    const address = new URL(url);
    expect(`${address.origin}${address.pathname}`).toBe(`${ISSUER}/authorize`);
    const challenge = createHash('sha256').update(flow.verifier).digest('base64url');
    expect(Object.fromEntries(address.searchParams)).toEqual({
      client_id: 'console',
      response_type: 'code',
      redirect_uri: 'https://console.example.com/auth/callback',
      scope: 'openid profile email',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: flow.state,
      nonce: flow.nonce,
    });
    expect(flow.next).toBe('/tasks?tab=mine');
    expect(new Set([flow.state, flow.nonce, flow.verifier]).size).toBe(3);
  });

  it('asks for discovery once, and again after it failed', async () => {
    const { fetch, asked } = discovery(1);
    const oidc = createOidc(settings(), { fetch });
    await expect(oidc.start('/')).rejects.toThrow();
    await oidc.start('/');
    await oidc.start('/');
    expect(asked).toEqual([
      `${ISSUER}/.well-known/openid-configuration`,
      `${ISSUER}/.well-known/openid-configuration`,
    ]);
  });

  it('refuses a plain http provider unless allowed', async () => {
    const http = 'http://idp.example.com';
    const { fetch } = discovery(0, http);
    await expect(createOidc(settings({ issuer: http }), { fetch }).start('/')).rejects.toThrow();
    await expect(
      createOidc(settings({ issuer: http, allowHttp: true }), { fetch }).start('/'),
    ).resolves.toMatchObject({
      url: expect.stringMatching(/^http:\/\/idp\.example\.com\/authorize\?/),
    });
  });
});
