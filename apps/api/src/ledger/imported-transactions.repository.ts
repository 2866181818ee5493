import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { managerOf, Transaction } from '../database/transactions';
import { IN_CHUNK } from './import-chunk';

/** A string value of the row, trimmed; NULL when absent or blank. */
const text = (key: string) => `NULLIF(btrim(r."values"->>'${key}'), '')`;

/**
 * The chunk's transaction rows as records, read and converted where they are stored: nothing travels through Node.
 * Parameters (a TransactionChunk, by `chunkParams`): $1-$4 the chunk's bounds (IN_CHUNK), $5 the import's account or
 * NULL, $6/$7 account and category ids by mapping key (JSON objects), $8 currencies by account id that replace the
 * rows' own (JSON), $9 scales by currency. `ordinal` numbers the rows 1..n for the ids the insert hands out.
 */
const CHUNK_TRANSACTIONS = `
  SELECT r.source_row_number AS rn,
         row_number() OVER (ORDER BY r.source_row_number)::int AS ordinal,
         acct.id AS account_id,
         (r."values"->>'date')::date AS date,
         COALESCE(${text('name')}, 'Imported item') AS name,
         round((r."values"->>'amount')::numeric * ($9::jsonb ->> cur.code)::numeric)::bigint AS amount_minor,
         cur.code AS currency,
         ${text('notes')} AS notes,
         ${text('external_id')} AS external_id,
         ($7::jsonb ->> ${text('category')})::uuid AS category_id,
         CASE WHEN jsonb_typeof(r."values"->'tags') = 'array' THEN r."values"->'tags' ELSE '[]'::jsonb END AS tags,
         -- A transfer to another account (QIF [Account]) moves money; budgets leave it out.
         CASE WHEN ${text('transfer_account')} IS NULL THEN 'standard' ELSE 'funds_movement' END AS kind,
         -- An Actual or QIF split: the parent row (its total, excluded as a ServiceImport split's parent is) and its parts.
         r."values"->>'split_count' IS NOT NULL AS split_parent,
         (r."values"->>'split_of')::int AS split_of
    FROM import_rows r
   CROSS JOIN LATERAL (SELECT COALESCE($5::uuid, ($6::jsonb ->> ${text('account')})::uuid) AS id) acct
   -- A row naming its account without a currency of its own (null) takes that account's.
   CROSS JOIN LATERAL (SELECT COALESCE($8::jsonb ->> acct.id::text, ${text('currency')}, (SELECT a.currency FROM accounts a WHERE a.id = acct.id)) AS code) cur
   WHERE ${IN_CHUNK}`;

/** A chunk of transaction rows as CHUNK_TRANSACTIONS reads it; the maps and scales as JSON objects. */
export interface TransactionChunk {
  /** $1-$4: IN_CHUNK's parameters. */
  bounds: unknown[];
  /** The import's account, or null when rows name theirs. */
  accountId: string | null;
  /** Account and category ids by mapping key. */
  accounts: string;
  categories: string;
  /** Currencies by account id that replace the rows' own. */
  currencies: string;
  /** Scales by currency. */
  scales: string;
  /**
   * Under the duplicate policy external_id: the source the rows' external ids are stored with (the import type), and
   * the rows that carry one are left to externalIdCandidates; null: external ids are neither stored nor probed.
   */
  source: string | null;
}

/** $1-$9 of CHUNK_TRANSACTIONS. */
const chunkParams = (chunk: TransactionChunk): unknown[] => [...chunk.bounds, chunk.accountId, chunk.accounts, chunk.categories, chunk.currencies, chunk.scales];

/**
 * An entry an import row can duplicate: a transaction not created by this import, without an external id. The
 * queries below reach entries through the family's accounts, never through entries.family_id: with a family_id
 * filter and statistics that lag behind a large import, the planner probed the (family, date) index and read every
 * entry of the day for each key.
 */
const priorTransaction = (importParam: string) => `e.entryable_type = 'Transaction' AND e.external_id IS NULL AND e.import_id IS DISTINCT FROM ${importParam}`;

/** A row of the chunk with an entry it could duplicate (see duplicateCandidates). */
export interface DuplicateCandidate {
  rowNumber: number;
  categoryId: string | null;
  notes: string | null;
  tags: unknown;
  /** The row's split total's row number (a part's), and the entry's parent (a part's). */
  splitOf: number | null;
  entryId: string;
  existingNotes: string | null;
  existingCategoryId: string | null;
  parentEntryId: string | null;
}

