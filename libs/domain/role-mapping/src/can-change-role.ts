import type { Role } from '@hearth/contracts';

export type RoleChangeDecision = { allowed: true } | { allowed: false; reason: 'last_super_admin'; message: string };

export interface RoleChangeInput {
  currentRole: Role;
  newRole: Role;
  /** Active super admins on the instance, the user whose role changes included. */
  superAdminCount: number;
}

/** Refuses any change that would leave the instance without a super admin; allows everything else. */
export function canChangeRole({ currentRole, newRole, superAdminCount }: RoleChangeInput): RoleChangeDecision {
  if (!Number.isInteger(superAdminCount) || superAdminCount < 0) {
    throw new RangeError(`superAdminCount must be a non-negative integer, got ${superAdminCount}`);
  }
  const demotesSuperAdmin = currentRole === 'super_admin' && newRole !== 'super_admin';
  if (demotesSuperAdmin && superAdminCount <= 1) {
    return {
      allowed: false,
      reason: 'last_super_admin',
      message: 'The last super admin cannot be given another role; make someone else super admin first.',
    };
  }
  return { allowed: true };
}
