import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { managerOf, Transaction } from '../database/transactions';

/** An opening balance to record: a decimal `balance` scaled to minor units by `scale`, dated `date`. */
export interface NewOpeningBalance {
  entryId: string;
  accountId: string;
  date: string;
  balance: string;
  scale: string;
  currency: string;
}

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
}
