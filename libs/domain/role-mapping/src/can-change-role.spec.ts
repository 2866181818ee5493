import { canChangeRole } from './can-change-role';

describe('canChangeRole', () => {
  it('refuses to demote the last super admin', () => {
    expect(canChangeRole({ currentRole: 'super_admin', newRole: 'admin', superAdminCount: 1 })).toEqual({
      allowed: false,
      reason: 'last_super_admin',
      message: 'The last super admin cannot be given another role; make someone else super admin first.',
    });
  });

  it('refuses when the count is already zero (stale or inconsistent data)', () => {
    expect(canChangeRole({ currentRole: 'super_admin', newRole: 'member', superAdminCount: 0 })).toMatchObject({
      allowed: false,
    });
  });

  it('allows demoting a super admin when another remains', () => {
    expect(canChangeRole({ currentRole: 'super_admin', newRole: 'member', superAdminCount: 2 })).toEqual({
      allowed: true,
    });
  });

  it('allows keeping the last super admin a super admin', () => {
    expect(canChangeRole({ currentRole: 'super_admin', newRole: 'super_admin', superAdminCount: 1 })).toEqual({
      allowed: true,
    });
  });

  it.each([
    ['member', 'admin'],
    ['admin', 'member'],
    ['member', 'super_admin'],
  ] as const)('allows %s -> %s with a single super admin elsewhere', (currentRole, newRole) => {
    expect(canChangeRole({ currentRole, newRole, superAdminCount: 1 })).toEqual({ allowed: true });
  });

  it.each([-1, 1.5, Number.NaN])('rejects superAdminCount %p', (superAdminCount) => {
    expect(() => canChangeRole({ currentRole: 'admin', newRole: 'member', superAdminCount })).toThrow(RangeError);
  });
});
