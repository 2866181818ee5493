import { EntityManager, IsNull } from 'typeorm';
import { PasswordResetToken } from './auth.entities';

/**
 * Spends every unused password reset link of the user: a newer link, a password set any other way, or a suspension
 * makes the ones mailed before useless. The one place links are spent in bulk (reset, password change, suspension).
 */
export async function spendResetLinks(manager: EntityManager, userId: string, at = new Date()): Promise<void> {
  await manager.getRepository(PasswordResetToken).update({ userId, usedAt: IsNull() }, { usedAt: at });
}
