// Tests act as a person by handing the Node side a verified identity in its env, as the sign-in
// layer of `npm start` does (server/auth/auth.ts). A header never names anyone.
import type { Role } from '../../src/api/roles';
import { IDENTITY_KEY, type Identity } from '../identity/request-identity';

export function person(name: string, role: Role = 'creator'): Identity {
  return { userId: `user-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`, name, role, source: 'local' };
}

/** The env of a request made by `name` (app.request's third argument, app.fetch's second). */
export function asPerson(name: string, role: Role = 'creator'): Record<string, unknown> {
  return { [IDENTITY_KEY]: person(name, role) };
}
