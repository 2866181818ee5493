import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { SamlRequest } from './saml.entities';
import { SsoLoginState } from './sso.entities';

/** What the sign-in or sign-out that issued a request needs back when the IdP answers it. */
export type SamlRequestContext = Pick<SamlRequest, 'browserHash' | 'purpose' | 'userId'>;

/** AuthnRequests are answered by sign-in Responses, LogoutRequests by LogoutResponses: never one for the other. */
export type SamlRequestKind = 'sign_in' | 'logout';

/** SQL for issued request IDs, seen assertion IDs, and SAML identities parked between the ACS and the browser. */
@Injectable()
export class SamlRepository {
  constructor(private readonly dataSource: DataSource) {}

  async saveRequest(values: Omit<SamlRequest, 'createdAt' | 'consumedAt' | 'provider'>): Promise<void> {
    await this.dataSource.getRepository(SamlRequest).insert(values);
  }

  /** The IssueInstant of an unanswered, unexpired request of this provider and kind. */
  async openRequestInstant(id: string, providerId: string, kind: SamlRequestKind, now: Date): Promise<string | null> {
    const rows: { issue_instant: string }[] = await this.dataSource.query(
      `SELECT issue_instant FROM saml_requests
        WHERE id = $1 AND provider_id = $2 AND (purpose = 'logout') = $4 AND consumed_at IS NULL AND expires_at > $3`,
      [id, providerId, now, kind === 'logout'],
    );
    return rows[0]?.issue_instant ?? null;
  }

  /**
   * Marks the request answered, in one statement, and returns its context; null when it was unknown, expired, of
   * another provider or kind, or already used, so of two concurrent responses to one request only one gets through.
   */
  async consumeRequest(id: string, providerId: string, kind: SamlRequestKind, now: Date): Promise<SamlRequestContext | null> {
    const [rows]: [Record<string, unknown>[], number] = await this.dataSource.query(
      `UPDATE saml_requests SET consumed_at = $3
        WHERE id = $1 AND provider_id = $2 AND (purpose = 'logout') = $4 AND consumed_at IS NULL AND expires_at > $3
        RETURNING browser_hash, purpose, user_id`,
      [id, providerId, now, kind === 'logout'],
    );
    const row = rows?.[0];
    return row
      ? { browserHash: (row.browser_hash as string | null) ?? null, purpose: row.purpose as string, userId: (row.user_id as string | null) ?? null }
      : null;
  }

  /**
   * Records an accepted assertion ID (or `logout:<ID>` of a LogoutRequest); false when this provider's message was
   * seen before (a replay).
   */
  async recordAssertion(providerId: string, assertionId: string, expiresAt: Date): Promise<boolean> {
    const rows: unknown[] = await this.dataSource.query(
      `INSERT INTO saml_assertions (provider_id, assertion_id, expires_at) VALUES ($1, $2, $3)
       ON CONFLICT DO NOTHING RETURNING assertion_id`,
      [providerId, assertionId, expiresAt],
    );
    return rows.length === 1;
  }

  /**
   * Takes a verified SAML identity parked by the ACS (sso_login_states rows of the given purposes), in one statement,
   * so it is used at most once; expired and used rows are never returned.
   */
  async consumeCompletion(stateHash: string, purposes: string[], now: Date): Promise<SsoLoginState | null> {
    const [rows]: [Record<string, unknown>[], number] = await this.dataSource.query(
      `UPDATE sso_login_states SET consumed_at = $2
        WHERE state_hash = $1 AND purpose = ANY($3) AND consumed_at IS NULL AND expires_at > $2
        RETURNING id`,
      [stateHash, now, purposes],
    );
    if (!rows?.length) return null;
    return this.dataSource.getRepository(SsoLoginState).findOneBy({ id: rows[0].id as string });
  }

  /** Ends the user's sessions that were opened through this provider (IdP-initiated logout); returns how many. */
  async revokeProviderSessions(userId: string, providerId: string, now: Date): Promise<number> {
    const [, count]: [unknown[], number] = await this.dataSource.query(
      `UPDATE sessions SET revoked_at = $3 WHERE user_id = $1 AND sso_provider_id = $2 AND revoked_at IS NULL`,
      [userId, providerId, now],
    );
    return count;
  }

  /** Old requests are kept a day (for inspection) and expired assertion IDs dropped; cheap with the expires_at indexes. */
  async purgeExpired(now: Date): Promise<void> {
    await this.dataSource.query(`DELETE FROM saml_requests WHERE expires_at < $1`, [new Date(now.getTime() - 86_400_000)]);
    await this.dataSource.query(`DELETE FROM saml_assertions WHERE expires_at < $1`, [now]);
  }
}
