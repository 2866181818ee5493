import { resolveRole } from './resolve-role';
import type { RoleMappingConfig } from './role-mapping-config';

const groupConfig: RoleMappingConfig = {
  groupMappings: [
    { group: 'Staff', role: 'member' },
    { group: 'Admins', role: 'admin' },
    { group: 'Platform', role: 'super_admin' },
  ],
};

const resolve = (groups: string[], config: RoleMappingConfig = groupConfig, attributes = {}) =>
  resolveRole({ groups, attributes, config, defaultRole: 'member' });

describe('resolveRole: group mappings', () => {
  it('maps a group to its role and says which group did it', () => {
    const sut = resolve(['Admins']);
    expect(sut.role).toBe('admin');
    expect(sut.decidedBy).toEqual({ kind: 'group_mapping', role: 'admin', group: 'Admins' });
    expect(sut.explanation).toBe('group "Admins" maps to admin');
  });

  it('gives the highest role when several groups match', () => {
    const sut = resolve(['Staff', 'Platform', 'Admins']);
    expect(sut.role).toBe('super_admin');
    expect(sut.matchedRules.map((rule) => rule.role)).toEqual(['super_admin', 'admin', 'member']);
    expect(sut.explanation).toBe('group "Platform" maps to super_admin (highest of 3 matching rules)');
  });

  it('matches group names case-sensitively', () => {
    const sut = resolve(['admins', 'ADMINS']);
    expect(sut.role).toBe('member');
    expect(sut.decidedBy.kind).toBe('default');
  });

  it('falls back to the default role when nothing maps', () => {
    const sut = resolveRole({ groups: ['Unknown'], attributes: {}, config: groupConfig, defaultRole: 'admin' });
    expect(sut).toMatchObject({ role: 'admin', decidedBy: { kind: 'default', role: 'admin' }, matchedRules: [] });
    expect(sut.explanation).toBe('no group mapping or condition matched, so the default role admin applies');
  });

  it('falls back to the default role with no groups and an empty config', () => {
    expect(resolve([], {}).role).toBe('member');
  });

  it('lets "*" match every user, even one without groups', () => {
    const sut = resolveRole({
      groups: [],
      attributes: {},
      config: { groupMappings: [{ group: '*', role: 'admin' }] },
      defaultRole: 'member',
    });
    expect(sut.role).toBe('admin');
    expect(sut.explanation).toBe('the mapping for every user ("*") grants admin');
  });

  it('ignores mappings to roles this service does not have', () => {
    const config = { groupMappings: [{ group: 'Guests', role: 'guest' }] } as unknown as RoleMappingConfig;
    expect(resolve(['Guests'], config)).toMatchObject({ role: 'member', matchedRules: [] });
  });

  it('keeps config order among mappings of the same role', () => {
    const config: RoleMappingConfig = {
      groupMappings: [
        { group: 'Second', role: 'admin' },
        { group: 'First', role: 'admin' },
      ],
    };
    expect(resolve(['First', 'Second'], config).decidedBy).toMatchObject({ group: 'Second' });
  });
});

describe('resolveRole: conditions', () => {
  const config: RoleMappingConfig = {
    groupMappings: [{ group: 'Staff', role: 'member' }],
    conditions: [
      { attribute: 'department', value: 'IT', groups: ['Staff'], role: 'admin' },
      { attribute: 'clearance', value: 'top', role: 'super_admin' },
      { groups: ['Finance'], role: 'admin' },
    ],
  };

  it('grants the role when attribute and group both match', () => {
    const sut = resolve(['Staff'], config, { department: 'IT' });
    expect(sut.role).toBe('admin');
    expect(sut.decidedBy).toMatchObject({ kind: 'condition', index: 0 });
    expect(sut.explanation).toBe(
      'condition #1 (department = "IT" and in one of groups "Staff") grants admin (highest of 2 matching rules)',
    );
  });

  it('does not grant it when only the attribute matches', () => {
    expect(resolve(['Other'], config, { department: 'IT' }).role).toBe('member');
  });

  it('compares attribute values case-sensitively', () => {
    expect(resolve(['Staff'], config, { department: 'it' }).decidedBy).toMatchObject({ kind: 'group_mapping' });
  });

  it('matches one value of a multi-valued attribute and numbers as text', () => {
    expect(resolve([], config, { clearance: ['low', 'top'] }).role).toBe('super_admin');
    const numeric: RoleMappingConfig = { conditions: [{ attribute: 'level', value: '3', role: 'admin' }] };
    expect(resolve([], numeric, { level: 3 }).role).toBe('admin');
  });

  it('matches a groups-only condition', () => {
    expect(resolve(['Finance'], config).decidedBy).toMatchObject({ kind: 'condition', index: 2, role: 'admin' });
  });

  it('never matches a condition without criteria or with an attribute but no value', () => {
    const broken: RoleMappingConfig = {
      conditions: [{ role: 'super_admin' }, { attribute: 'department', role: 'super_admin' }],
    };
    expect(resolve(['Staff'], broken, { department: 'IT' }).role).toBe('member');
  });

  it('ranks condition and group matches together', () => {
    const sut = resolve(['Staff', 'Finance'], config, { clearance: 'top' });
    expect(sut.matchedRules.map((rule) => [rule.kind, rule.role])).toEqual([
      ['condition', 'super_admin'],
      ['condition', 'admin'],
      ['group_mapping', 'member'],
    ]);
  });
});

describe('resolveRole: attribute mappings and hierarchy', () => {
  it('fills application fields from provider attributes', () => {
    const config: RoleMappingConfig = {
      attributeMappings: { given_name: 'first_name', family_name: 'last_name', dept: 'department', missing: 'x' },
    };
    const sut = resolve([], config, { given_name: 'Ada', family_name: 'Lovelace', dept: ['R&D', 'Math'] });
    expect(sut.mappedFields).toEqual({ first_name: 'Ada', last_name: 'Lovelace', department: 'R&D' });
  });

  it('lists the roles the granted role implies', () => {
    expect(resolve(['Platform']).effectiveRoles).toEqual(['super_admin', 'admin', 'member']);
    const config: RoleMappingConfig = { ...groupConfig, roleHierarchy: { admin: [] } };
    expect(resolve(['Admins'], config).effectiveRoles).toEqual(['admin']);
  });

  it('does not let an upward hierarchy entry raise the granted role', () => {
    const config: RoleMappingConfig = { ...groupConfig, roleHierarchy: { member: ['super_admin'] } };
    const sut = resolve(['Staff'], config);
    expect(sut.role).toBe('member');
    expect(sut.effectiveRoles).toEqual(['member']);
  });
});
