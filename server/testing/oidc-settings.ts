// The sign-in settings the OIDC tests start from: a provider, this console as its client, and the
// groups that make an admin or a creator.
import type { OidcSettings } from '../identity/oidc';

export const oidcSettings = (over: Partial<OidcSettings> = {}): OidcSettings => ({
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
