import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { managerOf, Transaction } from '../database/transactions';

/** Tables an import adds rows to that nothing else refers to, each carrying import_id: revert deletes them first. */
const OWNED_BY_IMPORT = ['entries', 'transfers', 'rules'];

/**
 * Records an import creates that other data (of another import or of the user) can come to use, each by what uses
 * it; `r` is the record, `rule_values` every value the family's rules hold. Revert keeps the ones in use as the
 * family's own: deleting them would delete (accounts) or strip (the others) that data.
 */
const SHARED_BY_IMPORT = {
  accounts: `EXISTS (SELECT 1 FROM entries e WHERE e.account_id = r.id)
             OR EXISTS (SELECT 1 FROM imports i WHERE i.family_id = $1 AND i.account_id = r.id AND i.id <> $2)`,
  merchants: `EXISTS (SELECT 1 FROM transactions t WHERE t.merchant_id = r.id) OR r.id::text IN (SELECT id FROM rule_values)`,
  tags: `EXISTS (SELECT 1 FROM taggings g WHERE g.tag_id = r.id) OR r.id::text IN (SELECT id FROM rule_values)`,
  // Budgets list every category at 0 by themselves: only an amount set is a use. Another's subcategory is one too.
  categories: `EXISTS (SELECT 1 FROM transactions t WHERE t.category_id = r.id)
               OR EXISTS (SELECT 1 FROM budget_categories b WHERE b.category_id = r.id AND b.budgeted_spending_minor <> 0)
               OR EXISTS (SELECT 1 FROM categories c WHERE c.parent_id = r.id AND c.import_id IS DISTINCT FROM $2)
               OR r.id::text IN (SELECT id FROM rule_values)`,
};

/**
 * Clears import_id of the records of `table` the import created that are in use once its own rows are gone (and, for
 * categories, of the parents of those), so the delete after it leaves them.
 */
const KEEP_IN_USE = (table: keyof typeof SHARED_BY_IMPORT) => `
  WITH RECURSIVE rule_values AS (
         SELECT v #>> '{}' AS id FROM rules x CROSS JOIN LATERAL jsonb_path_query(x.conditions || x.actions, 'strict $.**.value') v
          WHERE x.family_id = $1),
       kept AS (
         SELECT r.id FROM ${table} r WHERE r.family_id = $1 AND r.import_id = $2 AND (${SHARED_BY_IMPORT[table]})
         ${table === 'categories' ? 'UNION SELECT c.parent_id FROM kept k JOIN categories c ON c.id = k.id WHERE c.parent_id IS NOT NULL' : ''})
  UPDATE ${table} SET import_id = NULL, updated_at = now() WHERE family_id = $1 AND import_id = $2 AND id IN (SELECT id FROM kept)`;

/**
 * Tables whose records another import's row can claim (import_rows.duplicate_of): a transaction its row duplicates
 * or an opening balance it replaced or moved, a rule or category of the same name, a merchant it lists again.
 */
const CLAIMABLE = ['entries', 'rules', 'categories', 'merchants'];

/**
 * The claims of the family's other imports (import $2 being reverted) on records import $2 created in `table`, as
 * (import_id, source_row_number, created_at, id). Driven from the claims, each probing the record's key: `OFFSET 0`
 * keeps the planner from turning that into a scan of every record the import created (with statistics behind a
 * large import it read them all to find no claim), and `IS NOT DISTINCT FROM` keeps it from probing the import_id
 * index instead of the key (believing an import had one entry, it read all of its entries for each claim).
 */
const claimsOn = (table: string) => `
  SELECT r.import_id, r.source_row_number, i.created_at, x.id
    FROM imports i
    JOIN import_rows r ON r.import_id = i.id AND r.duplicate_of IS NOT NULL
   CROSS JOIN LATERAL (SELECT x.id FROM ${table} x WHERE x.id = r.duplicate_of AND x.family_id = $1 AND x.import_id IS NOT DISTINCT FROM $2 OFFSET 0) x
   WHERE i.family_id = $1 AND i.id <> $2`;

/**
 * A record of `table` the import created that another import's row claims passes to that import (the earliest, when
 * several do) instead of going with the revert: that import's file holds it too. The row's claim is dropped, as the
 * record is now that import's own, and goes when that import is reverted.
 */
const PASS_CLAIMED = (table: string) => `
  WITH heirs AS (
         SELECT DISTINCT ON (c.id) c.id, c.import_id, c.source_row_number
           FROM (${claimsOn(table)}) c ORDER BY c.id, c.created_at, c.import_id, c.source_row_number),
       passed AS (UPDATE ${table} x SET import_id = h.import_id, updated_at = now() FROM heirs h WHERE x.id = h.id)
  UPDATE import_rows r SET duplicate_of = NULL, previous = NULL
    FROM heirs h WHERE r.import_id = h.import_id AND r.source_row_number = h.source_row_number`;

/**
 * A split (an Actual or ServiceImport parent and its parts) whose entries passed in part to claimants no longer
 * stands once import $2's own entries go: a passed parent losing parts is counted again as the claimant's own
 * transaction (it was excluded for its parts), and every entry kept under a parent that goes or is so unsplit stands
 * alone (deleting the parent would cascade to it). Driven from import $2's entries, probing by parent.
 */
