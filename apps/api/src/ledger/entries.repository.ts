import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { managerOf, Transaction } from '../database/transactions';
import { previousValues } from './previous-values';

/** An opening balance to record: a decimal `balance` scaled to minor units by `scale`, dated `date`. */
export interface NewOpeningBalance {
  entryId: string;
  accountId: string;
  date: string;
  balance: string;
  scale: string;
  currency: string;
}

/** An entry a ServiceImport gives, with its id and its amount in minor units. */
export interface NewEntry {
  id: string;
  accountId: string;
  date: string;
  name: string;
  amount: string;
  currency: string;
  notes?: string | null;
  excluded?: boolean;
  parentId?: string | null;
}

/** An opening balance as an import row states it: `amount` a decimal, scaled to minor units by `scale`. */
export interface OpeningBalance {
  date: unknown;
  amount: unknown;
  scale: string;
  currency: string;
}

/** The account's opening balance (its first opening_anchor valuation), as `anchor`. */
const OPENING_ANCHOR = `SELECT e.id, e.date, e.amount_minor, e.currency FROM entries e JOIN valuations v ON v.entry_id = e.id
                         WHERE e.account_id = $1 AND v.kind = 'opening_anchor' ORDER BY e.created_at, e.id LIMIT 1`;

/**
 * The statements of the ledger on entries, what hangs off them (valuations, transactions, taggings, transfers) and
 * the claims import rows make on them.
 */
