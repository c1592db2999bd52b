// A real OpenID Connect provider (the `oidc-provider` package) on 127.0.0.1 for the sign-in tests:
// three people, with the groups the console maps to roles. Its development login form takes any
// password; the login name picks the person.
import Provider from 'oidc-provider';
import type { Server } from 'node:http';

export const PEOPLE = {
  vera: { name: 'Vera Viewer', email: 'vera@example.com', groups: ['staff'] },
  cole: { name: 'Cole Creator', email: 'cole@example.com', groups: ['staff', 'media-creators'] },
  ada: { name: 'Ada Admin', email: 'ada@example.com', groups: ['media-admins'] },
} as const;

export const CLIENT = { id: 'media-console', secret: 'media-console-e2e-secret' };

export async function startOidcProvider(
  port: number,
  redirectUri: string,
  /** The provider's signing key (a private JWK), for tests that sign tokens as the provider would. */
  signingKey?: Record<string, unknown>,
): Promise<{ issuer: string; stop(): Promise<void> }> {
  const issuer = `http://127.0.0.1:${port}`;
  const provider = new Provider(issuer, {
    ...(signingKey && { jwks: { keys: [signingKey] } }),
    clients: [
      {
        client_id: CLIENT.id,
        client_secret: CLIENT.secret,
        redirect_uris: [redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    pkce: { required: () => true },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    // The console reads the ID token's claims only.
    conformIdTokenClaims: false,
    cookies: { keys: ['e2e-cookie-key-0123456789'] },
    findAccount: (_ctx: unknown, id: string) => {
      const person = PEOPLE[id as keyof typeof PEOPLE];
      if (!person) return undefined;
      return { accountId: id, claims: () => ({ sub: id, email_verified: true, ...person }) };
    },
  });
  const server: Server = provider.listen(port, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    issuer,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
