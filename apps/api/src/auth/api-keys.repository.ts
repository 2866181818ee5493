import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import type { ApiKeyScope, Role, UserStatus } from '@hearth/contracts';
import { ApiKey } from './auth.entities';

export interface ApiKeyWithUser {
  id: string;
  scope: ApiKeyScope;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  userId: string;
  familyId: string;
  role: Role;
  status: UserStatus;
}

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findByHash(keyHash: string): Promise<ApiKeyWithUser | null> {
    const rows: ApiKeyWithUser[] = await this.dataSource.query(
      `SELECT k.id, k.scope, k.expires_at AS "expiresAt", k.revoked_at AS "revokedAt", k.last_used_at AS "lastUsedAt",
              u.id AS "userId", u.family_id AS "familyId", u.role, u.status
         FROM api_keys k JOIN users u ON u.id = k.user_id
        WHERE k.key_hash = $1`,
      [keyHash],
    );
    return rows[0] ?? null;
  }

  async touch(id: string, at: Date): Promise<void> {
    await this.dataSource.getRepository(ApiKey).update({ id }, { lastUsedAt: at });
  }

  async insert(key: Pick<ApiKey, 'userId' | 'name' | 'prefix' | 'keyHash' | 'scope' | 'expiresAt'>): Promise<ApiKey> {
    return this.dataSource.getRepository(ApiKey).save(this.dataSource.getRepository(ApiKey).create(key));
  }

  async listForUser(userId: string): Promise<ApiKey[]> {
    return this.dataSource.getRepository(ApiKey).find({ where: { userId }, order: { createdAt: 'DESC' } });
  }

  async findForUser(id: string, userId: string): Promise<ApiKey | null> {
    return this.dataSource.getRepository(ApiKey).findOneBy({ id, userId });
  }

  /**
   * Inserts the key unless the user has a usable (not revoked, not expired) key of its name; null then. The user's
   * row is locked for the check and the insert, so requests made at once cannot each find the name free.
   */
  async insertWithFreeName(key: Pick<ApiKey, 'userId' | 'name' | 'prefix' | 'keyHash' | 'scope' | 'expiresAt'>, now: Date): Promise<ApiKey | null> {
    return this.dataSource.transaction(async (tx) => {
      await tx.query(`SELECT 1 FROM users WHERE id = $1 FOR UPDATE`, [key.userId]);
      const taken: unknown[] = await tx.query(
        `SELECT 1 FROM api_keys
          WHERE user_id = $1 AND name = $2 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > $3)
          LIMIT 1`,
        [key.userId, key.name, now],
      );
      return taken.length > 0 ? null : tx.getRepository(ApiKey).save(tx.getRepository(ApiKey).create(key));
    });
  }

  findActiveByPrefix(prefix: string): Promise<ApiKey | null> {
    return this.dataSource.getRepository(ApiKey).findOneBy({ prefix, revokedAt: IsNull() });
  }

  /** Returns how many keys were revoked (0 when none matched or it was already revoked). */
  async revoke(where: { prefix: string; userId?: string }, at: Date): Promise<number> {
    const result = await this.dataSource
      .getRepository(ApiKey)
      .update({ ...where, revokedAt: IsNull() }, { revokedAt: at });
    return result.affected ?? 0;
  }
}
