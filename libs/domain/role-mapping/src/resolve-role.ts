import { ROLE_RANK } from '@hearth/contracts';
import type { Role } from '@hearth/contracts';
import { effectiveRoles } from './role-hierarchy';
import { MATCH_ALL_GROUPS, isRole } from './role-mapping-config';
import type { RoleCondition, RoleMappingConfig } from './role-mapping-config';

/** Claims or SAML attributes as the provider sent them. */
export type ProviderAttributes = Readonly<Record<string, unknown>>;

export type RoleRule =
  | { kind: 'group_mapping'; role: Role; group: string }
  | { kind: 'condition'; role: Role; index: number; condition: RoleCondition }
  | { kind: 'default'; role: Role };

export interface RoleResolution {
  role: Role;
  /** The rule that granted `role`: the first matching rule of the highest rank, or the default. */
  decidedBy: RoleRule;
  /** Every rule that matched, highest role first; group mappings before conditions within one role. */
  matchedRules: RoleRule[];
  /** `role` and the roles it implies through the hierarchy, highest first. */
  effectiveRoles: Role[];
  /** Application fields filled from provider attributes through the attribute mappings. */
  mappedFields: Record<string, string>;
  /** One sentence for the admin "test login" screen. */
  explanation: string;
}

export interface ResolveRoleInput {
  groups: readonly string[];
  attributes: ProviderAttributes;
  config: RoleMappingConfig;
  /** Applied when no rule matches. Pass the user's current role to keep it unchanged instead. */
  defaultRole: Role;
}

/** Scalars compare as text; a multi-valued attribute yields each of its scalar values. */
function attributeValues(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(attributeValues);
  if (typeof value === 'string') return [value];
  if (typeof value === 'number' || typeof value === 'boolean') return [String(value)];
  return [];
}

const inAnyGroup = (wanted: readonly string[], groups: readonly string[]) =>
  wanted.some((group) => group === MATCH_ALL_GROUPS || groups.includes(group));

function conditionHolds(condition: RoleCondition, groups: readonly string[], attributes: ProviderAttributes): boolean {
  const wantedGroups = condition.groups ?? [];
  if (!condition.attribute && wantedGroups.length === 0) return false;
  const attributeHolds =
    !condition.attribute ||
    (condition.value !== undefined && attributeValues(attributes[condition.attribute]).includes(condition.value));
  return attributeHolds && (wantedGroups.length === 0 || inAnyGroup(wantedGroups, groups));
}

function matchingRules(input: ResolveRoleInput): RoleRule[] {
  const { groups, attributes, config } = input;
  const byGroup: RoleRule[] = (config.groupMappings ?? [])
    .filter((mapping) => inAnyGroup([mapping.group], groups))
    .map((mapping) => ({ kind: 'group_mapping', role: mapping.role, group: mapping.group }));
  const byCondition: RoleRule[] = (config.conditions ?? []).flatMap((condition, index) =>
    conditionHolds(condition, groups, attributes)
      ? [{ kind: 'condition', role: condition.role, index, condition }]
      : [],
  );
  // Stored JSON may hold roles we do not know (e.g. Sure's "guest"); they grant nothing.
  // Array.prototype.sort is stable, so config order survives within one role.
  return [...byGroup, ...byCondition]
    .filter((rule) => isRole(rule.role))
    .sort((a, b) => ROLE_RANK[b.role] - ROLE_RANK[a.role]);
}

function mappedFields(attributes: ProviderAttributes, mappings: Readonly<Record<string, string>> = {}) {
  const fields: Record<string, string> = {};
  for (const [attribute, field] of Object.entries(mappings)) {
    const [first] = attributeValues(attributes[attribute]);
    if (first !== undefined) fields[field] = first;
  }
  return fields;
}

function describeCondition(condition: RoleCondition): string {
  const criteria: string[] = [];
  if (condition.attribute) criteria.push(`${condition.attribute} = "${condition.value}"`);
  if (condition.groups?.length) criteria.push(`in one of groups ${condition.groups.map((g) => `"${g}"`).join(', ')}`);
  return criteria.join(' and ');
}

function describeRule(rule: RoleRule): string {
  switch (rule.kind) {
    case 'group_mapping':
      return rule.group === MATCH_ALL_GROUPS
        ? `the mapping for every user ("*") grants ${rule.role}`
        : `group "${rule.group}" maps to ${rule.role}`;
    case 'condition':
      return `condition #${rule.index + 1} (${describeCondition(rule.condition)}) grants ${rule.role}`;
    case 'default':
      return `no group mapping or condition matched, so the default role ${rule.role} applies`;
  }
}

function explain(decidedBy: RoleRule, matchCount: number): string {
  const suffix = matchCount > 1 ? ` (highest of ${matchCount} matching rules)` : '';
  return `${describeRule(decidedBy)}${suffix}`;
}

/**
 * The role a sign-in grants: the highest role among matching group mappings (case-sensitive) and conditions,
 * else the default role. Pure, so the admin screen can preview it with the same code the login uses.
 */
export function resolveRole(input: ResolveRoleInput): RoleResolution {
  const matchedRules = matchingRules(input);
  const decidedBy: RoleRule = matchedRules[0] ?? { kind: 'default', role: input.defaultRole };
  return {
    role: decidedBy.role,
    decidedBy,
    matchedRules,
    effectiveRoles: effectiveRoles(decidedBy.role, input.config.roleHierarchy),
    mappedFields: mappedFields(input.attributes, input.config.attributeMappings),
    explanation: explain(decidedBy, matchedRules.length),
  };
}