/** The statements that publish an import's rows as transactions, probing for the transactions they duplicate. */
@Injectable()
export class ImportedTransactionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The first and last date of each account's transactions an import row could duplicate (none for an account
   * without): two index probes each.
   */
  priorSpans(familyId: string, importId: string, accountIds: string[], tx?: Transaction): Promise<Array<{ account_id: string; first: string; last: string }>> {
    return managerOf(tx, this.dataSource).query(
      `SELECT a.id AS account_id, lo.date::text AS first, hi.date::text AS last
         FROM accounts a
         CROSS JOIN LATERAL (SELECT e.date FROM entries e WHERE e.account_id = a.id AND ${priorTransaction('$2')} ORDER BY e.date LIMIT 1) lo
         CROSS JOIN LATERAL (SELECT e.date FROM entries e WHERE e.account_id = a.id AND ${priorTransaction('$2')} ORDER BY e.date DESC LIMIT 1) hi
        WHERE a.id = ANY($3::uuid[]) AND a.family_id = $1`,
      [familyId, importId, accountIds],
    );
  }

  /** The first row of the chunk with no account (null when none) and the accounts its rows go to (null when none). */
  async chunkAccounts(chunk: TransactionChunk, tx?: Transaction): Promise<{ unassigned: number | null; accounts: string[] | null }> {
    const [found] = await managerOf(tx, this.dataSource).query(
      `SELECT min(rn) FILTER (WHERE account_id IS NULL) AS unassigned, array_agg(DISTINCT account_id) FILTER (WHERE account_id IS NOT NULL) AS accounts
       FROM (${CHUNK_TRANSACTIONS}) c`,
      chunkParams(chunk),
    );
    return found;
  }

  /**
   * Each of the chunk's rows with the entries it could duplicate, in file order and each row's oldest first, in one
   * statement. Each row probes the (account, date, amount) index on its own, so the cost follows the chunk, not the
   * family's history, whatever the statistics say: `OFFSET 0` keeps the planner from flattening the LATERAL into a
   * join (with statistics that lagged behind a large import, the flattened plan compared every key with every entry
   * of the family). Checking claims in SQL, against rows stored moments before, let the planner loop over all of the
   * import's rows for each candidate, so claims are checked in memory. Only rows dated within their account's prior
   * span are probed: a first import into an account probes nothing. The probes run by index whatever the statistics
   * say (byIndexOnly). Measurements: docs/performance.md#duplicate-probes.
   */
  duplicateCandidates(chunk: TransactionChunk, familyId: string, probed: string, tx?: Transaction): Promise<DuplicateCandidate[]> {
    return this.byIndexOnly(tx, () => managerOf(tx, this.dataSource).query(
      `SELECT i.rn AS "rowNumber", i.category_id AS "categoryId", i.notes, i.tags, i.split_of AS "splitOf",
            x.id AS "entryId", x.notes AS "existingNotes", x.category_id AS "existingCategoryId", x.parent_entry_id AS "parentEntryId"
       FROM (${CHUNK_TRANSACTIONS}) i
       JOIN accounts a ON a.id = i.account_id AND a.family_id = $10
       CROSS JOIN LATERAL (
         SELECT e.id, e.notes, tr.category_id, e.parent_entry_id, row_number() OVER (ORDER BY e.created_at, e.id) AS age
           FROM entries e JOIN transactions tr ON tr.entry_id = e.id
          WHERE e.account_id = i.account_id AND e.date = i.date AND e.amount_minor = i.amount_minor
            AND e.currency = i.currency AND e.name = i.name AND ${priorTransaction('$1')}
            -- A split's part is a share of a purchase, never a bank line of its own (its parent is); only a part can be
            -- the same part again (findDuplicates keeps those of the transaction its total claimed).
            AND (e.parent_entry_id IS NULL) = (i.split_of IS NULL)
         OFFSET 0) x
      WHERE i.date BETWEEN ($11::jsonb -> i.account_id::text ->> 'first')::date AND ($11::jsonb -> i.account_id::text ->> 'last')::date
        AND ($12::text IS NULL OR i.external_id IS NULL)
      ORDER BY i.rn, x.age`,
      [...chunkParams(chunk), familyId, probed, chunk.source],
    ));
  }

  /**
   * The accounts (of `accountIds`) holding an entry with an external id from `source` that import `importId` did not
   * create: only rows of those are probed by their id. Asked once per account and publish, before this import's own
   * entries are in the index.
   */
  async accountsWithExternalIds(familyId: string, importId: string, accountIds: string[], source: string, tx?: Transaction): Promise<string[]> {
    const rows: Array<{ id: string }> = await managerOf(tx, this.dataSource).query(
      `SELECT a.id FROM accounts a
        WHERE a.id = ANY($2::uuid[]) AND a.family_id = $1
          AND EXISTS (SELECT 1 FROM entries e WHERE e.account_id = a.id AND e.source = $3 AND e.external_id IS NOT NULL AND e.import_id IS DISTINCT FROM $4)`,
      [familyId, accountIds, source, importId],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Each of the chunk's rows that carries an external id with the transaction of its account holding that id from
   * the same source (an earlier import of the same type): at most one, by the unique index on (account, source,
   * external id), which each row probes on its own (`OFFSET 0`, byIndexOnly, as duplicateCandidates). Only rows of
   * `accounts` (accountsWithExternalIds) are probed.
   */
  externalIdCandidates(chunk: TransactionChunk, familyId: string, accounts: string[], tx?: Transaction): Promise<DuplicateCandidate[]> {
    return this.byIndexOnly(tx, () => managerOf(tx, this.dataSource).query(
      `SELECT i.rn AS "rowNumber", i.category_id AS "categoryId", i.notes, i.tags, i.split_of AS "splitOf",
            x.id AS "entryId", x.notes AS "existingNotes", x.category_id AS "existingCategoryId", x.parent_entry_id AS "parentEntryId"
       FROM (${CHUNK_TRANSACTIONS}) i
       JOIN accounts a ON a.id = i.account_id AND a.family_id = $10
       CROSS JOIN LATERAL (
         SELECT e.id, e.notes, tr.category_id, e.parent_entry_id
           FROM entries e JOIN transactions tr ON tr.entry_id = e.id
          WHERE e.account_id = i.account_id AND e.source = $12 AND e.external_id = i.external_id
            AND e.source IS NOT NULL AND e.external_id IS NOT NULL AND e.import_id IS DISTINCT FROM $1
         OFFSET 0) x
      WHERE i.external_id IS NOT NULL AND i.account_id = ANY($11::uuid[])
      ORDER BY i.rn`,
      [...chunkParams(chunk), familyId, accounts, chunk.source],
    ));
  }

  /**
   * Runs `query` with sequential scans off, then sets them back (should it fail, its transaction's rollback does). With
   * statistics taken while the tables were nearly empty (a new instance, autovacuum not caught up), a probe by index and
   * a scan of the whole table cost the planner the same, and it scanned entries and transactions whole for each row,
   * in time growing with rows x entries.
   */
  private async byIndexOnly<T>(tx: Transaction | undefined, query: () => Promise<T>): Promise<T> {
    const manager = managerOf(tx, this.dataSource);
    const [{ was }] = await manager.query(`SELECT current_setting('enable_seqscan') AS was, set_config('enable_seqscan', 'off', true)`);
    const result = await query();
    await manager.query(`SELECT set_config('enable_seqscan', $1, true)`, [was]);
    return result;
  }

  /**
   * The chunk's rows that duplicate nothing become entries, transactions and taggings in one statement, converted in
   * SQL from the stored rows. Ids come from Node, time-ordered, so the inserts append to their indexes. A split whose
   * total claimed a transaction splits it (excluded, its parts under it), as the file does; one already split (the
   * same split re-imported, or split otherwise) keeps its parts, and the file's parts not found among them add nothing,
   * as they would count the purchase twice (markPartsOfSplitTransactions). Revert of this import counts a transaction it
   * split again (UNSPLIT_PASSED).
   */
  async insertTransactions(
    chunk: TransactionChunk,
    familyId: string,
    ids: string[],
    duplicateRows: number[],
    tagIds: string,
    claims: string,
    tx?: Transaction,
  ): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `WITH chunk AS MATERIALIZED (${CHUNK_TRANSACTIONS}),
          claimed AS (SELECT ($11::uuid[])[ordinal] AS id, c.*, ($14::jsonb ->> c.split_of::text)::uuid AS claimed_parent FROM chunk c WHERE c.rn <> ALL($12::int[])),
          fresh AS MATERIALIZED (
            SELECT * FROM claimed f
             WHERE f.claimed_parent IS NULL OR NOT EXISTS (SELECT 1 FROM entries k WHERE k.parent_entry_id = f.claimed_parent)),
          split_up AS (UPDATE entries e SET excluded = true, updated_at = now() WHERE e.id IN (SELECT claimed_parent FROM fresh) AND NOT e.excluded),
          -- The new ids by row number, for a part to find its total's: one lookup each, not a join of fresh with itself,
          -- which statistics of earlier imports (a new import's rows unknown to them, one row estimated) made a nested
          -- loop over every pair of the chunk's rows.
          new_ids AS (SELECT jsonb_object_agg(rn::text, id) AS by_row FROM fresh),
          entries_in AS (
            INSERT INTO entries (id, family_id, account_id, entryable_type, date, name, amount_minor, currency, notes, excluded, parent_entry_id, import_id, source, external_id)
            SELECT f.id, $10, f.account_id, 'Transaction', f.date, f.name, f.amount_minor, f.currency, f.notes, f.split_parent,
                   COALESCE(((SELECT by_row FROM new_ids) ->> f.split_of::text)::uuid, f.claimed_parent), $1,
                   CASE WHEN f.external_id IS NOT NULL THEN $15::varchar END, CASE WHEN $15::varchar IS NOT NULL THEN f.external_id END
              FROM fresh f),
          transactions_in AS (INSERT INTO transactions (entry_id, category_id, kind) SELECT id, category_id, kind FROM fresh)
     INSERT INTO taggings (tag_id, entry_id)
     SELECT DISTINCT tag.id, f.id
       FROM fresh f
       CROSS JOIN LATERAL jsonb_array_elements_text(f.tags) AS t(name)
       CROSS JOIN LATERAL (SELECT ($13::jsonb ->> btrim(t.name))::uuid AS id) tag
      WHERE tag.id IS NOT NULL
     ON CONFLICT DO NOTHING`,
      [...chunkParams(chunk), familyId, ids, duplicateRows, tagIds, claims, chunk.source],
    );
  }

  /**
   * A split's parts that insertTransactions will leave out, as their total claimed a transaction already split, name
   * that transaction (duplicate_of), as a duplicate does: GET .../rows then says what each row matched. Run before the
   * insert, while the transaction's parts are only those it had. Only a QIF or Actual split's total can claim a
   * transaction, and only a chunk with claims can have such parts.
   */
  async markPartsOfSplitTransactions(bounds: unknown[], claims: string, tx?: Transaction): Promise<void> {
    // The chunk's rows alone, each looking its total up in the claims: no join a planner could turn into a loop over pairs.
    await managerOf(tx, this.dataSource).query(
      `UPDATE import_rows r SET duplicate_of = ($5::jsonb ->> (r."values"->>'split_of'))::uuid
      WHERE ${IN_CHUNK} AND $5::jsonb ? (r."values"->>'split_of') AND NOT $5::jsonb ? r.source_row_number::text
        AND EXISTS (SELECT 1 FROM entries k WHERE k.parent_entry_id = ($5::jsonb ->> (r."values"->>'split_of'))::uuid)`,
      [...bounds, claims],
    );
  }

  /** Tags entries (pairs of tag id and entry id); returns the pairs added (an entry already tagged so is left out). */
  insertTaggings(pairs: string[][], tx?: Transaction): Promise<Array<{ tag_id: string; entry_id: string }>> {
    return managerOf(tx, this.dataSource).query(
      `INSERT INTO taggings (tag_id, entry_id) SELECT * FROM unnest($1::uuid[], $2::uuid[]) ON CONFLICT DO NOTHING RETURNING tag_id, entry_id`,
      [pairs.map((p) => p[0]), pairs.map((p) => p[1])],
    );
  }

  /** Sets the category of each entry's transaction. */
  async recategorise(rows: Array<{ entryId: string; categoryId: string | null }>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `UPDATE transactions t SET category_id = u.category_id, updated_at = now()
         FROM unnest($1::uuid[], $2::uuid[]) AS u(entry_id, category_id) WHERE t.entry_id = u.entry_id`,
      [rows.map((r) => r.entryId), rows.map((r) => r.categoryId)],
    );
  }

  /** Sets the notes of each entry. */
  async annotate(rows: Array<{ entryId: string; notes: string | null }>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `UPDATE entries e SET notes = u.notes, updated_at = now() FROM unnest($1::uuid[], $2::text[]) AS u(id, notes) WHERE e.id = u.id`,
      [rows.map((r) => r.entryId), rows.map((r) => r.notes)],
    );
  }

  /** Records on import `importId`'s rows the entries they claimed and what each changed (JSON, or null), for revert. */
  async recordDuplicates(importId: string, rows: Array<{ rowNumber: number; entryId: string }>, previous: Array<string | null>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `UPDATE import_rows r SET duplicate_of = u.entry_id, previous = u.previous
       FROM unnest($2::int[], $3::uuid[], $4::jsonb[]) AS u(rn, entry_id, previous) WHERE r.import_id = $1 AND r.source_row_number = u.rn`,
      [importId, rows.map((r) => r.rowNumber), rows.map((r) => r.entryId), previous],
    );
  }
}
