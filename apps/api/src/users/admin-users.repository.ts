import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Role, UserStatus } from '@hearth/contracts';
import { spendResetLinks } from '../auth/password-resets.repository';
import { ADVISORY_LOCKS } from '../database/advisory-locks';
import { managerOf, Transaction } from '../database/transactions';

export interface UserFilter {
  /** null: every family (super_admin); else only this family (admin). */
  familyId: string | null;
  q?: string;
  role?: Role;
  status?: UserStatus;
  provider?: string;
  limit: number;
  offset: number;
}

export interface AdminUserRow {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  role: Role;
  status: UserStatus;
  suspendedByRole: Role | null;
  familyId: string;
  familyName: string;
  hasPassword: boolean;
  providers: string[];
  lastLoginAt: Date | null;
  createdAt: Date;
}

const SELECT_USER = `
  SELECT u.id, u.email, u.first_name AS "firstName", u.last_name AS "lastName", u.role, u.status,
         u.suspended_by_role AS "suspendedByRole", u.family_id AS "familyId", f.name AS "familyName", (u.password_hash IS NOT NULL) AS "hasPassword",
         COALESCE((SELECT array_agg(p.name ORDER BY p.name) FROM sso_identities i JOIN sso_providers p ON p.id = i.provider_id
                    WHERE i.user_id = u.id), '{}') AS providers,
         u.last_login_at AS "lastLoginAt", u.created_at AS "createdAt"
    FROM users u JOIN families f ON f.id = u.family_id`;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

@Injectable()
export class AdminUsersRepository {
  constructor(private readonly dataSource: DataSource) {}

  async list(filter: UserFilter): Promise<{ rows: AdminUserRow[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(sql(`$${params.length}`));
    };
    if (filter.familyId) add((p) => `u.family_id = ${p}`, filter.familyId);
    if (filter.role) add((p) => `u.role = ${p}`, filter.role);
    if (filter.status) add((p) => `u.status = ${p}`, filter.status);
    if (filter.q) {
      add((p) => `(u.email ILIKE ${p} OR u.first_name ILIKE ${p} OR u.last_name ILIKE ${p})`, `%${escapeLike(filter.q.trim())}%`);
    }
    if (filter.provider === 'local') where.push('u.password_hash IS NOT NULL');
    else if (filter.provider) {
      add(
        (p) => `EXISTS (SELECT 1 FROM sso_identities i JOIN sso_providers sp ON sp.id = i.provider_id WHERE i.user_id = u.id AND sp.name = ${p})`,
        filter.provider,
      );
    }
    const condition = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ count }] = await this.dataSource.query(`SELECT count(*)::int AS count FROM users u ${condition}`, params);
    const rows: AdminUserRow[] = await this.dataSource.query(
      `${SELECT_USER} ${condition} ORDER BY u.created_at DESC, u.id LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    );
    return { rows, total: count };
  }

  async find(id: string, tx?: Transaction): Promise<AdminUserRow | null> {
    const rows: AdminUserRow[] = await managerOf(tx, this.dataSource).query(`${SELECT_USER} WHERE u.id = $1`, [id]);
    return rows[0] ?? null;
  }

  /**
   * The active super admins, locked: a sign-in's role sync does not take the administration lock, so every demotion
   * (RoleChangesService), suspension and removal of a super admin locks these rows: the second of two counts what
   * the first left.
   */
  async activeSuperAdmins(tx: Transaction): Promise<string[]> {
    const rows: { id: string }[] = await managerOf(tx, this.dataSource).query(`SELECT id FROM users WHERE role = 'super_admin' AND status = 'active' FOR UPDATE`);
    return rows.map((row) => row.id);
  }

  /** Whether nobody else belongs to the user's family. */
  async aloneInFamily(user: Pick<AdminUserRow, 'id' | 'familyId'>, tx: Transaction): Promise<boolean> {
    const others: unknown[] = await managerOf(tx, this.dataSource).query(`SELECT 1 FROM users WHERE family_id = $1 AND id <> $2 LIMIT 1`, [user.familyId, user.id]);
    return others.length === 0;
  }

  /**
   * Serialises user administration for the transaction: changes are rare, and one lock taken first (rather than
   * row locks taken in request order) cannot deadlock two admins acting on each other.
   */
  async lockAdministration(tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCKS.administration]);
  }

  async setRole(id: string, role: Role, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`UPDATE users SET role = $2, updated_at = now() WHERE id = $1`, [id, role]);
  }

  /** Suspends the user, recording the role of who did it. */
  async suspend(id: string, byRole: Role, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`UPDATE users SET status = 'suspended', suspended_by_role = $2, updated_at = now() WHERE id = $1`, [id, byRole]);
  }

  async reactivate(id: string, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`UPDATE users SET status = 'active', suspended_by_role = NULL, updated_at = now() WHERE id = $1`, [id]);
  }

  /**
   * Ends every way back in the user holds now: sessions, and the reset links mailed before (one would still set a
   * password after a reactivation within its hour).
   */
  async endAccess(userId: string, tx: Transaction): Promise<void> {
    const manager = managerOf(tx, this.dataSource);
    await manager.query(`UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`, [userId]);
    await spendResetLinks(manager, userId);
  }

  /** Removes the user; sessions, API keys, reset tokens and SSO identities go with it (ON DELETE CASCADE). */
  async delete(id: string, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`DELETE FROM users WHERE id = $1`, [id]);
  }
}
