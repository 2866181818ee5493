import { effectiveRoles } from './role-hierarchy';

describe('effectiveRoles', () => {
  it('without a hierarchy, a role implies every lower role', () => {
    expect(effectiveRoles('super_admin')).toEqual(['super_admin', 'admin', 'member']);
    expect(effectiveRoles('admin')).toEqual(['admin', 'member']);
    expect(effectiveRoles('member')).toEqual(['member']);
  });

  it('follows a configured hierarchy transitively', () => {
    expect(effectiveRoles('super_admin', { super_admin: ['admin'], admin: ['member'] })).toEqual([
      'super_admin',
      'admin',
      'member',
    ]);
  });

  it('implies only what the configured hierarchy lists', () => {
    expect(effectiveRoles('super_admin', { super_admin: ['member'] })).toEqual(['super_admin', 'member']);
    expect(effectiveRoles('admin', {})).toEqual(['admin']);
  });

  it('ignores entries that imply an equal or higher role', () => {
    expect(effectiveRoles('admin', { admin: ['member', 'super_admin'], member: ['admin'] })).toEqual([
      'admin',
      'member',
    ]);
    expect(effectiveRoles('member', { member: ['member', 'admin'] })).toEqual(['member']);
  });
});
