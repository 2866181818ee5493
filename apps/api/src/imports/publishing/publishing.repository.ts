import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { ParsedRow } from '@hearth/domain/import-formats';
import { ADVISORY_LOCKS } from '../../database/advisory-locks';
import { managerOf, Transaction } from '../../database/transactions';
import { IN_CHUNK } from '../../ledger/import-chunk';
import type { ImportMapping } from '../import.entity';
import type { ImportRowRecord } from './publish-context';

/** The statements of publishing on the import's own tables (imports, import_rows). */
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
}
