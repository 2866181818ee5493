export { isRole, MATCH_ALL_GROUPS, validateRoleMappingConfig } from './role-mapping-config';
export type { GroupRoleMapping, RoleCondition, RoleMappingConfig } from './role-mapping-config';
export { effectiveRoles } from './role-hierarchy';
export { resolveRole } from './resolve-role';
export type { ProviderAttributes, ResolveRoleInput, RoleResolution, RoleRule } from './resolve-role';
export { canChangeRole } from './can-change-role';
export type { RoleChangeDecision, RoleChangeInput } from './can-change-role';