@Injectable()
export class EntriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Records each account's opening balance as a valuation entry of kind opening_anchor, one statement per table. */
  async insertOpeningBalances(familyId: string, importId: string, rows: NewOpeningBalance[], tx?: Transaction): Promise<void> {
    const manager = managerOf(tx, this.dataSource);
    await manager.query(
      `INSERT INTO entries (id, family_id, account_id, entryable_type, date, name, amount_minor, currency, import_id)
     SELECT id, $1, account_id, 'Valuation', date, 'Opening balance', round(balance * scale)::bigint, currency, $2
       FROM unnest($3::uuid[], $4::uuid[], $5::date[], $6::numeric[], $7::numeric[], $8::char(3)[]) AS t(id, account_id, date, balance, scale, currency)`,
      [familyId, importId, rows.map((r) => r.entryId), rows.map((r) => r.accountId), rows.map((r) => r.date),
        rows.map((r) => r.balance), rows.map((r) => r.scale), rows.map((r) => r.currency)],
    );
    await manager.query(`INSERT INTO valuations (entry_id, kind) SELECT id, 'opening_anchor' FROM unnest($1::uuid[]) AS t(id)`, [rows.map((r) => r.entryId)]);
  }

  /**
   * Replaces the account's opening balance (its first opening_anchor valuation) with the one of import row
   * `rowNumber`, recording on the row what it was, for revert. False when the account has none.
   */
  async replaceOpeningBalance(accountId: string, balance: OpeningBalance, importId: string, rowNumber: number, tx?: Transaction): Promise<boolean> {
    const [replaced]: [unknown[], number] = await managerOf(tx, this.dataSource).query(
      `WITH anchor AS (${OPENING_ANCHOR}),
          changed AS (
            UPDATE entries e SET date = $2, amount_minor = round($3::numeric * $4::numeric)::bigint, currency = $5, updated_at = now()
              FROM anchor a WHERE e.id = a.id RETURNING e.id, e.date, e.amount_minor, e.currency)
     UPDATE import_rows r SET duplicate_of = c.id, previous = ${previousValues(['date', 'amount_minor', 'currency'], 'a', 'c')}
       FROM anchor a JOIN changed c ON c.id = a.id
      WHERE r.import_id = $6 AND r.source_row_number = $7
     RETURNING r.source_row_number`,
      [accountId, balance.date, balance.amount, balance.scale, balance.currency, importId, rowNumber],
    );
    return replaced.length > 0;
  }

  /** Records an account's opening balance: a valuation entry of kind opening_anchor. */
  async insertOpeningBalance(familyId: string, importId: string, id: string, accountId: string, balance: OpeningBalance, tx?: Transaction): Promise<void> {
    const manager = managerOf(tx, this.dataSource);
    await manager.query(
      `INSERT INTO entries (id, family_id, account_id, entryable_type, date, name, amount_minor, currency, import_id)
     VALUES ($1, $2, $3, 'Valuation', $4, 'Opening balance', round($5::numeric * $6::numeric)::bigint, $7, $8)`,
      [id, familyId, accountId, balance.date, balance.amount, balance.scale, balance.currency, importId],
    );
    await manager.query(`INSERT INTO valuations (entry_id, kind) VALUES ($1, 'opening_anchor')`, [id]);
  }

  /**
   * Records an account's opening balance of `amountMinor` as import `importId`'s, dated the day before the import's
   * earliest row (imports.first_row_date), or `latest` when that is earlier (a statement's balance dated before its
   * rows) or the import has no dated row: the balance at the start of that day, before every row of the import.
   */
  async insertOpeningBalanceBeforeRows(familyId: string, importId: string, id: string, accountId: string, amountMinor: bigint, currency: string, latest: string, tx?: Transaction): Promise<void> {
    const manager = managerOf(tx, this.dataSource);
    await manager.query(
      `INSERT INTO entries (id, family_id, account_id, entryable_type, date, name, amount_minor, currency, import_id)
       SELECT $1, $2, $3, 'Valuation', LEAST(i.first_row_date - 1, $4::date), 'Opening balance', $5::bigint, $6, i.id
         FROM imports i WHERE i.id = $7 AND i.family_id = $2`,
      [id, familyId, accountId, latest, amountMinor.toString(), currency, importId],
    );
    await manager.query(`INSERT INTO valuations (entry_id, kind) VALUES ($1, 'opening_anchor')`, [id]);
  }

  /** Whether the account holds no entry but import `importId`'s: no opening balance, no transaction from elsewhere. */
  async holdsOnlyImport(accountId: string, importId: string, tx?: Transaction): Promise<boolean> {
    const [row]: Array<{ other: boolean }> = await managerOf(tx, this.dataSource).query(
      `SELECT EXISTS (SELECT 1 FROM entries WHERE account_id = $1 AND import_id IS DISTINCT FROM $2) AS other`,
      [accountId, importId],
    );
    return !row.other;
  }

  /**
   * Moves the account's opening balance to the day before the earliest row of import `importId` when it is dated
   * after that row, and records the old date on the earliest row the import added (not one that claimed a
   * duplicate), for revert. Nothing when the file has an opening balance row, or every row claimed a duplicate.
   */
  async moveOpeningBalanceBeforeRows(accountId: string, importId: string, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `WITH anchor AS (${OPENING_ANCHOR}),
          file AS (
            SELECT min((r."values"->>'date')::date) AS earliest,
                   (array_agg(r.source_row_number ORDER BY (r."values"->>'date')::date, r.source_row_number)
                      FILTER (WHERE r.duplicate_of IS NULL))[1] AS recorder
              FROM import_rows r WHERE r.import_id = $2
            HAVING bool_and(r."values"->>'row_kind' <> 'opening_balance')),
          changed AS (
            UPDATE entries e SET date = f.earliest - 1, updated_at = now()
              FROM anchor a, file f WHERE e.id = a.id AND a.date > f.earliest AND f.recorder IS NOT NULL
            RETURNING e.id, e.date)
     UPDATE import_rows r SET duplicate_of = c.id, previous = ${previousValues(['date'], 'a', 'c')}
       FROM anchor a JOIN changed c ON c.id = a.id, file f
      WHERE r.import_id = $2 AND r.source_row_number = f.recorder`,
      [accountId, importId],
    );
  }

  /** The records import `importId`'s rows claimed (import_rows.duplicate_of): duplicates, replaced opening balances. */
  async claimedBy(importId: string, tx?: Transaction): Promise<string[]> {
    const rows: Array<{ id: string }> = await managerOf(tx, this.dataSource).query(
      `SELECT duplicate_of AS id FROM import_rows WHERE import_id = $1 AND duplicate_of IS NOT NULL`,
      [importId],
    );
    return rows.map((r) => r.id);
  }

  /** Records on import `importId`'s rows (import_rows.duplicate_of) the existing entries they claimed, for revert. */
  async recordClaims(importId: string, claims: Array<{ rowNumber: number; entryId: string }>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `UPDATE import_rows r SET duplicate_of = u.id FROM unnest($2::int[], $3::uuid[]) AS u(rn, id) WHERE r.import_id = $1 AND r.source_row_number = u.rn`,
      [importId, claims.map((c) => c.rowNumber), claims.map((c) => c.entryId)],
    );
  }

  /** Creates entries of one type with the ids a ServiceImport gives (amounts in minor units), recorded as the import's. */
  async insertMany(familyId: string, importId: string, type: 'Transaction' | 'Trade' | 'Valuation', entries: NewEntry[], tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO entries (id, family_id, account_id, entryable_type, date, name, amount_minor, currency, notes, excluded, parent_entry_id, import_id)
     SELECT id, $1, a, $3, d, n, m, c, notes, ex, p, $2
       FROM unnest($4::uuid[], $5::uuid[], $6::date[], $7::text[], $8::bigint[], $9::char(3)[], $10::text[], $11::boolean[], $12::uuid[])
         AS x(id, a, d, n, m, c, notes, ex, p)`,
      [familyId, importId, type, entries.map((e) => e.id), entries.map((e) => e.accountId), entries.map((e) => e.date), entries.map((e) => e.name),
        entries.map((e) => e.amount), entries.map((e) => e.currency), entries.map((e) => e.notes ?? null), entries.map((e) => e.excluded ?? false),
        entries.map((e) => e.parentId ?? null)],
    );
  }

  /** Makes entries valuations of the given kinds. */
  async insertValuations(rows: Array<{ id: string; kind: string }>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`INSERT INTO valuations (entry_id, kind) SELECT * FROM unnest($1::uuid[], $2::varchar[])`, [rows.map((r) => r.id), rows.map((r) => r.kind)]);
  }

  /** Makes entries transactions with their category, merchant and kind. */
  async insertTransactionDetails(rows: Array<{ id: string; category: string | null; merchant: string | null; kind: string }>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO transactions (entry_id, category_id, merchant_id, kind) SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::varchar[])`,
      [rows.map((t) => t.id), rows.map((t) => t.category), rows.map((t) => t.merchant), rows.map((t) => t.kind)],
    );
  }

  /** Tags entries (pairs of tag id and entry id); a pair already there is left. */
  async insertTaggings(pairs: string[][], tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`INSERT INTO taggings (tag_id, entry_id) SELECT * FROM unnest($1::uuid[], $2::uuid[]) ON CONFLICT DO NOTHING`, [pairs.map((p) => p[0]), pairs.map((p) => p[1])]);
  }

  /** Creates transfers between entries with the given ids, recorded as import `importId`'s (null: made by hand). */
  async insertTransfers(
    familyId: string,
    importId: string | null,
    rows: Array<{ id: string; inflow: string | null; outflow: string | null; status: string; notes: string | null }>,
    tx?: Transaction,
  ): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO transfers (id, family_id, inflow_entry_id, outflow_entry_id, status, notes, import_id)
     SELECT id, $1, i, o, s, n, $2 FROM unnest($3::uuid[], $4::uuid[], $5::uuid[], $6::varchar[], $7::text[]) AS x(id, i, o, s, n)`,
      [familyId, importId, rows.map((r) => r.id), rows.map((r) => r.inflow), rows.map((r) => r.outflow),
        rows.map((r) => r.status), rows.map((r) => r.notes)],
    );
  }

  /**
   * Sets Sure's kinds for the transactions of transfers (by position in `inflows` and `outflows`): the inflow is a
   * funds movement; the outflow pays a loan or another liability, contributes to an investment or crypto account from
   * outside one, or is a funds movement.
   */
  async setTransferKinds(inflows: Array<string | null>, outflows: Array<string | null>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `UPDATE transactions t
        SET kind = CASE WHEN t.entry_id = x.i THEN 'funds_movement'
                        WHEN dest.accountable_type = 'Loan' THEN 'loan_payment'
                        WHEN dest.classification = 'liability' THEN 'cc_payment'
                        WHEN dest.accountable_type IN ('Investment', 'Crypto') AND src.accountable_type NOT IN ('Investment', 'Crypto') THEN 'investment_contribution'
                        ELSE 'funds_movement' END,
            updated_at = now()
       FROM unnest($1::uuid[], $2::uuid[]) AS x(i, o)
       JOIN entries ie ON ie.id = x.i JOIN accounts dest ON dest.id = ie.account_id
       JOIN entries oe ON oe.id = x.o JOIN accounts src ON src.id = oe.account_id
      WHERE t.entry_id IN (x.i, x.o)`,
      [inflows, outflows],
    );
  }
}
