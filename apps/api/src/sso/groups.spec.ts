import { groupsOf } from './sso-accounts.service';

describe('groupsOf', () => {
  it('reads a list of strings, a single string as one group, and nothing else', () => {
    expect(groupsOf({ groups: ['a', 'B', 3, null, 'c'] }, 'groups')).toEqual(['a', 'B', 'c']);
    expect(groupsOf({ groups: 'admins' }, 'groups')).toEqual(['admins']);
    expect(groupsOf({ groups: { admins: true } }, 'groups')).toEqual([]);
    expect(groupsOf({}, 'groups')).toEqual([]);
    expect(groupsOf({ roles: ['x'] }, 'roles')).toEqual(['x']);
  });

  it('keeps at most 1000 groups', () => {
    expect(groupsOf({ groups: Array.from({ length: 10_000 }, (_, i) => `g${i}`) }, 'groups')).toHaveLength(1000);
  });
});
