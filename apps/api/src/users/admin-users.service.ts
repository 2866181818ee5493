import { Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import { Role, roleAtLeast } from '@hearth/contracts';
import { AuditService, AuthHistoryEntry, RequestOrigin } from '../audit/audit.service';
import type { SessionPrincipal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { Transaction, Transactions } from '../database/transactions';
import { AdminUserRow, AdminUsersRepository, UserFilter } from './admin-users.repository';
import { IdentityBlocksRepository } from './identity-blocks.repository';
import { RoleChangesService } from './role-changes.service';
import { normalizeEmail } from './users.service';

const HISTORY_LIMIT = 200;

const lastSuperAdmin = () =>
  new ApiError(409, 'last_super_admin', 'The last active super admin cannot be suspended, removed or demoted.');
/** A super admin's suspension is theirs to lift or to carry further (removal would end it too): 403 to anyone else. */
function assertMayEndSuspension(actor: SessionPrincipal, target: AdminUserRow, action: 'reactivate' | 'remove'): void {
  if (target.suspendedByRole === 'super_admin' && actor.role !== 'super_admin') {
    throw new ApiError(403, 'suspended_by_super_admin', `A super admin suspended this user; only a super admin can ${action} them.`);
  }
}

const ownAccount = () =>
  new ApiError(403, 'own_account', 'You cannot change your own role or status, or remove yourself, from user management.');

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * User management (docs/sign-in.md#users). A super admin manages every user; a family admin only the users of their family,
 * and never one ranked above them. Users outside the caller's reach are 404, as if they did not exist.
 */
@Injectable()
export class AdminUsersService {
  constructor(
    private readonly transactions: Transactions,
    private readonly users: AdminUsersRepository,
    private readonly audit: AuditService,
    private readonly blocks: IdentityBlocksRepository,
    private readonly roleChanges: RoleChangesService,
  ) {}

  list(actor: SessionPrincipal, filter: Omit<UserFilter, 'familyId'>) {
    return this.users.list({ ...filter, familyId: actor.role === 'super_admin' ? null : actor.familyId });
  }

  /** A user the actor may see, or 404. */
  async get(actor: SessionPrincipal, id: string, tx?: Transaction): Promise<AdminUserRow> {
    const user = await this.users.find(id, tx);
    if (!user || (actor.role !== 'super_admin' && user.familyId !== actor.familyId)) throw ApiError.notFound();
    return user;
  }

  async changeRole(principal: SessionPrincipal, id: string, role: Role, origin: RequestOrigin): Promise<AdminUserRow> {
    return this.transactions.run(async (tx) => {
      const { actor, target } = await this.manageable(principal, id, tx);
      const change = await this.roleChanges.apply(target, role, { source: 'manual', actor }, origin, tx);
      return change.role === target.role ? target : (await this.users.find(target.id, tx))!;
    });
  }

  /** Suspends the user: every session and mailed reset link ends now, and their API keys are refused from the next request. */
  async suspend(principal: SessionPrincipal, id: string, origin: RequestOrigin): Promise<AdminUserRow> {
    return this.transactions.run(async (tx) => {
      const { actor, target } = await this.manageable(principal, id, tx);
      if (target.status === 'suspended') return target;
      if (target.role === 'super_admin') await this.assertNotLastSuperAdmin(target, tx);
      await this.users.suspend(target.id, actor.role, tx);
      await this.users.endAccess(target.id, tx);
      await this.record('user_suspended', actor, target, origin, tx);
      return (await this.users.find(target.id, tx))!;
    });
  }

  /** Lifts a suspension; one a super admin decided stays until a super admin lifts it (403 suspended_by_super_admin). */
  async reactivate(principal: SessionPrincipal, id: string, origin: RequestOrigin): Promise<AdminUserRow> {
    return this.transactions.run(async (tx) => {
      const { actor, target } = await this.manageable(principal, id, tx);
      if (target.status === 'active') return target;
      assertMayEndSuspension(actor, target, 'reactivate');
      await this.users.reactivate(target.id, tx);
      await this.record('user_reactivated', actor, target, origin, tx);
      return (await this.users.find(target.id, tx))!;
    });
  }

  /**
   * Permanent removal, only when the request repeats the user's e-mail (and, of a user a super admin suspended, only by
   * a super admin); audited in the same transaction. The user's
   * SSO identities are blocked in it too, so the same person cannot come straight back through their IdP (JIT).
   */
  async remove(principal: SessionPrincipal, id: string, confirmationEmail: string, origin: RequestOrigin): Promise<void> {
    await this.transactions.run(async (tx) => {
      const { actor, target } = await this.manageable(principal, id, tx);
      assertMayEndSuspension(actor, target, 'remove');
      if (!sameText(normalizeEmail(confirmationEmail), target.email)) {
        throw new ApiError(422, 'confirmation_mismatch', 'The email address did not match. The user was not removed.');
      }
      if (target.role === 'super_admin') await this.assertNotLastSuperAdmin(target, tx);
      const blocked = await this.blocks.blockIdentitiesOf(target.id, target.email, tx);
      // Only ids in the record: the removed user's e-mail does not outlive them in the audit log.
      await this.record('user_removed', actor, target, origin, tx, { target_user_id: target.id, blocked_identities: blocked });
      await this.users.delete(target.id, tx);
    });
  }

  async history(actor: SessionPrincipal, id: string): Promise<AuthHistoryEntry[]> {
    const target = await this.get(actor, id);
    return this.audit.historyForUser(target.id, HISTORY_LIMIT);
  }

  /**
   * Under the administration lock, returns the actor as they are now (a request authenticated before the actor was
   * demoted or suspended acts no more) and a user they may change: visible, not themselves, not ranked above them.
   */
  async manageable(principal: SessionPrincipal, id: string, tx: Transaction): Promise<{ actor: SessionPrincipal; target: AdminUserRow }> {
    await this.users.lockAdministration(tx);
    const self = await this.users.find(principal.userId, tx);
    if (!self || self.status !== 'active') throw new ApiError(401, 'unauthorized', 'Account has been deactivated');
    if (!roleAtLeast(self.role, 'admin')) throw new ApiError(403, 'forbidden', "This action requires the 'admin' role");
    const actor = { ...principal, role: self.role, familyId: self.familyId };
    const target = await this.get(actor, id, tx);
    if (target.id === actor.userId) throw ownAccount();
    if (!roleAtLeast(actor.role, target.role)) {
      throw new ApiError(403, 'forbidden', `Only a ${target.role} can manage this user`);
    }
    return { actor, target };
  }

  private async assertNotLastSuperAdmin(target: AdminUserRow, tx: Transaction): Promise<void> {
    const active = await this.users.activeSuperAdmins(tx);
    if (active.filter((id) => id !== target.id).length === 0) throw lastSuperAdmin();
  }

  private record(
    event: 'user_suspended' | 'user_reactivated' | 'user_removed',
    actor: SessionPrincipal,
    target: AdminUserRow,
    origin: RequestOrigin,
    tx: Transaction,
    details: Record<string, unknown> = {},
  ) {
    return this.audit.record(event, { userId: target.id, familyId: target.familyId, origin, details: { actor_user_id: actor.userId, ...details } }, tx);
  }
}
