import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ParsedRow } from '@hearth/domain/import-formats';
import { ADVISORY_LOCKS } from '../../database/advisory-locks';
import { managerOf, Transaction } from '../../database/transactions';
import { IN_CHUNK } from '../../ledger/import-chunk';
import { Import, ImportMapping } from '../import.entity';
import type { ImportRowRecord } from './publish-context';

/**
 * The import being reverted ($2) and the family's other imports that hold a claim or are publishing (a chunk in
 * flight may be claiming one), locked FOR UPDATE: a chunk holding its import's row commits first, and later chunks
 * wait for the revert. One statement, in id order: two reverts whose imports claim each other's records lock in the
 * same order, so one waits for the other instead of each holding its own import and waiting for the other's (a
 * deadlock PostgreSQL ended by failing one). Whether a claim is on this import's records is left to PASS_CLAIMED
 * (asking here reads every claim; an import's first claim is one probe).
 */
const LOCK_REVERT = `
  SELECT id FROM imports i
   WHERE family_id = $1
     AND (id = $2 OR status = 'importing' OR EXISTS (SELECT 1 FROM import_rows r WHERE r.import_id = i.id AND r.duplicate_of IS NOT NULL))
   ORDER BY id FOR UPDATE`;

/**
 * The statements of publishing and reverting on the import's own tables (imports, import_rows, import_mappings). The
 * job worker calls them by import id for an import it has found in the job's family (findImport).
 */
