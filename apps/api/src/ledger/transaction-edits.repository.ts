import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { TransactionKind } from '@hearth/contracts';
import type { MinorUnits } from '@hearth/domain/money';
import type { FamilyScope } from '../common/family-scope';
import { managerOf, Transaction } from '../database/transactions';

/** A transaction as an edit must know it, read under a row lock. */
export interface LockedTransaction {
  id: string;
  accountId: string;
  date: string;
  amount: MinorUnits;
  currency: string;
  excluded: boolean;
  categoryId: string | null;
  merchantId: string | null;
  /** A split part's parent. */
  parentId: string | null;
  /** Whether it has split parts. */
  isSplit: boolean;
  /** The transfer it is one side of. */
  transferId: string | null;
  tagIds: string[];
}

/** A transaction to create: its entry, its details and its tags. */
export interface NewTransaction {
  id: string;
  accountId: string;
  date: string;
  name: string;
  amount: MinorUnits;
  currency: string;
  notes: string | null;
  excluded: boolean;
  parentId: string | null;
  categoryId: string | null;
  merchantId: string | null;
  kind: TransactionKind;
  tagIds: string[];
}

/** The entry columns a change can set (undefined: left as it is). */
export interface EntryChanges {
  accountId?: string;
  date?: string;
  name?: string;
  amount?: MinorUnits;
  currency?: string;
  notes?: string | null;
  excluded?: boolean;
}

const ENTRY_COLUMNS: Record<keyof EntryChanges, string> = {
  accountId: 'account_id',
  date: 'date',
  name: 'name',
  amount: 'amount_minor',
  currency: 'currency',
  notes: 'notes',
  excluded: 'excluded',
};

export interface AccountForWrite {
  id: string;
  name: string;
  currency: string;
  /** Closed by hand: it takes no new transactions. */
  closed: boolean;
}

/**
 * The statements by which a person edits the ledger's transactions (the API's writes): each is scoped to the family
 * through the entries it touches (taggings and transaction details through their entry), and each is set-based, one
 * statement per table however many transactions a change names.
 */
