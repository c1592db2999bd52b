// Single sign-on with OpenID Connect: the authorization code flow with PKCE, a state and a nonce,
// through openid-client (discovery, the token exchange and every ID token check are the library's:
// signature, issuer, audience, expiry, nonce). This file only maps the verified claims to a person.
import * as client from 'openid-client';
import type { Role } from '../../src/api/roles';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string;
  /** PUBLIC_BASE_URL + /auth/callback */
  redirectUri: string;
  /** OIDC_ROLES_CLAIM, default `groups`. */
  rolesClaim: string;
  adminValues: string[];
  creatorValues: string[];
  /** OIDC_DEFAULT_ROLE: everyone the values do not name; `none` refuses them. */
  defaultRole: Role | 'none';
  /** OIDC_ALLOWED_DOMAINS: e-mail domains let in; empty lets any in. */
  allowedDomains: string[];
  /** Plain http issuers (a provider on loopback in the tests); https otherwise. */
  allowHttp?: boolean;
}

/** What the browser keeps between the start and the callback (in a short-lived HttpOnly cookie). */
export interface OidcFlow {
  state: string;
  nonce: string;
  verifier: string;
  next: string;
}

interface OidcPerson {
  subject: string;
  name: string;
  email: string | null;
  /** From the roles claim; undefined when no values are configured (the console's own roles count). */
  role?: Role;
}

type OidcResult = { person: OidcPerson } | { refused: string };

/**
 * The claim's values: text split at spaces and commas, a list as it is, anything else as itself.
 * Only configured values are looked for in them, and those are never empty (prod-config.ts drops
 * empty ones), so an empty piece or a value that is not text matches nothing.
 */
function claimValues(claims: Record<string, unknown>, name: string): unknown[] {
  // A dotted name reaches into an object (Keycloak's `realm_access.roles`).
  let value: unknown = claims;
  for (const part of name.split('.')) value = (value as Record<string, unknown> | undefined)?.[part];
  // Stryker disable next-line Regex: one separator or several only changes how many empty pieces there are
  return typeof value === 'string' ? value.split(/[\s,]+/) : [value].flat();
}

/** The role the claims give, `undefined` when no values are configured, or `none`. */
function roleFromClaims(settings: OidcSettings, claims: Record<string, unknown>): Role | 'none' | undefined {
  const values = new Set(claimValues(claims, settings.rolesClaim));
  if (settings.adminValues.some((v) => values.has(v))) return 'admin';
  if (settings.creatorValues.some((v) => values.has(v))) return 'creator';
  if (settings.adminValues.length === 0 && settings.creatorValues.length === 0)
    return settings.defaultRole === 'none' ? 'none' : undefined;
  return settings.defaultRole;
}

export function personFromClaims(settings: OidcSettings, claims: Record<string, unknown>): OidcResult {
  const subject = typeof claims.sub === 'string' ? claims.sub : '';
  if (!subject) return { refused: 'The identity provider did not say who you are.' };
  const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : null;
  if (settings.allowedDomains.length > 0) {
    // No address, or no domain in it, is none of the allowed (never empty) domains.
    const domain = email?.split('@')[1];
    if (claims.email_verified === false || !settings.allowedDomains.some((allowed) => allowed === domain))
      return { refused: `Only ${settings.allowedDomains.join(', ')} accounts may use this console.` };
  }
  const role = roleFromClaims(settings, claims);
  if (role === 'none')
    return { refused: 'Your account has no role in this console: ask an admin to give you one.' };
  const name =
    [claims.name, claims.preferred_username, email, subject].find(
      (v): v is string => typeof v === 'string' && v.trim() !== '',
    ) ?? subject;
  return { person: { subject, name: name.trim().slice(0, 80), email, role } };
}

interface Oidc {
  /** The provider's sign-in address for a new flow, and the flow to keep. */
  start(next: string): Promise<{ url: string; flow: OidcFlow }>;
  /** Checks the callback against the flow (state, PKCE, nonce; the ID token by the library). */
  finish(currentUrl: URL, flow: OidcFlow): Promise<OidcResult>;
}

/** `fetch`: how the client reaches the provider (the tests put a hostile token endpoint in its path). */
export function createOidc(settings: OidcSettings, transport: { fetch?: client.CustomFetch } = {}): Oidc {
  let configuration: Promise<client.Configuration> | undefined;
  const config = () => {
    configuration ??= client
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        settings.clientSecret,
        settings.clientSecret ? undefined : client.None(),
        {
          // The ID token's signature is checked against the provider's published keys even though it
          // came straight from the token endpoint (where the spec lets TLS stand in for it): a
          // token endpoint that is not the provider's is then refused too.
          execute: [
            client.enableNonRepudiationChecks,
            ...(settings.allowHttp ? [client.allowInsecureRequests] : []),
          ],
          ...(transport.fetch && { [client.customFetch]: transport.fetch }),
        },
      )
      .catch((error: unknown) => {
        configuration = undefined; // the next sign-in tries again
        throw error;
      });
    return configuration;
  };
  return {
    async start(next) {
      const flow: OidcFlow = {
        state: client.randomState(),
        nonce: client.randomNonce(),
        verifier: client.randomPKCECodeVerifier(),
        next,
      };
      const url = client.buildAuthorizationUrl(await config(), {
        redirect_uri: settings.redirectUri,
        scope: 'openid profile email',
        code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
        code_challenge_method: 'S256',
        state: flow.state,
        nonce: flow.nonce,
      });
      return { url: url.href, flow };
    },
    async finish(currentUrl, flow) {
      const tokens = await client.authorizationCodeGrant(await config(), currentUrl, {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      // idTokenExpected: the library refuses an answer without an ID token, so there are claims.
      return personFromClaims(settings, tokens.claims() as Record<string, unknown>);
    },
  };
}
