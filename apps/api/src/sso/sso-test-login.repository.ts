import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SsoLoginState } from './sso.entities';

/**
 * Test logins live in sso_login_states like every sign-in transaction (purpose `test`, `user_id` = the super admin who
 * started it); once the callback is handled the same row keeps the result, in `pending_link`, for that admin to read.
 * The ordinary callback only consumes `login`/`connect` rows, so a test state can never sign anyone in.
 */
@Injectable()
export class SsoTestLoginRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Marks a test transaction used and returns it, in one statement, like an ordinary callback's state. */
  consume(stateHash: string, now: Date): Promise<SsoLoginState | null> {
    return this.consumeOne(
      `UPDATE sso_login_states SET consumed_at = $2
        WHERE state_hash = $1 AND purpose = 'test' AND consumed_at IS NULL AND expires_at > $2
        RETURNING id`,
      [stateHash, now],
    );
  }

  /** Marks the admin's newest open test login with this provider used and returns it (SAML answers carry no state). */
  consumeLatest(providerId: string, userId: string, now: Date): Promise<SsoLoginState | null> {
    return this.consumeOne(
      `UPDATE sso_login_states SET consumed_at = $3
        WHERE id = (SELECT id FROM sso_login_states
                     WHERE provider_id = $1 AND user_id = $2 AND purpose = 'test' AND consumed_at IS NULL AND expires_at > $3
                     ORDER BY created_at DESC LIMIT 1)
          AND consumed_at IS NULL
        RETURNING id`,
      [providerId, userId, now],
    );
  }

  /** Runs an UPDATE ... RETURNING id that marks at most one test row consumed, and loads that row. */
  private async consumeOne(sql: string, params: unknown[]): Promise<SsoLoginState | null> {
    const [rows]: [{ id: string }[], number] = await this.dataSource.query(sql, params);
    if (!rows?.length) return null;
    return this.dataSource.getRepository(SsoLoginState).findOneBy({ id: rows[0].id });
  }

  async saveResult(id: string, result: Record<string, unknown>): Promise<void> {
    await this.dataSource.query(`UPDATE sso_login_states SET pending_link = $2::jsonb WHERE id = $1`, [id, JSON.stringify(result)]);
  }

  /** The admin's most recent test login with this provider. */
  latest(providerId: string, userId: string): Promise<SsoLoginState | null> {
    return this.dataSource
      .getRepository(SsoLoginState)
      .createQueryBuilder('s')
      .where(`s.provider_id = :providerId AND s.user_id = :userId AND s.purpose = 'test'`, { providerId, userId })
      .orderBy('s.created_at', 'DESC')
      .getOne();
  }
}
