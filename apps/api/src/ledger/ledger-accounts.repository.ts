import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { managerOf, Transaction } from '../database/transactions';
import { NAMED } from './named';
import { balanceInputs, rolledForward, type RolledForwardRow } from './rolled-forward';
import type { BalanceStart, CurrencyFlows } from '@hearth/domain/account-balance';

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

/** An account a ServiceImport gives, with its balances in minor units. */
export interface ServiceAccount {
  id: string;
  name: string;
  type: string;
  subtype: string | null;
  classification: string;
  balance: string;
  cash: string;
  currency: string;
  status: string;
  institution: string | null;
  notes: string | null;
}

/** The statements of the ledger on accounts (a family's accounts and their balances). */
@Injectable()
export class LedgerAccountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The family's accounts of the given names (the oldest of each name): name -> id. */
  async idsByName(familyId: string, names: string[], tx?: Transaction): Promise<Map<string, string>> {
    if (!names.length) return new Map();
    const rows: Array<{ id: string; name: string }> = await managerOf(tx, this.dataSource).query(NAMED('accounts'), [familyId, names]);
    return new Map(rows.map((r) => [r.name, r.id]));
  }

  /** Creates asset accounts of `type` with the given ids and names, in `currency`, recorded as the import's. */
  async insertNamed(familyId: string, importId: string, currency: string, type: string, accounts: Array<{ id: string; name: string }>, tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO accounts (id, family_id, name, accountable_type, classification, currency, import_id)
       SELECT id, $1, n, $6, 'asset', $2, $3 FROM unnest($4::uuid[], $5::text[]) AS t(id, n)`,
      [familyId, currency, importId, accounts.map((a) => a.id), accounts.map((a) => a.name), type],
    );
  }

  /**
   * The roll forward's inputs (rollForward) for the family's account `accountId` as of the end of `date`: its balance
   * that day, as the accounts API gives it for today. Undefined when the family has no such account.
   */
  async balanceInputsOn(familyId: string, accountId: string, date: string, tx?: Transaction): Promise<{ start: BalanceStart; flows: CurrencyFlows[] } | undefined> {
    const [row]: RolledForwardRow[] = await managerOf(tx, this.dataSource).query(
      rolledForward(`SELECT * FROM accounts a WHERE a.id = $1 AND a.family_id = $2`, '$2', '$3::date'),
      [accountId, familyId, date],
    );
    return row ? balanceInputs(row) : undefined;
  }

  /** The currency of each of the family's accounts among `ids`. */
  currencies(familyId: string, ids: string[], tx?: Transaction): Promise<Array<{ id: string; currency: string }>> {
    return managerOf(tx, this.dataSource).query(
      `SELECT id, currency FROM accounts WHERE family_id = $1 AND id = ANY($2::uuid[])`,
      [familyId, ids],
    );
  }

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

  /** Creates accounts of a ServiceImport with the ids, balances (minor units) and details it gives. */
  async insertWithIds(familyId: string, importId: string, list: ServiceAccount[], tx?: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO accounts (id, family_id, name, accountable_type, subtype, classification, balance_minor, cash_balance_minor, currency, status,
                           institution_name, notes, import_id)
     SELECT id, $1, n, t, s, c, b, cb, cur, st, i, notes, $2
       FROM unnest($3::uuid[], $4::text[], $5::varchar[], $6::varchar[], $7::varchar[], $8::bigint[], $9::bigint[], $10::char(3)[], $11::varchar[],
                   $12::varchar[], $13::text[]) AS x(id, n, t, s, c, b, cb, cur, st, i, notes)`,
      [familyId, importId, list.map((a) => a.id), list.map((a) => a.name), list.map((a) => a.type), list.map((a) => a.subtype),
        list.map((a) => a.classification), list.map((a) => a.balance), list.map((a) => a.cash), list.map((a) => a.currency), list.map((a) => a.status),
        list.map((a) => a.institution), list.map((a) => a.notes)],
    );
  }
}
