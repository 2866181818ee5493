import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import type { Role, UserStatus } from '@hearth/contracts';
import { managerOf, Transaction } from '../database/transactions';
import { Session } from './auth.entities';

export interface SessionWithUser {
  id: string;
  expiresAt: Date;
  revokedAt: Date | null;
  lastSeenAt: Date;
  userId: string;
  familyId: string;
  email: string;
  role: Role;
  status: UserStatus;
  /** The provider the session was opened through; null for a password session. */
  ssoProviderId: string | null;
}

@Injectable()
export class SessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findByTokenHash(tokenHash: string): Promise<SessionWithUser | null> {
    const rows: SessionWithUser[] = await this.dataSource.query(
      `SELECT s.id, s.expires_at AS "expiresAt", s.revoked_at AS "revokedAt", s.last_seen_at AS "lastSeenAt",
              s.sso_provider_id AS "ssoProviderId", u.id AS "userId", u.family_id AS "familyId", u.email, u.role, u.status
         FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE s.token_hash = $1`,
      [tokenHash],
    );
    return rows[0] ?? null;
  }

  async insert(
    session: Pick<Session, 'userId' | 'tokenHash' | 'expiresAt' | 'lastSeenAt' | 'ipAddress' | 'userAgent'>,
    tx?: Transaction,
  ): Promise<Session> {
    const repository = managerOf(tx, this.dataSource).getRepository(Session);
    return repository.save(repository.create({ ...session, ssoProviderId: null, revokedAt: null }));
  }

  /**
   * Records a use at `at` unless one after `notBefore` is recorded already, so requests arriving together write
   * once; a session revoked or idle since `idleCutoff` is left as it is (a late request must not revive it).
   */
  async touch(id: string, at: Date, notBefore: Date, idleCutoff: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE sessions SET last_seen_at = $2
        WHERE id = $1 AND revoked_at IS NULL AND last_seen_at <= $3 AND last_seen_at > $4`,
      [id, at, notBefore, idleCutoff],
    );
  }

  async revoke(id: string, at: Date): Promise<void> {
    await this.dataSource.getRepository(Session).update({ id, revokedAt: IsNull() }, { revokedAt: at });
  }

  /** Ends every live session of a user, optionally keeping one; returns how many were ended. */
  async revokeAllForUser(userId: string, at: Date, tx?: Transaction, keep?: string): Promise<number> {
    const result = await managerOf(tx, this.dataSource)
      .createQueryBuilder()
      .update(Session)
      .set({ revokedAt: at })
      .where('user_id = :userId AND revoked_at IS NULL', { userId })
      .andWhere(keep ? 'id <> :keep' : 'TRUE', keep ? { keep } : {})
      .execute();
    return result.affected ?? 0;
  }
}
