import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { managerOf, Transaction } from '../database/transactions';
import { PasswordResetToken } from './auth.entities';

/**
 * Spends every unused password reset link of the user: a newer link, a password set any other way, or a suspension
 * makes the ones mailed before useless. The one place links are spent in bulk (reset, password change, suspension);
 * a function as well as a method, for AdminUsersRepository, whose module cannot inject this one.
 */
export async function spendResetLinks(manager: EntityManager, userId: string, at = new Date()): Promise<void> {
  await manager.getRepository(PasswordResetToken).update({ userId, usedAt: IsNull() }, { usedAt: at });
}

@Injectable()
export class PasswordResetsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** See spendResetLinks. */
  spendAllOf(userId: string, tx: Transaction, at = new Date()): Promise<void> {
    return spendResetLinks(managerOf(tx, this.dataSource), userId, at);
  }

  async insert(token: Pick<PasswordResetToken, 'userId' | 'tokenHash' | 'expiresAt'>, tx: Transaction): Promise<void> {
    const tokens = managerOf(tx, this.dataSource).getRepository(PasswordResetToken);
    await tokens.insert(tokens.create({ ...token, usedAt: null }));
  }

  /** Marks the live link with this hash used; its user's id, or undefined when none is live (unknown, used or expired). */
  async spend(tokenHash: string, tx: Transaction): Promise<string | undefined> {
    // TypeORM answers UPDATE ... RETURNING with [rows, affected count].
    const [spent] = (await managerOf(tx, this.dataSource).query(
      `UPDATE password_reset_tokens SET used_at = now()
          WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
          RETURNING user_id`,
      [tokenHash],
    )) as [{ user_id: string }[], number];
    return spent[0]?.user_id;
  }
}
