import { ROLES, ROLE_RANK } from '@hearth/contracts';
import type { Role } from '@hearth/contracts';
import type { RoleMappingConfig } from './role-mapping-config';

const byRankDescending = (a: Role, b: Role) => ROLE_RANK[b] - ROLE_RANK[a];

/**
 * `role` and every role it implies, directly or through other roles, highest first. Entries implying an equal or
 * higher role are ignored (validateRoleMappingConfig reports them), so a hierarchy can never escalate.
 */
export function effectiveRoles(role: Role, hierarchy?: RoleMappingConfig['roleHierarchy']): Role[] {
  if (!hierarchy) return ROLES.filter((candidate) => ROLE_RANK[candidate] <= ROLE_RANK[role]).sort(byRankDescending);
  const reached = new Set<Role>([role]);
  const pending: Role[] = [role];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    for (const implied of hierarchy[next] ?? []) {
      if (ROLE_RANK[implied] < ROLE_RANK[next] && !reached.has(implied)) {
        reached.add(implied);
        pending.push(implied);
      }
    }
  }
  return [...reached].sort(byRankDescending);
}