const UNSPLIT_PASSED = `
  WITH unsplit AS (
         SELECT DISTINCT p.id FROM entries c JOIN entries p ON p.id = c.parent_entry_id
          WHERE c.family_id = $1 AND c.import_id = $2 AND p.import_id IS DISTINCT FROM $2),
       counted AS (UPDATE entries p SET excluded = false, updated_at = now() FROM unsplit u WHERE p.id = u.id),
       parents AS (
         SELECT id FROM unsplit
          UNION SELECT id FROM entries WHERE family_id = $1 AND import_id = $2 AND excluded)
  UPDATE entries c SET parent_entry_id = NULL, updated_at = now()
    FROM parents p WHERE c.parent_entry_id = p.id AND c.import_id IS DISTINCT FROM $2`;

/**
 * Columns (with their types, and the table a reference points into) a row can change in an existing record it
 * claims, by table and the table's key: a duplicate transaction, an opening balance, a rule or category of the same
 * name. Revert puts them back first, from import_rows.previous, and removes the tags the row added.
 */
const RESTORED: Array<{ table: string; key: string; columns: Array<[column: string, type: string, references?: string]> }> = [
  { table: 'entries', key: 'id', columns: [['date', 'date'], ['amount_minor', 'bigint'], ['currency', 'char(3)'], ['notes', 'text']] },
  { table: 'transactions', key: 'entry_id', columns: [['category_id', 'uuid', 'categories']] },
  { table: 'rules', key: 'id', columns: [['active', 'boolean'], ['effective_date', 'date'], ['conditions', 'jsonb'], ['actions', 'jsonb']] },
  { table: 'categories', key: 'id', columns: [['color', 'varchar'], ['lucide_icon', 'varchar'], ['parent_id', 'uuid', 'categories']] },
];

/**
 * Sets `column` of the record a row claimed (x) back to its value before the row changed it, unless changed since. A
 * reference to a record deleted since becomes NULL, as the delete (ON DELETE SET NULL) would have left it.
 */
const restored = (column: string, type: string, references?: string) => {
  const before = `(r.previous->'${column}'->>0)::${type}`;
  return `${column} = CASE WHEN r.previous ? '${column}' AND (r.previous->'${column}'->>1)::${type} IS NOT DISTINCT FROM x.${column}
                    THEN ${references ? `(SELECT id FROM ${references} WHERE id = ${before})` : before} ELSE x.${column} END`;
};

/**
 * The statements of revert on the ledger's tables: what an import created goes, unless another import's file holds
 * it too (it passes to that import) or other data uses it (it stays as the family's own); what its rows changed in
 * existing records is put back. Run in the revert's transaction, which holds the family's claimant imports first.
 */
@Injectable()
export class ImportRevertRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Passes the records of import `importId` that other imports' rows claim to those imports (PASS_CLAIMED), then unsplits (UNSPLIT_PASSED). */
  async passClaimed(familyId: string, importId: string, tx?: Transaction): Promise<void> {
    const manager = managerOf(tx, this.dataSource);
    for (const table of CLAIMABLE) await manager.query(PASS_CLAIMED(table), [familyId, importId]);
    await manager.query(UNSPLIT_PASSED, [familyId, importId]);
  }

  /** Puts back what import `importId`'s rows changed in the records they claimed (RESTORED), and removes the tags they added. */
  async restoreClaimed(importId: string, tx?: Transaction): Promise<void> {
    const manager = managerOf(tx, this.dataSource);
    for (const { table, key, columns } of RESTORED) {
      await manager.query(
        `UPDATE ${table} x SET ${columns.map((c) => restored(...c)).join(', ')}, updated_at = now()
           FROM import_rows r WHERE r.import_id = $1 AND r.duplicate_of = x.${key} AND r.previous ?| $2::text[]`,
        [importId, columns.map(([column]) => column)],
      );
    }
    await manager.query(
      `DELETE FROM taggings g USING import_rows r
        WHERE r.import_id = $1 AND r.duplicate_of = g.entry_id AND r.previous ? 'tag_ids'
          AND g.tag_id::text IN (SELECT jsonb_array_elements_text(r.previous->'tag_ids'))`,
      [importId],
    );
  }

  /** Deletes what import `importId` created: all it owns, and what it shares unless in use (KEEP_IN_USE). */
  async deleteCreated(familyId: string, importId: string, tx?: Transaction): Promise<void> {
    const manager = managerOf(tx, this.dataSource);
    for (const table of OWNED_BY_IMPORT) {
      await manager.query(`DELETE FROM ${table} WHERE family_id = $1 AND import_id = $2`, [familyId, importId]);
    }
    for (const table of Object.keys(SHARED_BY_IMPORT) as Array<keyof typeof SHARED_BY_IMPORT>) {
      await manager.query(KEEP_IN_USE(table), [familyId, importId]);
      await manager.query(`DELETE FROM ${table} WHERE family_id = $1 AND import_id = $2`, [familyId, importId]);
    }
  }
}
