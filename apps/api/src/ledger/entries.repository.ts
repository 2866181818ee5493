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

/** The statements of the ledger on entries and what each entry is (valuations, transactions). */
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
}
