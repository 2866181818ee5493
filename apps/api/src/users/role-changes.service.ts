import { Injectable } from '@nestjs/common';
import { roleAtLeast } from '@hearth/contracts';
import type { Role } from '@hearth/contracts';
import { canChangeRole } from '@hearth/domain/role-mapping';
import { AuditService, RequestOrigin } from '../audit/audit.service';
import type { SessionPrincipal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import type { Transaction } from '../database/transactions';
import { AdminUserRow, AdminUsersRepository } from './admin-users.repository';

/** A provider's role mapping deciding a role: which provider, and why, in one sentence (audited). */
export interface MappingDecision {
  providerId: string;
  providerName: string;
  rule: string;
}

/**
 * Who changes a role. `actor`: an administrator as `AdminUsersService.manageable` returned them (current, and ranked
 * at least as the user). `source` is audited as such, except a change by hand, whose rows never had one.
 */
export type RoleChangeInitiator =
  | { source: 'manual'; actor: SessionPrincipal }
  | { source: 'admin_role_sync'; actor: SessionPrincipal; mapping: MappingDecision }
  | { source: 'sso_role_mapping'; mapping: MappingDecision };
type MappingInitiator = Extract<RoleChangeInitiator, { mapping: MappingDecision }>;

export type RoleChangeTarget = Pick<AdminUserRow, 'id' | 'role' | 'status' | 'familyId'>;

/** The user's role after the change (their old one when it was refused), and the mapping's rule as applied. */
export interface RoleChangeOutcome<Rule extends string | null = string | null> {
  role: Role;
  rule: Rule;
}

/**
 * The one way a user's role changes, whoever asks (docs/sso.md#role-mapping, docs/sign-in.md#users): the guards, the UPDATE and the role_changed row,
 * in the caller's transaction.
 */
@Injectable()
export class RoleChangesService {
  constructor(
    private readonly users: AdminUsersRepository,
    private readonly audit: AuditService,
  ) {}

  /**
   * Gives `target` the role `requested` (null: the initiator's mapping decided nothing, the role stays; a sync still
   * records that). In order:
   * - a user alone in their family keeps at least admin against a mapping (the JIT family creator rule); an administrator's own
   *   choice is not raised;
   * - an administrator grants only a role they hold (403);
   * - the last active super admin keeps the role: 409 to an administrator; a sign-in goes on with the role unchanged
   *   and the refusal audited, as nobody else would see it.
   * A change is audited; so is an administrator's sync that changed nothing, as their action is what the row records.
   */
  async apply(target: RoleChangeTarget, requested: Role | null, by: MappingInitiator, origin: RequestOrigin, tx: Transaction): Promise<RoleChangeOutcome<string>>;
  async apply(target: RoleChangeTarget, requested: Role, by: RoleChangeInitiator, origin: RequestOrigin, tx: Transaction): Promise<RoleChangeOutcome>;
  async apply(target: RoleChangeTarget, requested: Role | null, by: RoleChangeInitiator, origin: RequestOrigin, tx: Transaction): Promise<RoleChangeOutcome> {
    let role = requested ?? target.role;
    let rule = 'mapping' in by ? by.mapping.rule : null;
    if (requested && 'mapping' in by && !roleAtLeast(role, 'admin') && (await this.users.aloneInFamily(target, tx))) {
      role = 'admin';
      rule = `${rule}; alone in the family, the user stays its admin`;
    }
    if ('actor' in by && !roleAtLeast(by.actor.role, role)) throw new ApiError(403, 'forbidden', `Only a ${role} can grant the ${role} role`);
    // A suspended super admin's demotion leaves the active ones as they are.
    if (role !== target.role && target.role === 'super_admin' && target.status === 'active') {
      const verdict = canChangeRole({ currentRole: target.role, newRole: role, superAdminCount: (await this.users.activeSuperAdmins(tx)).length });
      if (!verdict.allowed) {
        if (by.source !== 'sso_role_mapping') throw new ApiError(409, verdict.reason, verdict.message);
        await this.record(target, by, rule, { from: target.role, to: target.role, refused: role, reason: verdict.reason }, origin, tx);
        return { role: target.role, rule };
      }
    }
    if (role !== target.role) await this.users.setRole(target.id, role, tx);
    if (role !== target.role || by.source === 'admin_role_sync') await this.record(target, by, rule, { from: target.role, to: role }, origin, tx);
    return { role, rule };
  }

  private record(target: RoleChangeTarget, by: RoleChangeInitiator, rule: string | null, change: Record<string, unknown>, origin: RequestOrigin, tx: Transaction) {
    const mapping = 'mapping' in by ? by.mapping : null;
    const details = {
      ...('actor' in by && { actor_user_id: by.actor.userId }),
      ...change,
      ...(mapping && { source: by.source, rule }),
    };
    return this.audit.record(
      'role_changed',
      { userId: target.id, familyId: target.familyId, providerId: mapping?.providerId, providerName: mapping?.providerName, origin, details },
      tx,
    );
  }
}
