import { Injectable } from '@nestjs/common';
import { DataSource, IsNull } from 'typeorm';
import { ADVISORY_LOCKS } from '../database/advisory-locks';
import { managerOf, Transaction } from '../database/transactions';
import { SsoIdentity, SsoLoginState, SsoProvider, SsoSession } from './sso.entities';

export interface IdentityRow {
  id: string;
  providerId: string;
  providerName: string;
  providerLabel: string;
  strategy: string;
  email: string | null;
  lastUsedAt: Date | null;
  createdAt: Date;
}

/** SQL for providers, identities, sign-in transactions and the provider side of sessions. */
@Injectable()
export class SsoRepository {
  constructor(private readonly dataSource: DataSource) {}

  listProviders(): Promise<SsoProvider[]> {
    return this.dataSource.getRepository(SsoProvider).find({ order: { name: 'ASC' } });
  }

  async countEnabledProviders(): Promise<number> {
    const [{ count }] = await this.dataSource.query(`SELECT count(*)::int AS count FROM sso_providers WHERE enabled`);
    return count;
  }

  /**
   * Runs `work` holding the session-level advisory lock of provider seeding, taken on a connection of its own, so
   * processes sharing one PostgreSQL seed in turn.
   */
  async withProviderSeedLock<T>(work: () => Promise<T>): Promise<T> {
    const lock = this.dataSource.createQueryRunner();
    try {
      await lock.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCKS.providerSeed]);
      return await work();
    } finally {
      await lock.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCKS.providerSeed]).catch(() => undefined);
      await lock.release();
    }
  }

  /** The enabled providers, by label, with no more than a sign-in button needs (never a secret column). */
  listSignInProviders(): Promise<Pick<SsoProvider, 'name' | 'label' | 'strategy'>[]> {
    return this.dataSource
      .getRepository(SsoProvider)
      .find({ select: { name: true, label: true, strategy: true }, where: { enabled: true }, order: { label: 'ASC', name: 'ASC' } });
  }

  findProvider(id: string, tx?: Transaction): Promise<SsoProvider | null> {
    return managerOf(tx, this.dataSource).getRepository(SsoProvider).findOneBy({ id });
  }

  findProviderByName(name: string, tx?: Transaction): Promise<SsoProvider | null> {
    return managerOf(tx, this.dataSource).getRepository(SsoProvider).findOneBy({ name });
  }

  saveProvider(provider: SsoProvider, tx: Transaction): Promise<SsoProvider> {
    return managerOf(tx, this.dataSource).getRepository(SsoProvider).save(provider);
  }

  async deleteProvider(id: string, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).getRepository(SsoProvider).delete({ id });
  }

  findIdentity(providerId: string, uid: string, tx?: Transaction): Promise<SsoIdentity | null> {
    return managerOf(tx, this.dataSource).getRepository(SsoIdentity).findOneBy({ providerId, uid });
  }

  findIdentityForUser(providerId: string, userId: string, tx?: Transaction): Promise<SsoIdentity | null> {
    return managerOf(tx, this.dataSource).getRepository(SsoIdentity).findOneBy({ providerId, userId });
  }

  createIdentity(
    values: Pick<SsoIdentity, 'userId' | 'providerId' | 'uid' | 'issuer' | 'email' | 'groups'> & Partial<Pick<SsoIdentity, 'mappedRole'>>,
    tx?: Transaction,
  ): Promise<SsoIdentity> {
    const repository = managerOf(tx, this.dataSource).getRepository(SsoIdentity);
    const now = new Date();
    return repository.save(repository.create({ ...values, lastUsedAt: now, groupsReceivedAt: now }));
  }

  /** A sign-in of the identity: its last use, and the e-mail and groups the provider sent this time. */
  async touchIdentity(id: string, email: string | null, groups: string[], tx?: Transaction): Promise<void> {
    const now = new Date();
    await managerOf(tx, this.dataSource).getRepository(SsoIdentity).update({ id }, { lastUsedAt: now, email, groups, groupsReceivedAt: now });
  }

  async setMappedRole(id: string, mappedRole: SsoIdentity['mappedRole'], tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).getRepository(SsoIdentity).update({ id }, { mappedRole });
  }

  /** The user's identities, the one whose groups arrived last first (identities without stored groups last). */
  identitiesByLastGroups(userId: string, tx: Transaction): Promise<SsoIdentity[]> {
    return managerOf(tx, this.dataSource)
      .getRepository(SsoIdentity)
      .createQueryBuilder('i')
      .innerJoinAndSelect('i.provider', 'p')
      .where('i.user_id = :userId', { userId })
      .orderBy('i.groups_received_at', 'DESC', 'NULLS LAST')
      .addOrderBy('i.id')
      .getMany();
  }

  async identitiesOfUser(userId: string, tx?: Transaction): Promise<IdentityRow[]> {
    const rows: Record<string, unknown>[] = await managerOf(tx, this.dataSource).query(
      `SELECT i.id, i.provider_id, p.name AS provider_name, p.label AS provider_label, p.strategy, i.email, i.last_used_at, i.created_at
         FROM sso_identities i JOIN sso_providers p ON p.id = i.provider_id
        WHERE i.user_id = $1 ORDER BY i.created_at`,
      [userId],
    );
    return rows.map((row) => ({
      id: row.id as string,
      providerId: row.provider_id as string,
      providerName: row.provider_name as string,
      providerLabel: row.provider_label as string,
      strategy: row.strategy as string,
      email: (row.email as string | null) ?? null,
      lastUsedAt: row.last_used_at ? new Date(row.last_used_at as string) : null,
      createdAt: new Date(row.created_at as string),
    }));
  }

  async deleteIdentity(id: string, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).getRepository(SsoIdentity).delete({ id });
  }

  /** Locks the user's row so two concurrent unlinks cannot both leave the account without a login method. */
  async lockUser(userId: string, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
  }

  createLoginState(values: Partial<SsoLoginState>): Promise<SsoLoginState> {
    const repository = this.dataSource.getRepository(SsoLoginState);
    return repository.save(repository.create(values));
  }

  /**
   * Marks the transaction used and returns it, in one statement, so a replayed state (or a concurrent second
   * callback) finds nothing. Expired and already-used rows are never returned.
   */
  async consumeLoginState(stateHash: string, now: Date): Promise<SsoLoginState | null> {
    const [rows]: [Record<string, unknown>[], number] = await this.dataSource.query(
      `UPDATE sso_login_states SET consumed_at = $2
        WHERE state_hash = $1 AND purpose IN ('login', 'connect') AND consumed_at IS NULL AND expires_at > $2
        RETURNING id`,
      [stateHash, now],
    );
    if (!rows?.length) return null;
    return this.dataSource.getRepository(SsoLoginState).findOneBy({ id: rows[0].id as string });
  }

  /** A pending link bound to this browser, not yet used or expired. */
  findPendingLink(browserHash: string, now: Date): Promise<SsoLoginState | null> {
    return this.dataSource
      .getRepository(SsoLoginState)
      .createQueryBuilder('s')
      .where('s.browser_hash = :browserHash AND s.purpose = :purpose AND s.consumed_at IS NULL AND s.expires_at > :now', {
        browserHash,
        purpose: 'link',
        now,
      })
      .orderBy('s.created_at', 'DESC')
      .getOne();
  }

  async consumePendingLink(id: string, tx: Transaction): Promise<boolean> {
    const result = await managerOf(tx, this.dataSource).getRepository(SsoLoginState).update({ id, consumedAt: IsNull() }, { consumedAt: new Date() });
    return (result.affected ?? 0) === 1;
  }

  async purgeExpiredLoginStates(now: Date): Promise<void> {
    await this.dataSource.query(`DELETE FROM sso_login_states WHERE expires_at < $1`, [new Date(now.getTime() - 86_400_000)]);
  }

  /** Marks the session as opened through the provider, with what signing out there needs (sealed by the caller). */
  async recordSsoSession(
    sessionTokenHash: string,
    providerId: string,
    logout: Partial<Pick<SsoSession, 'idTokenEncrypted' | 'samlNameIdEncrypted' | 'samlSessionIndex'>> = {},
  ): Promise<void> {
    await this.dataSource.transaction(async (tx) => {
      // TypeORM answers an UPDATE with [rows, count].
      const [rows]: [{ id: string }[], number] = await tx.query(`UPDATE sessions SET sso_provider_id = $2 WHERE token_hash = $1 RETURNING id`, [
        sessionTokenHash,
        providerId,
      ]);
      if (rows[0]) await tx.getRepository(SsoSession).insert({ sessionId: rows[0].id, providerId, ...logout });
    });
  }

  /** Ends every live session opened through the provider except `keepSessionId`; returns how many. */
  async revokeProviderSessions(providerId: string, keepSessionId: string, tx: Transaction): Promise<number> {
    // TypeORM answers an UPDATE with [rows, count].
    const [, count]: [unknown[], number] = await managerOf(tx, this.dataSource).query(
      `UPDATE sessions SET revoked_at = now() WHERE sso_provider_id = $1 AND id <> $2 AND revoked_at IS NULL`,
      [providerId, keepSessionId],
    );
    return count;
  }

  async revokeSession(sessionId: string): Promise<void> {
    await this.dataSource.query(`UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL`, [sessionId]);
  }

  findSsoSession(sessionId: string): Promise<SsoSession | null> {
    return this.dataSource.getRepository(SsoSession).findOne({ where: { sessionId }, relations: { provider: true } });
  }
}