@Injectable()
export class TransactionEditsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The family's transactions among `ids` (not of accounts pending deletion, which the API no longer shows), locked
   * for update in id order, so that two edits of overlapping selections cannot each wait for the other.
   */
  async lock(scope: FamilyScope, ids: string[], tx: Transaction): Promise<LockedTransaction[]> {
    const rows: Array<Omit<LockedTransaction, 'amount'> & { amount: string }> = await managerOf(tx, this.dataSource).query(
      `SELECT e.id, e.account_id AS "accountId", e.date::text AS date, e.amount_minor::text AS amount, e.currency, e.excluded,
              t.category_id AS "categoryId", t.merchant_id AS "merchantId", e.parent_entry_id AS "parentId",
              EXISTS (SELECT 1 FROM entries p WHERE p.parent_entry_id = e.id) AS "isSplit",
              (SELECT tr.id FROM transfers tr WHERE tr.inflow_entry_id = e.id OR tr.outflow_entry_id = e.id LIMIT 1) AS "transferId",
              ARRAY(SELECT g.tag_id FROM taggings g WHERE g.entry_id = e.id ORDER BY g.tag_id) AS "tagIds"
         FROM entries e
         JOIN transactions t ON t.entry_id = e.id
         JOIN accounts a ON a.id = e.account_id
        WHERE e.family_id = $1 AND e.id = ANY($2::uuid[]) AND e.entryable_type = 'Transaction' AND a.status <> 'pending_deletion'
        ORDER BY e.id
        FOR UPDATE OF e`,
      [scope.familyId, ids],
    );
    return rows.map((row) => ({ ...row, amount: BigInt(row.amount) }));
  }

  /** The accounts the family's entries among `ids` are on (to hold them before an edit). */
  async accountsOf(scope: FamilyScope, ids: string[]): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.dataSource.query(
      `SELECT DISTINCT account_id AS id FROM entries WHERE family_id = $1 AND id = ANY($2::uuid[])`,
      [scope.familyId, ids],
    );
    return rows.map((row) => row.id);
  }

  /** The family's accounts among `ids` that can take transactions (not pending deletion). */
  writableAccounts(scope: FamilyScope, ids: string[], tx: Transaction): Promise<AccountForWrite[]> {
    return managerOf(tx, this.dataSource).query(
      `SELECT id, name, currency, closed_at IS NOT NULL AS closed FROM accounts WHERE family_id = $1 AND id = ANY($2::uuid[]) AND status <> 'pending_deletion'`,
      [scope.familyId, ids],
    );
  }

  /**
   * Of the given categories, merchants and tags, those that are not the family's (unknown, or another family's), each
   * kind in its own list. Family merchants only: a provider's merchant is not the household's to assign.
   */
  async notTheFamilys(
    scope: FamilyScope,
    ids: { categories: string[]; merchants: string[]; tags: string[] },
    tx: Transaction,
  ): Promise<{ categories: string[]; merchants: string[]; tags: string[] }> {
    const [row] = await managerOf(tx, this.dataSource).query(
      `SELECT ARRAY(SELECT x FROM unnest($2::uuid[]) x WHERE NOT EXISTS (SELECT 1 FROM categories c WHERE c.id = x AND c.family_id = $1)) AS categories,
              ARRAY(SELECT x FROM unnest($3::uuid[]) x WHERE NOT EXISTS (SELECT 1 FROM merchants m WHERE m.id = x AND m.family_id = $1)) AS merchants,
              ARRAY(SELECT x FROM unnest($4::uuid[]) x WHERE NOT EXISTS (SELECT 1 FROM tags t WHERE t.id = x AND t.family_id = $1)) AS tags`,
      [scope.familyId, ids.categories, ids.merchants, ids.tags],
    );
    return row;
  }

  /** The family's tags of the given names, the ones it lacks created (with the table's default colour): name -> id. */
  async tagsNamed(scope: FamilyScope, names: string[], tx: Transaction): Promise<Map<string, string>> {
    if (!names.length) return new Map();
    // The insert's rows are not visible to the rest of the statement, so the two halves of the union do not overlap.
    const rows: Array<{ id: string; name: string }> = await managerOf(tx, this.dataSource).query(
      `WITH given AS (SELECT DISTINCT n AS name FROM unnest($2::text[]) AS n),
            created AS (INSERT INTO tags (family_id, name) SELECT $1, name FROM given ON CONFLICT (family_id, name) DO NOTHING RETURNING id, name)
       SELECT id, name FROM created
       UNION ALL
       SELECT t.id, t.name FROM tags t JOIN given g ON g.name = t.name WHERE t.family_id = $1`,
      [scope.familyId, names],
    );
    return new Map(rows.map((row) => [row.name, row.id]));
  }

  /** Creates transactions (entries, details, tags) in one statement; the accounts were checked to be the family's. */
  async insert(scope: FamilyScope, rows: NewTransaction[], tx: Transaction): Promise<void> {
    const taggings = rows.flatMap((row) => row.tagIds.map((tagId) => [tagId, row.id]));
    await managerOf(tx, this.dataSource).query(
      `WITH given AS (
              SELECT * FROM unnest($2::uuid[], $3::uuid[], $4::date[], $5::text[], $6::bigint[], $7::char(3)[], $8::text[], $9::boolean[], $10::uuid[],
                                   $11::uuid[], $12::uuid[], $13::varchar[])
                AS g(id, account_id, date, name, amount, currency, notes, excluded, parent_id, category_id, merchant_id, kind)),
            entries_in AS (
              INSERT INTO entries (id, family_id, account_id, entryable_type, date, name, amount_minor, currency, notes, excluded, parent_entry_id)
              SELECT id, $1, account_id, 'Transaction', date, name, amount, currency, notes, excluded, parent_id FROM given),
            details_in AS (INSERT INTO transactions (entry_id, category_id, merchant_id, kind) SELECT id, category_id, merchant_id, kind FROM given)
       INSERT INTO taggings (tag_id, entry_id) SELECT * FROM unnest($14::uuid[], $15::uuid[]) ON CONFLICT DO NOTHING`,
      [
        scope.familyId,
        rows.map((r) => r.id), rows.map((r) => r.accountId), rows.map((r) => r.date), rows.map((r) => r.name), rows.map((r) => r.amount.toString()),
        rows.map((r) => r.currency), rows.map((r) => r.notes), rows.map((r) => r.excluded), rows.map((r) => r.parentId), rows.map((r) => r.categoryId),
        rows.map((r) => r.merchantId), rows.map((r) => r.kind),
        taggings.map((pair) => pair[0]), taggings.map((pair) => pair[1]),
      ],
    );
  }

  /** Sets the given entry columns of the family's entries among `ids` (and their updated_at, whatever else changes). */
  async updateEntries(scope: FamilyScope, ids: string[], changes: EntryChanges, tx: Transaction): Promise<void> {
    const params: unknown[] = [scope.familyId, ids];
    const sets = (Object.keys(ENTRY_COLUMNS) as Array<keyof EntryChanges>)
      .filter((key) => changes[key] !== undefined)
      .map((key) => `${ENTRY_COLUMNS[key]} = $${params.push(key === 'amount' ? changes.amount!.toString() : changes[key])}`);
    await managerOf(tx, this.dataSource).query(
      `UPDATE entries SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE family_id = $1 AND id = ANY($2::uuid[])`,
      params,
    );
  }

  /** Sets the category and/or merchant (null: none) of the family's transactions among `ids`. */
  async updateDetails(scope: FamilyScope, ids: string[], changes: { categoryId?: string | null; merchantId?: string | null }, tx: Transaction): Promise<void> {
    const params: unknown[] = [scope.familyId, ids];
    const sets: string[] = ['updated_at = now()'];
    if (changes.categoryId !== undefined) sets.push(`category_id = $${params.push(changes.categoryId)}::uuid`);
    if (changes.merchantId !== undefined) sets.push(`merchant_id = $${params.push(changes.merchantId)}::uuid`);
    await managerOf(tx, this.dataSource).query(
      `UPDATE transactions t SET ${sets.join(', ')} FROM entries e WHERE e.id = t.entry_id AND e.family_id = $1 AND t.entry_id = ANY($2::uuid[])`,
      params,
    );
  }

  /** Makes `tagIds` the tags of each of the family's transactions among `ids`: two statements, whatever the count. */
  async replaceTags(scope: FamilyScope, ids: string[], tagIds: string[], tx: Transaction): Promise<void> {
    const manager = managerOf(tx, this.dataSource);
    await manager.query(
      `DELETE FROM taggings g USING entries e WHERE e.id = g.entry_id AND e.family_id = $1 AND g.entry_id = ANY($2::uuid[]) AND g.tag_id <> ALL($3::uuid[])`,
      [scope.familyId, ids, tagIds],
    );
    await manager.query(
      `INSERT INTO taggings (tag_id, entry_id)
       SELECT t, e.id FROM entries e CROSS JOIN unnest($3::uuid[]) AS t WHERE e.family_id = $1 AND e.id = ANY($2::uuid[])
       ON CONFLICT DO NOTHING`,
      [scope.familyId, ids, tagIds],
    );
  }

  /**
   * Deletes the family's transaction `id`; its parts, details, tags and transfer go with it (statement-level
   * references). The other side of its transfer becomes an ordinary transaction again, as in Sure.
   */
  async delete(scope: FamilyScope, id: string, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `WITH other AS (
              SELECT CASE WHEN tr.inflow_entry_id = $2 THEN tr.outflow_entry_id ELSE tr.inflow_entry_id END AS id
                FROM transfers tr WHERE tr.family_id = $1 AND (tr.inflow_entry_id = $2 OR tr.outflow_entry_id = $2)),
            made_standard AS (UPDATE transactions t SET kind = 'standard', updated_at = now() FROM other o WHERE t.entry_id = o.id)
       DELETE FROM entries WHERE family_id = $1 AND id = $2 AND entryable_type = 'Transaction'`,
      [scope.familyId, id],
    );
  }

  /** Deletes the split parts of the family's transaction `parentId`. */
  async deleteParts(scope: FamilyScope, parentId: string, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`DELETE FROM entries WHERE family_id = $1 AND parent_entry_id = $2`, [scope.familyId, parentId]);
  }
}
