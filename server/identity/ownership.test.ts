import { describe, expect, it } from 'vitest';
import { isMakerOrAdmin } from './ownership';

describe('isMakerOrAdmin', () => {
  it('lets the maker in, whatever their role', () => {
    expect(isMakerOrAdmin({ userId: 'u-1', role: 'viewer' }, 'u-1')).toBe(true);
    expect(isMakerOrAdmin({ userId: 'u-1', role: 'creator' }, 'u-1')).toBe(true);
  });

  it('lets an admin in, and no other role, for what someone else made', () => {
    expect(isMakerOrAdmin({ userId: 'u-2', role: 'admin' }, 'u-1')).toBe(true);
    expect(isMakerOrAdmin({ userId: 'u-2', role: 'creator' }, 'u-1')).toBe(false);
    expect(isMakerOrAdmin({ userId: 'u-2', role: 'viewer' }, 'u-1')).toBe(false);
  });

  it('lets no one but an admin at what has no recorded maker, and no one unknown', () => {
    expect(isMakerOrAdmin({ userId: 'u-1', role: 'creator' }, null)).toBe(false);
    expect(isMakerOrAdmin({ userId: 'u-1', role: 'admin' }, null)).toBe(true);
    expect(isMakerOrAdmin(undefined, 'u-1')).toBe(false);
    expect(isMakerOrAdmin(undefined, null)).toBe(false);
  });
});
