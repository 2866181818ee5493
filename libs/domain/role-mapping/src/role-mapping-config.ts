import { ROLES, ROLE_RANK } from '@hearth/contracts';
import type { Role } from '@hearth/contracts';

/** A group mapped to this name matches every user, whatever their groups. */
export const MATCH_ALL_GROUPS = '*';

/** Members of `group` (exact, case-sensitive) get `role`. */
export interface GroupRoleMapping {
  group: string;
  role: Role;
}

/**
 * Grants `role` when every criterion given holds: provider attribute `attribute` equals `value` (for a multi-valued
 * attribute, one of its values does), and the user is in at least one of `groups`. A condition without any
 * criterion never matches.
 */
export interface RoleCondition {
  attribute?: string;
  value?: string;
  groups?: readonly string[];
  role: Role;
}

export interface RoleMappingConfig {
  groupMappings?: readonly GroupRoleMapping[];
  /** Provider attribute name -> application field name, e.g. { given_name: 'first_name' }. */
  attributeMappings?: Readonly<Record<string, string>>;
  conditions?: readonly RoleCondition[];
  /** Role -> the roles it implies. Without it, a role implies every lower-ranked role. */
  roleHierarchy?: Readonly<Partial<Record<Role, readonly Role[]>>>;
}

export const isRole = (value: unknown): value is Role => (ROLES as readonly unknown[]).includes(value);

/** The settings of a RoleMappingConfig, as an administrator spells them. */
const SETTINGS = ['groupMappings', 'attributeMappings', 'conditions', 'roleHierarchy'] as const satisfies readonly (keyof RoleMappingConfig)[];

const roleError = (path: string, value: unknown) =>
  `${path} must be one of ${ROLES.join(', ')}, got ${JSON.stringify(value)}`;

function groupMappingErrors(mappings: readonly GroupRoleMapping[]): string[] {
  return mappings.flatMap((mapping, index) => [
    ...(mapping.group?.trim() ? [] : [`groupMappings[${index}].group must not be empty`]),
    ...(isRole(mapping.role) ? [] : [roleError(`groupMappings[${index}].role`, mapping.role)]),
  ]);
}

function conditionErrors(conditions: readonly RoleCondition[]): string[] {
  return conditions.flatMap((condition, index) => {
    const path = `conditions[${index}]`;
    const errors = isRole(condition.role) ? [] : [roleError(`${path}.role`, condition.role)];
    const hasAttribute = Boolean(condition.attribute);
    if (hasAttribute !== (condition.value !== undefined)) errors.push(`${path} needs both attribute and value`);
    if (!hasAttribute && !condition.groups?.length) errors.push(`${path} needs an attribute and value, or groups`);
    return errors;
  });
}

function attributeMappingErrors(mappings: Readonly<Record<string, string>>): string[] {
  return Object.entries(mappings)
    .filter(([attribute, field]) => !attribute.trim() || !field?.trim())
    .map(([attribute]) => `attributeMappings[${JSON.stringify(attribute)}] needs an attribute and a field name`);
}

// Implying a higher role would let a hierarchy escalate privileges, so only downward implications are allowed.
function hierarchyErrors(hierarchy: Readonly<Partial<Record<Role, readonly Role[]>>>): string[] {
  return Object.entries(hierarchy).flatMap(([role, implied]) => {
    if (!isRole(role)) return [roleError('roleHierarchy key', role)];
    return (implied ?? []).flatMap((impliedRole) => {
      if (!isRole(impliedRole)) return [roleError(`roleHierarchy.${role}[]`, impliedRole)];
      if (ROLE_RANK[impliedRole] < ROLE_RANK[role]) return [];
      return [`roleHierarchy.${role} may only imply lower roles, not ${impliedRole}`];
    });
  });
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string';

/**
 * Where the configuration (JSON from the admin API or YAML, typed by nobody) is not the shape above: lists where
 * lists belong, objects in them, text where text is compared. The rules below, and sign-in, rely on it.
 */
function shapeErrors(config: unknown): string[] {
  if (!isObject(config)) return ['role_mapping must be an object'];
  const { groupMappings, conditions, attributeMappings, roleHierarchy } = config;
  // A key of another shape would be kept and never read: every user would get the default role, unannounced.
  const errors: string[] = Object.keys(config)
    .filter((key) => !(SETTINGS as readonly string[]).includes(key))
    .map((key) => `role_mapping has no setting ${key}; it takes ${SETTINGS.join(', ')}${isRole(key) ? ` (a role's groups are written groupMappings: [{ group, role: ${key} }])` : ''}`);
  if (groupMappings !== undefined && !Array.isArray(groupMappings)) errors.push('groupMappings must be a list of {group, role}');
  if (Array.isArray(groupMappings)) {
    groupMappings.forEach((mapping: unknown, index) => {
      if (!isObject(mapping) || !isText(mapping.group)) errors.push(`groupMappings[${index}] must be an object with a text group`);
    });
  }
  if (conditions !== undefined && !Array.isArray(conditions)) errors.push('conditions must be a list of {attribute, value, groups, role}');
  if (Array.isArray(conditions)) {
    conditions.forEach((condition: unknown, index) => {
      const path = `conditions[${index}]`;
      if (!isObject(condition)) {
        errors.push(`${path} must be an object`);
        return;
      }
      if (condition.attribute !== undefined && !isText(condition.attribute)) errors.push(`${path}.attribute must be text`);
      if (condition.value !== undefined && !isText(condition.value)) errors.push(`${path}.value must be text`);
      if (condition.groups !== undefined && !(Array.isArray(condition.groups) && condition.groups.every(isText))) {
        errors.push(`${path}.groups must be a list of group names`);
      }
    });
  }
  if (attributeMappings !== undefined && !(isObject(attributeMappings) && Object.values(attributeMappings).every(isText))) {
    errors.push('attributeMappings must map attribute names to field names');
  }
  if (roleHierarchy !== undefined && !(isObject(roleHierarchy) && Object.values(roleHierarchy).every(Array.isArray))) {
    errors.push('roleHierarchy must map roles to lists of roles');
  }
  return errors;
}

/** Human-readable problems with a configuration an administrator entered; empty when it is usable. */
export function validateRoleMappingConfig(config: RoleMappingConfig): string[] {
  const shape = shapeErrors(config);
  if (shape.length) return shape;
  return [
    ...groupMappingErrors(config.groupMappings ?? []),
    ...conditionErrors(config.conditions ?? []),
    ...attributeMappingErrors(config.attributeMappings ?? {}),
    ...hierarchyErrors(config.roleHierarchy ?? {}),
  ];
}
