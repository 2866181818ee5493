import { Inject, Injectable } from '@nestjs/common';
import { createHmac } from 'node:crypto';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { SecretBox, SecretBoxError } from '../sso/secret-box';
import { ADVISORY_LOCKS } from '../database/advisory-locks';
import { managerOf, Transaction } from '../database/transactions';
import { derivedKey } from '../common/derived-key';

export const IDENTITY_LABEL_PURPOSE = 'sso_identity_blocks.identity_label';

/** The HMAC key of subject digests: its own key derived from SECRET_KEY_BASE, never the secret itself. */
export const identityDigestKey = (secretKeyBase: string): Buffer => derivedKey(secretKeyBase, 'sso-identity-blocks-v1');

/**
 * HMAC-SHA256 (hex) of a provider's subject: equal subjects of one provider give equal digests, so a block is found
 * by lookup, while the subject itself cannot be read back or guessed from the table without the key.
 */
export const identityDigest = (key: Buffer, providerId: string, uid: string): string =>
  createHmac('sha256', key).update(`${providerId}\n${uid}`).digest('hex');

export interface IdentityBlockRow {
  id: string;
  providerId: string;
  providerName: string;
  providerLabel: string;
  /** The removed user's e-mail; a stand-in naming the digest when it no longer decrypts (key changed). */
  identityLabel: string;
  createdAt: Date;
}

/** SQL for sso_identity_blocks: written by a permanent user removal, read by every SSO sign-in, link and JIT creation. */
@Injectable()
export class IdentityBlocksRepository {
  private readonly key: Buffer;
  private readonly box: SecretBox;

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.key = identityDigestKey(config.secretKeyBase);
    this.box = SecretBox.fromConfig(config);
  }

  async isBlocked(providerId: string, uid: string, tx?: Transaction): Promise<boolean> {
    const rows: unknown[] = await managerOf(tx, this.dataSource).query(`SELECT 1 FROM sso_identity_blocks WHERE provider_id = $1 AND uid_digest = $2`, [
      providerId,
      identityDigest(this.key, providerId, uid),
    ]);
    return rows.length > 0;
  }

  /**
   * Serialises, for the transaction, everything that creates or blocks this identity: a JIT creation or link that
   * checked the block list cannot commit an identity a removal is blocking at the same moment.
   */
  async lockIdentity(providerId: string, uid: string, tx: Transaction): Promise<void> {
    const digest = identityDigest(this.key, providerId, uid);
    await managerOf(tx, this.dataSource).query('SELECT pg_advisory_xact_lock($1, $2)', [ADVISORY_LOCKS.ssoIdentity, Buffer.from(digest, 'hex').readInt32BE(0)]);
  }

  /** Blocks every SSO identity the user has now, labelled with `label`; returns how many (already blocked ones count). */
  async blockIdentitiesOf(userId: string, label: string, tx: Transaction): Promise<number> {
    const manager = managerOf(tx, this.dataSource);
    // Ordered, so two transactions locking several identities take the locks in the same order.
    const identities: { provider_id: string; uid: string }[] = await manager.query(
      `SELECT provider_id, uid FROM sso_identities WHERE user_id = $1 ORDER BY provider_id, uid`,
      [userId],
    );
    for (const identity of identities) {
      await this.lockIdentity(identity.provider_id, identity.uid, tx);
      await manager.query(
        `INSERT INTO sso_identity_blocks (provider_id, uid_digest, identity_label_encrypted) VALUES ($1, $2, $3)
         ON CONFLICT (provider_id, uid_digest) DO NOTHING`,
        [identity.provider_id, identityDigest(this.key, identity.provider_id, identity.uid), this.box.seal(label, IDENTITY_LABEL_PURPOSE)],
      );
    }
    return identities.length;
  }

  async list(): Promise<IdentityBlockRow[]> {
    const rows: Record<string, unknown>[] = await this.dataSource.query(
      `SELECT b.id, b.provider_id, p.name AS provider_name, p.label AS provider_label, b.uid_digest, b.identity_label_encrypted, b.created_at
         FROM sso_identity_blocks b JOIN sso_providers p ON p.id = b.provider_id
        ORDER BY b.created_at DESC, b.id`,
    );
    return rows.map((row) => ({
      id: row.id as string,
      providerId: row.provider_id as string,
      providerName: row.provider_name as string,
      providerLabel: row.provider_label as string,
      identityLabel: this.label(row.identity_label_encrypted as string, row.uid_digest as string),
      createdAt: new Date(row.created_at as string),
    }));
  }

  /** The block with its provider's name, locked for the transaction, or null. */
  async findForUpdate(id: string, tx: Transaction): Promise<{ id: string; providerId: string; providerName: string } | null> {
    const rows: { id: string; provider_id: string; provider_name: string }[] = await managerOf(tx, this.dataSource).query(
      `SELECT b.id, b.provider_id, p.name AS provider_name
         FROM sso_identity_blocks b JOIN sso_providers p ON p.id = b.provider_id
        WHERE b.id = $1 FOR UPDATE OF b`,
      [id],
    );
    return rows[0] ? { id: rows[0].id, providerId: rows[0].provider_id, providerName: rows[0].provider_name } : null;
  }

  async delete(id: string, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`DELETE FROM sso_identity_blocks WHERE id = $1`, [id]);
  }

  private label(encrypted: string, digest: string): string {
    try {
      return this.box.open(encrypted, IDENTITY_LABEL_PURPOSE);
    } catch (error) {
      if (error instanceof SecretBoxError) return `Removed identity ${digest.slice(0, 12)}`;
      throw error;
    }
  }
}
