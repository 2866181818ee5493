import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { managerOf, Transaction } from '../database/transactions';
import type { ReplayedAnswer } from './import-idempotency';

/** A key's life: 24 hours from the first request. */
const EXPIRED = `created_at < now() - interval '24 hours'`;

/** What the first request with a key left: its fingerprint, its import once stored, its answer once sent. */
export interface StoredKey {
  fingerprint: string;
  importId: string | null;
  status: number | null;
  body: unknown;
}

/** SQL of import_idempotency_keys; every statement is scoped by family. */
@Injectable()
export class ImportIdempotencyRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Inserts the key for this request, or takes over a key of the same name older than 24 hours; false when the key
   * is held. A request holding the key in a transaction not yet committed makes this one wait, then find it held.
   */
  async insertOrTakeExpired(familyId: string, key: string, fingerprint: string, tx: Transaction): Promise<boolean> {
    const [taken] = await managerOf(tx, this.dataSource).query(
      `INSERT INTO import_idempotency_keys (family_id, key, request_fingerprint) VALUES ($1, $2, $3)
       ON CONFLICT (family_id, key) DO UPDATE
         SET request_fingerprint = EXCLUDED.request_fingerprint, import_id = NULL, response_status = NULL, response_body = NULL, created_at = now()
         WHERE import_idempotency_keys.${EXPIRED}
       RETURNING 1 AS taken`,
      [familyId, key, fingerprint],
    );
    return Boolean(taken);
  }

  async find(familyId: string, key: string, tx: Transaction): Promise<StoredKey | undefined> {
    const [first] = await managerOf(tx, this.dataSource).query(
      `SELECT request_fingerprint AS fingerprint, import_id AS "importId", response_status AS status, response_body AS body
         FROM import_idempotency_keys WHERE family_id = $1 AND key = $2`,
      [familyId, key],
    );
    return first;
  }

  /** Names the import the key's request stored, in the same transaction. */
  async attachImport(familyId: string, key: string, importId: string, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`UPDATE import_idempotency_keys SET import_id = $3 WHERE family_id = $1 AND key = $2`, [familyId, key, importId]);
  }

  /** Keys are kept 24 hours; older ones go (on the stuck-import reaper's round), across families. */
  async deleteExpired(): Promise<void> {
    await this.dataSource.query(`DELETE FROM import_idempotency_keys WHERE ${EXPIRED}`);
  }

  /** Keeps the answer the key's first request got, for repeats to get the same. */
  async recordAnswer(familyId: string, key: string, answer: ReplayedAnswer): Promise<void> {
    await this.dataSource.query(
      `UPDATE import_idempotency_keys SET response_status = $3, response_body = $4 WHERE family_id = $1 AND key = $2`,
      [familyId, key, answer.status, JSON.stringify(answer.body)],
    );
  }
}
