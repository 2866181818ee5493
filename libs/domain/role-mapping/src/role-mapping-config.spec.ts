import { validateRoleMappingConfig } from './role-mapping-config';
import type { RoleMappingConfig } from './role-mapping-config';

describe('validateRoleMappingConfig', () => {
  it('accepts a complete, sensible configuration', () => {
    const config: RoleMappingConfig = {
      groupMappings: [
        { group: 'Admins', role: 'admin' },
        { group: '*', role: 'member' },
      ],
      attributeMappings: { given_name: 'first_name' },
      conditions: [
        { attribute: 'department', value: 'IT', role: 'admin' },
        { groups: ['Owners'], role: 'super_admin' },
      ],
      roleHierarchy: { super_admin: ['admin'], admin: ['member'] },
    };
    expect(validateRoleMappingConfig(config)).toEqual([]);
  });

  it('accepts an empty configuration', () => {
    expect(validateRoleMappingConfig({})).toEqual([]);
  });

  it('refuses a setting it does not have, which would otherwise be kept and never read', () => {
    const config = { admin: ['Admins'], groupMapping: [] } as unknown as RoleMappingConfig;
    expect(validateRoleMappingConfig(config)).toEqual([
      'role_mapping has no setting admin; it takes groupMappings, attributeMappings, conditions, roleHierarchy (a role\'s groups are written groupMappings: [{ group, role: admin }])',
      'role_mapping has no setting groupMapping; it takes groupMappings, attributeMappings, conditions, roleHierarchy',
    ]);
  });

  it('reports empty groups and unknown roles', () => {
    const config = { groupMappings: [{ group: ' ', role: 'guest' }] } as unknown as RoleMappingConfig;
    expect(validateRoleMappingConfig(config)).toEqual([
      'groupMappings[0].group must not be empty',
      'groupMappings[0].role must be one of member, admin, super_admin, got "guest"',
    ]);
  });

  it('reports conditions without criteria or with half an attribute test', () => {
    expect(
      validateRoleMappingConfig({
        conditions: [
          { role: 'admin' },
          { attribute: 'department', role: 'admin' },
          { value: 'IT', groups: ['x'], role: 'admin' },
        ],
      }),
    ).toEqual([
      'conditions[0] needs an attribute and value, or groups',
      'conditions[1] needs both attribute and value',
      'conditions[2] needs both attribute and value',
    ]);
  });

  it('reports attribute mappings without a field name', () => {
    expect(validateRoleMappingConfig({ attributeMappings: { given_name: '' } })).toEqual([
      'attributeMappings["given_name"] needs an attribute and a field name',
    ]);
  });

  it.each([
    [null, 'role_mapping must be an object'],
    [{ groupMappings: 'Admins' }, 'groupMappings must be a list of {group, role}'],
    [{ groupMappings: [null, { group: 3, role: 'admin' }] }, 'groupMappings[0] must be an object with a text group'],
    [{ conditions: [{ groups: 'Admins', role: 'admin' }] }, 'conditions[0].groups must be a list of group names'],
    [{ conditions: [{ attribute: 'level', value: 3, role: 'admin' }] }, 'conditions[0].value must be text'],
    [{ attributeMappings: ['given_name'] }, 'attributeMappings must map attribute names to field names'],
    [{ roleHierarchy: { admin: 'member' } }, 'roleHierarchy must map roles to lists of roles'],
  ])('reports a configuration of the wrong shape instead of failing on it: %j', (config, message) => {
    expect(validateRoleMappingConfig(config as unknown as RoleMappingConfig)).toContain(message);
  });

  it('refuses a hierarchy that implies a higher or equal role', () => {
    expect(validateRoleMappingConfig({ roleHierarchy: { member: ['admin'], admin: ['admin'] } })).toEqual([
      'roleHierarchy.member may only imply lower roles, not admin',
      'roleHierarchy.admin may only imply lower roles, not admin',
    ]);
  });
});
