import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { managerOf, Transaction } from '../database/transactions';

/** An account an account file creates, with the balance it states (a decimal) scaled to minor units by `scale`. */
export interface NewAccountWithBalance {
  accountId: string;
  name: string;
  type: string;
  classification: string;
  balance: string;
  scale: string;
  currency: string;
}

/** The statements of the ledger on accounts (a family's accounts and their balances). */
@Injectable()
export class LedgerAccountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Creates the accounts of an import with their balances, in one statement. */
  async insertWithBalances(familyId: string, importId: string, rows: NewAccountWithBalance[], tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO accounts (id, family_id, name, accountable_type, classification, balance_minor, cash_balance_minor, currency, import_id)
     SELECT id, $1, name, type, class, round(balance * scale)::bigint, round(balance * scale)::bigint, currency, $2
       FROM unnest($3::uuid[], $4::text[], $5::varchar[], $6::varchar[], $7::numeric[], $8::numeric[], $9::char(3)[])
         AS t(id, name, type, class, balance, scale, currency)`,
      [familyId, importId, rows.map((r) => r.accountId), rows.map((r) => r.name), rows.map((r) => r.type),
        rows.map((r) => r.classification), rows.map((r) => r.balance), rows.map((r) => r.scale), rows.map((r) => r.currency)],
    );
  }
}
