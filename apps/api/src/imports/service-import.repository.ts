import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { emptyRecordCounts } from '@hearth/domain/import-formats';
import { managerOf, Transaction } from '../database/transactions';

/** Counts of records per NDJSON entity key. */
export type RecordCounts = Record<string, number>;

/** The family's names a ServiceImport would collide with (`name` rows of each query). */
export interface FamilyNameRows {
  categories: Array<{ name: string }>;
  tags: Array<{ name: string }>;
  merchants: Array<{ name: string }>;
}

/**
 * SQL of ServiceImport (docs/api/service-ndjson.md): its stored plan, the family's names and budget periods its
 * preflight checks, and the counts of the family's records its verification reads back. Scoped by family.
 */
@Injectable()
export class ServiceImportRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The household currency and time zone the plan gives records naming neither. */
  async familyCurrencyAndTimezone(familyId: string, tx?: Transaction): Promise<{ currency: string; timezone: string }> {
    const [family] = await managerOf(tx, this.dataSource).query(`SELECT currency, timezone FROM families WHERE id = $1`, [familyId]);
    return family;
  }

  async familyCurrency(familyId: string, tx?: Transaction): Promise<string> {
    const [{ currency }] = await managerOf(tx, this.dataSource).query(`SELECT currency FROM families WHERE id = $1`, [familyId]);
    return currency;
  }

  /** Stores the plan's counts, and the family currency it was made with (publish plans again if that changed). */
  async storePlan(familyId: string, importId: string, plan: { rowsCount: number; expectedRecordCounts: RecordCounts; currency: string }, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `UPDATE imports SET rows_count = $2, expected_record_counts = $3, readback_verification = '{}', column_mappings = jsonb_build_object('planned_currency', $4::text)
      WHERE id = $1 AND family_id = $5`,
      [importId, plan.rowsCount, JSON.stringify(plan.expectedRecordCounts), plan.currency, familyId],
    );
  }

  /** The import's stored file and the currency its plan was made with (the family's when none is recorded). */
  async storedFileAndPlannedCurrency(familyId: string, importId: string, tx?: Transaction): Promise<{ text: string | null; currency: string } | undefined> {
    const [row] = await managerOf(tx, this.dataSource).query(
      `SELECT i.raw_file_content AS text, COALESCE(i.column_mappings->>'planned_currency', f.currency) AS currency
       FROM imports i JOIN families f ON f.id = i.family_id WHERE i.id = $1 AND i.family_id = $2`,
      [importId, familyId],
    );
    return row;
  }

  /** Of `names`, those the family's categories, tags and merchants have; records this import created do not count. */
  async familyNames(familyId: string, importId: string, names: string[], tx?: Transaction): Promise<FamilyNameRows> {
    const manager = managerOf(tx, this.dataSource);
    const params = [familyId, names, importId];
    const [categories, tags, merchants] = await Promise.all([
      manager.query(`SELECT name FROM categories WHERE family_id = $1 AND name = ANY($2::text[]) AND import_id IS DISTINCT FROM $3`, params),
      manager.query(`SELECT name FROM tags WHERE family_id = $1 AND name = ANY($2::text[]) AND import_id IS DISTINCT FROM $3`, params),
      manager.query(`SELECT name FROM merchants WHERE family_id = $1 AND type = 'FamilyMerchant' AND name = ANY($2::text[]) AND import_id IS DISTINCT FROM $3`, params),
    ]);
    return { categories, tags, merchants };
  }

  /** The family's budget periods ('start..end'), but for the budgets `ownBudgets` (this import's). */
  async familyBudgetPeriods(familyId: string, ownBudgets: string[], tx?: Transaction): Promise<string[]> {
    const periods: Array<{ period: string }> = await managerOf(tx, this.dataSource).query(
      `SELECT start_date::text || '..' || end_date::text AS period FROM budgets WHERE family_id = $1 AND user_id IS NULL AND id <> ALL($2::uuid[])`,
      [familyId, ownBudgets],
    );
    return periods.map((p) => p.period);
  }

  /**
   * The family's totals per entity key, in one family-scoped statement. Transactions are top-level ones: split lines
   * are part of their NDJSON line, not records of their own. Hearth keeps no balances, holdings, recurring
   * transactions or rejected transfers, so those keys read 0 (a file with such records shows as a mismatch).
   */
  async familyRecordCounts(familyId: string, tx?: Transaction): Promise<RecordCounts> {
    const [row] = await managerOf(tx, this.dataSource).query(
      `SELECT (SELECT count(*) FROM accounts WHERE family_id = $1)::int AS accounts,
            (SELECT count(*) FROM categories WHERE family_id = $1)::int AS categories,
            (SELECT count(*) FROM tags WHERE family_id = $1)::int AS tags,
            (SELECT count(*) FROM merchants WHERE family_id = $1 AND type = 'FamilyMerchant')::int AS merchants,
            (SELECT count(*) FROM entries WHERE family_id = $1 AND entryable_type = 'Transaction' AND parent_entry_id IS NULL)::int AS transactions,
            (SELECT count(*) FROM transfers WHERE family_id = $1)::int AS transfers,
            (SELECT count(*) FROM entries WHERE family_id = $1 AND entryable_type = 'Trade')::int AS trades,
            (SELECT count(*) FROM entries WHERE family_id = $1 AND entryable_type = 'Valuation')::int AS valuations,
            (SELECT count(*) FROM budgets WHERE family_id = $1)::int AS budgets,
            (SELECT count(*) FROM budget_categories bc JOIN budgets b ON b.id = bc.budget_id WHERE b.family_id = $1)::int AS budget_categories,
            (SELECT count(*) FROM rules WHERE family_id = $1)::int AS rules`,
      [familyId],
    );
    return { ...emptyRecordCounts(), ...row };
  }

  async readback(familyId: string, importId: string): Promise<{ readback: Record<string, unknown>; publishedThroughRow: number }> {
    const [row] = await this.dataSource.query(`SELECT readback_verification AS readback, published_through_row AS p FROM imports WHERE id = $1 AND family_id = $2`, [importId, familyId]);
    return { readback: row?.readback ?? {}, publishedThroughRow: Number(row?.p ?? 0) };
  }

  async expectedRecordCounts(familyId: string, importId: string): Promise<RecordCounts> {
    const [{ expected }] = await this.dataSource.query(`SELECT expected_record_counts AS expected FROM imports WHERE id = $1 AND family_id = $2`, [importId, familyId]);
    return expected;
  }

  async saveReadback(familyId: string, importId: string, value: Record<string, unknown>): Promise<void> {
    await this.dataSource.query(`UPDATE imports SET readback_verification = $2 WHERE id = $1 AND family_id = $3`, [importId, JSON.stringify(value), familyId]);
  }

  /**
   * The readback of an import being reverted, in the revert's transaction. By import id alone: the worker's revert
   * (publishing/import-publisher.ts) hands over only the id of the import it has locked.
   */
  async saveRevertedReadback(importId: string, value: Record<string, unknown>, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`UPDATE imports SET readback_verification = $2 WHERE id = $1`, [importId, JSON.stringify(value)]);
  }
}