@Injectable()
export class PublishingRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Holds the import for the rest of the transaction: two deliveries of one publish job must not both create the
   * missing records (accounts have no unique name); the second waits, then reads the mappings the first resolved.
   */
  async lockImport(importId: string, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`SELECT 1 FROM imports WHERE id = $1 FOR UPDATE`, [importId]);
  }

  /**
   * Holds the family's mappings for the rest of the transaction: imports resolve their mappings one family at a time,
   * so that two do not each create an account of a name the family lacks; the later finds what the earlier created.
   */
  async lockFamilyMappings(familyId: string, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [ADVISORY_LOCKS.familyMappings, familyId]);
  }

  /** The import's mappings. */
  mappings(importId: string, tx?: Transaction): Promise<ImportMapping[]> {
    return managerOf(tx, this.dataSource).query(
      `SELECT id, type, key, value, create_when_empty AS "createWhenEmpty", mappable_id AS "mappableId" FROM import_mappings WHERE import_id = $1`,
      [importId],
    );
  }

  /** Records the record each mapping (type, key) resolved to. */
  async setMappedIds(importId: string, updates: string[][], tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `UPDATE import_mappings m SET mappable_id = u.id
         FROM unnest($2::varchar[], $3::varchar[], $4::uuid[]) AS u(type, key, id)
        WHERE m.import_id = $1 AND m.type = u.type AND m.key = u.key`,
      [importId, updates.map((u) => u[0]), updates.map((u) => u[1]), updates.map((u) => u[2])],
    );
  }

  /** The import's rows after `after` with an amount and no currency of their own. */
  rowsWithoutCurrency(importId: string, after: number, tx?: Transaction): Promise<ParsedRow[]> {
    return managerOf(tx, this.dataSource).query(
      `SELECT source_row_number AS "sourceRowNumber", "values", errors FROM import_rows
      WHERE import_id = $1 AND source_row_number > $2 AND "values" ? 'amount' AND "values"->>'currency' IS NULL`,
      [importId, after],
    );
  }

  /** The chunk's rows in order, `bounds` being IN_CHUNK's parameters (with a row kind, only the rows of that kind). */
  chunkRows(bounds: unknown[], tx?: Transaction): Promise<ImportRowRecord[]> {
    return managerOf(tx, this.dataSource).query(
      `SELECT r.source_row_number AS "sourceRowNumber", r."values" FROM import_rows r WHERE ${IN_CHUNK} ORDER BY r.source_row_number`,
      bounds,
    );
  }

  /** The source ids of a ServiceImport's budgets (as its rows give them, untrimmed). */
  async serviceBudgetIds(importId: string, tx?: Transaction): Promise<Array<{ id: string | null }>> {
    return managerOf(tx, this.dataSource).query(
      `SELECT "values"->'data'->>'id' AS id FROM import_rows WHERE import_id = $1 AND "values"->>'type' = 'Budget'`,
      [importId],
    );
  }

  /** The family's import of that id. */
  findImport(familyId: string, importId: string, tx?: Transaction): Promise<Import | null> {
    return managerOf(tx, this.dataSource).getRepository(Import).findOneBy({ id: importId, familyId });
  }

  /** The family's currency and time zone. */
  async familyCurrencyAndTimezone(familyId: string, tx?: Transaction): Promise<{ currency: string; timezone: string }> {
    const [family] = await managerOf(tx, this.dataSource).query(`SELECT currency, timezone FROM families WHERE id = $1`, [familyId]);
    return family;
  }

  /**
   * Replaces `reapedError` on the import failed by the reaper with `error`, when its job `jobId` is delivered after
   * all; true when it did.
   */
  async noteDeliveredAfterReap(importId: string, jobId: string, error: string, reapedError: string, tx?: Transaction): Promise<boolean> {
    const [late] = await managerOf(tx, this.dataSource).query(
      `UPDATE imports SET error = $3, updated_at = now() WHERE id = $1 AND job_id = $2 AND status = 'failed' AND error = $4 RETURNING id`,
      [importId, jobId, error, reapedError],
    );
    return late.length > 0;
  }

  /** Renews the heartbeat of the import while the delivery holding `token` publishes it. */
  async renewPublishHeartbeat(importId: string, token: string, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`UPDATE imports SET heartbeat_at = now() WHERE id = $1 AND status = 'importing' AND publish_token = $2`, [importId, token]);
  }

  /** Renews the heartbeat of the import while it is reverting. */
  async renewRevertHeartbeat(importId: string, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`UPDATE imports SET heartbeat_at = now() WHERE id = $1 AND status = 'reverting'`, [importId]);
  }

  /** Locks the import and the family's imports a revert must wait for (LOCK_REVERT), for the rest of the transaction. */
  async lockForRevert(familyId: string, importId: string, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(LOCK_REVERT, [familyId, importId]);
  }

  /** The import's resume point while the delivery holding `token` publishes it; undefined when it does not. */
  async publishedThrough(importId: string, token: string, tx?: Transaction): Promise<number | undefined> {
    const [current] = await managerOf(tx, this.dataSource).query(
      `SELECT published_through_row AS through FROM imports WHERE id = $1 AND status = 'importing' AND publish_token = $2`,
      [importId, token],
    );
    return current?.through;
  }

  /** True while the import is failed with nothing published. */
  async failedWithNothingPublished(importId: string, tx?: Transaction): Promise<boolean> {
    const [still] = await managerOf(tx, this.dataSource).query(`SELECT 1 FROM imports WHERE id = $1 AND status = 'failed' AND published_through_row = 0`, [importId]);
    return Boolean(still);
  }

  /** Gives the importing import's publish to `token`; returns its resume point, or null when it is not importing. */
  async takeOverPublish(importId: string, token: string, tx?: Transaction): Promise<{ through: number } | null> {
    const [claimed] = await managerOf(tx, this.dataSource).query(
      `UPDATE imports SET publish_token = $2, heartbeat_at = now(), updated_at = now() WHERE id = $1 AND status = 'importing' RETURNING published_through_row AS through`,
      [importId, token],
    );
    return claimed.length ? claimed[0] : null;
  }

  /** True while the delivery holding `token` holds the import's publish. */
  async holdsPublish(importId: string, token: string, tx?: Transaction): Promise<boolean> {
    const rows = await managerOf(tx, this.dataSource).query(`SELECT 1 FROM imports WHERE id = $1 AND publish_token = $2`, [importId, token]);
    return rows.length > 0;
  }

  /** True when the import has a stock split row. */
  /** Whether every row of the import is a transaction (a bank statement's; not an investment statement's trades). */
  async onlyTransactionRows(importId: string): Promise<boolean> {
    const [{ only }] = await this.dataSource.query(`SELECT NOT EXISTS (SELECT 1 FROM import_rows WHERE import_id = $1 AND "values"->>'row_kind' <> 'transaction') AS only`, [importId]);
    return only;
  }

  async hasSplits(importId: string, tx?: Transaction): Promise<boolean> {
    const [{ splits }] = await managerOf(tx, this.dataSource).query(`SELECT EXISTS (SELECT 1 FROM import_rows WHERE import_id = $1 AND "values"->>'row_kind' = 'split') AS splits`, [importId]);
    return splits;
  }

  /**
   * The size and last row of each chunk of up to `size` rows after row `after`, in order, in one scan. With
   * `splitParts`, a split's parts (split_of) are not counted, so that they go in their parent's chunk; otherwise the
   * row numbers alone (the index) place the chunks.
   */
  chunks(importId: string, after: number, size: number, splitParts: boolean, tx?: Transaction): Promise<Array<{ size: number; through: number }>> {
    const position = splitParts ? `count(*) FILTER (WHERE "values"->>'split_of' IS NULL) OVER (ORDER BY source_row_number)` : 'row_number() OVER (ORDER BY source_row_number)';
    return managerOf(tx, this.dataSource).query(
      `SELECT count(*)::int AS size, max(source_row_number) AS through
         FROM (SELECT source_row_number, (${position} - 1) / $3 AS chunk
                 FROM import_rows WHERE import_id = $1 AND source_row_number > $2) r
        GROUP BY chunk ORDER BY chunk`,
      [importId, after, size],
    );
  }

  /**
   * The import's status and publish token, the import row held FOR KEY SHARE for the rest of the transaction: the
   * chunks of one publish (and their updates of the resume point) run together while a revert (FOR UPDATE) waits.
   */
  async shareForChunk(importId: string, tx?: Transaction): Promise<{ status: string; token: string | null } | undefined> {
    const [current] = await managerOf(tx, this.dataSource).query(`SELECT status, publish_token AS token FROM imports WHERE id = $1 FOR KEY SHARE`, [importId]);
    return current;
  }

  /** The family's data_version moves once per chunk, by the caller, in commit order (migration DataVersionByCaller says why). */
  async takeDataVersion(tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`SELECT set_config('hearth.data_version_by_caller', 'on', true)`);
  }

  /** Moves the family's data_version on. */
  async bumpDataVersion(familyId: string, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`UPDATE families SET data_version = data_version + 1 WHERE id = $1`, [familyId]);
  }

  /**
   * Moves the resume point from `after` to `through` while the delivery holding `token` publishes the import; false
   * when it is not there (stopped, taken over, or a chunk before failed).
   */
  async movePublishedThrough(importId: string, after: number, through: number, token: string, tx?: Transaction): Promise<boolean> {
    const [moved] = await managerOf(tx, this.dataSource).query(
      `UPDATE imports SET published_through_row = $3, updated_at = now()
          WHERE id = $1 AND status = 'importing' AND publish_token = $4 AND published_through_row = $2 RETURNING id`,
      [importId, after, through, token],
    );
    return moved.length > 0;
  }

  /**
   * Marks for creation again the import's mappings whose record is gone, and drops its rows' claims, its resume
   * point and its warnings: what a revert leaves of the import.
   */
  async resetAfterRevert(importId: string, tx?: Transaction): Promise<void> {
    const manager = managerOf(tx, this.dataSource);
    await manager.query(
      `UPDATE import_mappings m SET mappable_id = NULL, create_when_empty = true
        WHERE m.import_id = $1 AND m.mappable_id IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM accounts WHERE id = m.mappable_id)
          AND NOT EXISTS (SELECT 1 FROM categories WHERE id = m.mappable_id)
          AND NOT EXISTS (SELECT 1 FROM tags WHERE id = m.mappable_id)`,
      [importId],
    );
    await manager.query(`UPDATE import_rows SET duplicate_of = NULL, previous = NULL WHERE import_id = $1 AND duplicate_of IS NOT NULL`, [importId]);
    await manager.query(`UPDATE imports SET published_through_row = 0, warnings = '[]' WHERE id = $1`, [importId]);
  }

  /** Records what the publish found worth telling that did not stop it ([]: nothing), in its last chunk's transaction. */
  async setWarnings(importId: string, warnings: string[], tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`UPDATE imports SET warnings = $2::jsonb WHERE id = $1`, [importId, JSON.stringify(warnings)]);
  }

  /** Moves the import on from status `from` to `to`; with a publish token, only while that delivery holds the publish. */
  async moveStatus(importId: string, from: Import['status'], to: Import['status'], error: string | null, token: string | null, tx?: Transaction): Promise<boolean> {
    const [moved] = await managerOf(tx, this.dataSource).query(
      `UPDATE imports SET status = $3, error = $4, updated_at = now() WHERE id = $1 AND status = $2 AND ($5::uuid IS NULL OR publish_token = $5) RETURNING id`,
      [importId, from, to, error, token],
    );
    return moved.length > 0;
  }
}
