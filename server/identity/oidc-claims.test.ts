// The claims' edges, without a provider: who the token names (or not), the words of each refusal,
// a roles claim written as text or as a list with other things in it, a dotted claim that is not
// there, the configured values one side at a time, and the name's fallbacks and length.
import { describe, expect, it } from 'vitest';
import { oidcSettings as settings } from '../testing/oidc-settings';
import { personFromClaims, type OidcSettings } from './oidc';

const roleOf = (over: Partial<OidcSettings>, claims: Record<string, unknown>) => {
  const result = personFromClaims(settings(over), { sub: 's', ...claims });
  return 'person' in result ? result.person.role : result.refused;
};

describe('who the claims name', () => {
  it('refuses a token without a subject in words', () => {
    for (const sub of [undefined, '', 7])
      expect(personFromClaims(settings(), { sub }), String(sub)).toEqual({
        refused: 'The identity provider did not say who you are.',
      });
  });

  it('lets in only addresses of the allowed domains, verified or not said, and names them all in the refusal', () => {
    const only = settings({ allowedDomains: ['example.com', 'example.org'] });
    const refused = { refused: 'Only example.com, example.org accounts may use this console.' };
    expect(personFromClaims(only, { sub: 's', email: 'a@' })).toEqual(refused);
    expect(personFromClaims(only, { sub: 's', email: 42 })).toEqual(refused);
    expect(personFromClaims(only, { sub: 's', email: 'a@example.org', email_verified: true })).toMatchObject({
      person: { email: 'a@example.org' },
    });
    expect(personFromClaims(settings(), { sub: 's', email: 42 })).toMatchObject({ person: { email: null } });
  });
});

describe('the role from the claims', () => {
  it('reads a roles claim written as text split by commas and spaces, or a list of other things too', () => {
    expect(roleOf({}, { groups: 'x,console-admins' })).toBe('admin');
    expect(roleOf({}, { groups: 'a,, \tconsole-creators' })).toBe('creator');
    expect(roleOf({}, { groups: [1, 'console-creators', null] })).toBe('creator');
    expect(roleOf({}, { groups: { admin: true } })).toBe('viewer');
    expect(roleOf({ rolesClaim: 'realm_access.roles' }, {})).toBe('viewer');
  });

  it('takes the values configured on one side alone, the default role otherwise', () => {
    expect(roleOf({ adminValues: [] }, { groups: ['console-creators'] })).toBe('creator');
    expect(roleOf({ adminValues: [], defaultRole: 'creator' }, { groups: ['x'] })).toBe('creator');
    expect(roleOf({ creatorValues: [] }, { groups: ['console-admins'] })).toBe('admin');
    expect(roleOf({ creatorValues: [] }, { groups: ['console-creators'] })).toBe('viewer');
  });

  it('leaves the role to the console with no values configured, unless the default is none', () => {
    const none = { adminValues: [], creatorValues: [] };
    expect(roleOf({ ...none, defaultRole: 'creator' }, {})).toBeUndefined();
    expect(roleOf({ ...none, defaultRole: 'none' }, {})).toBe(
      'Your account has no role in this console: ask an admin to give you one.',
    );
  });
});

describe('the name', () => {
  it('is the first of name, user name, e-mail and subject that says something, trimmed to 80 characters', () => {
    const nameOf = (claims: Record<string, unknown>) => {
      const result = personFromClaims(settings(), { sub: 'subject-1', ...claims });
      return 'person' in result ? result.person.name : undefined;
    };
    expect(nameOf({ name: '  ', preferred_username: 'ada.l' })).toBe('ada.l');
    expect(nameOf({ name: 7, preferred_username: 7, email: 'A@Example.com' })).toBe('a@example.com');
    expect(nameOf({})).toBe('subject-1');
    expect(nameOf({ name: `  ${'n'.repeat(81)}` })).toBe('n'.repeat(80));
    expect(nameOf({ name: 'n'.repeat(80) })).toBe('n'.repeat(80));
  });
});
