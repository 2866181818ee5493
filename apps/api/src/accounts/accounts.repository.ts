import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AccountableType } from '@hearth/contracts';
import type { IsoDate } from '@hearth/domain/budget-math';
import type { BalanceStart, CurrencyFlows } from '@hearth/domain/account-balance';
import type { FamilyScope } from '../common/family-scope';
import type { PageWindow } from '../common/paging';
import { managerOf, type Transaction } from '../database/transactions';
import { balanceInputs, rolledForward, type RolledForwardRow } from '../ledger/rolled-forward';
import type { AccountStatus } from '../finance/entities/account.entity';

export interface AccountRecord {
  id: string;
  name: string;
  /** Where its balance starts and what moved it since: see rollForward. */
  start: BalanceStart;
  flows: CurrencyFlows[];
  accountableType: AccountableType;
  subtype: string | null;
  status: AccountStatus;
  institutionName: string | null;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
}

/** Which of a family's accounts a read sees (without includeDisabled only draft and active ones), and as of which day. */
export interface AccountScope {
  familyId: string;
  includeDisabled: boolean;
  /** The family's today: entries and valuations dated later are not in the balance yet. */
  today: IsoDate;
}

const visible = (scope: AccountScope) => (scope.includeDisabled ? '' : `AND a.status IN ('draft', 'active')`);

type Row = Omit<AccountRecord, 'start' | 'flows'> & RolledForwardRow;
const toRecord = ({ id, name, accountableType, subtype, status, institutionName, createdAt, updatedAt, closedAt, ...inputs }: Row): AccountRecord => ({
  id,
  name,
  accountableType,
  subtype,
  status,
  institutionName,
  createdAt,
  updatedAt,
  closedAt,
  ...balanceInputs({ ...inputs, accountableType }),
});

@Injectable()
export class AccountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async count(scope: AccountScope): Promise<number> {
    const [row] = await this.dataSource.query(`SELECT count(*)::int AS n FROM accounts a WHERE a.family_id = $1 ${visible(scope)}`, [scope.familyId]);
    return row.n;
  }

  /** One page by name (id among equal names), read along the (family_id, name) index; only its accounts are rolled forward. */
  async list(scope: AccountScope, page: PageWindow): Promise<AccountRecord[]> {
    const rows: Row[] = await this.dataSource.query(
      rolledForward(`SELECT * FROM accounts a WHERE a.family_id = $1 ${visible(scope)} ORDER BY a.name, a.id LIMIT $2 OFFSET $3`, '$1', '$4::date'),
      [scope.familyId, page.limit, page.offset, scope.today],
    );
    return rows.map(toRecord);
  }

  async find(scope: AccountScope, id: string): Promise<AccountRecord | undefined> {
    const rows: Row[] = await this.dataSource.query(rolledForward(`SELECT * FROM accounts a WHERE a.id = $1 AND a.family_id = $2 ${visible(scope)}`, '$2', '$3::date'), [
      id,
      scope.familyId,
      scope.today,
    ]);
    return rows.length ? toRecord(rows[0]) : undefined;
  }

  /** The family's account `id` (with its type and whether it holds entries), locked for a change unless a read, or undefined. */
  async findForChange(scope: FamilyScope, id: string, tx?: Transaction, { read = false } = {}): Promise<LockedAccount | undefined> {
    const [row] = await managerOf(tx, this.dataSource).query(
      `SELECT a.id, a.name, a.currency, a.accountable_type AS "accountableType", a.classification, a.closed_at AS "closedAt",
              EXISTS (SELECT 1 FROM entries e WHERE e.account_id = a.id) AS "hasEntries"
         FROM accounts a WHERE a.id = $1 AND a.family_id = $2 AND a.status <> 'pending_deletion' ${read ? '' : 'FOR UPDATE'}`,
      [id, scope.familyId],
    );
    return row;
  }

  /** Whether another of the family's accounts has this name (as imports match names: exactly). */
  async nameTaken(scope: FamilyScope, name: string, exceptId: string | null, tx: Transaction): Promise<boolean> {
    const [row] = await managerOf(tx, this.dataSource).query(
      `SELECT EXISTS (SELECT 1 FROM accounts WHERE family_id = $1 AND name = $2 AND id IS DISTINCT FROM $3::uuid) AS taken`,
      [scope.familyId, name, exceptId],
    );
    return row.taken;
  }

  /** Creates an account with its opening balance (minor units) as the balance it starts from. */
  async insert(scope: FamilyScope, account: NewAccount, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `INSERT INTO accounts (id, family_id, owner_id, name, accountable_type, subtype, classification, balance_minor, cash_balance_minor, currency, institution_name)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, $9, $10)`,
      [account.id, scope.familyId, account.ownerId, account.name, account.accountableType, account.subtype, account.classification,
        account.balance.toString(), account.currency, account.institutionName],
    );
  }

  /** Changes the fields given (undefined: unchanged) of the family's account. */
  async update(scope: FamilyScope, id: string, changes: AccountChanges, tx: Transaction): Promise<void> {
    const given: Array<[string, unknown]> = [
      ['name', changes.name],
      ['accountable_type', changes.accountableType],
      ['classification', changes.classification],
      ['subtype', changes.subtype],
      ['currency', changes.currency],
      ['institution_name', changes.institutionName],
      ['closed_at', changes.closedAt],
    ];
    const columns = given.filter(([, value]) => value !== undefined);
    if (!columns.length) return;
    await managerOf(tx, this.dataSource).query(
      `UPDATE accounts SET ${columns.map(([column], i) => `${column} = $${i + 3}`).join(', ')}, updated_at = now() WHERE id = $1 AND family_id = $2`,
      [id, scope.familyId, ...columns.map(([, value]) => value)],
    );
  }

  /** What deleting the family's account would take with it (counts). */
  async deletionCounts(scope: FamilyScope, id: string, tx?: Transaction): Promise<DeletionCounts> {
    const [row] = await managerOf(tx, this.dataSource).query(
      `SELECT count(*) FILTER (WHERE e.entryable_type = 'Transaction')::int AS transactions,
              count(*) FILTER (WHERE e.entryable_type = 'Valuation')::int AS valuations,
              count(*) FILTER (WHERE e.entryable_type = 'Trade')::int AS trades,
              (SELECT count(*)::int FROM transfers tr JOIN entries i ON i.id = tr.inflow_entry_id JOIN entries o ON o.id = tr.outflow_entry_id
                WHERE tr.family_id = $2 AND (i.account_id = $1 OR o.account_id = $1) AND i.account_id <> o.account_id) AS transfers,
              (SELECT count(*)::int FROM imports im WHERE im.family_id = $2
                 AND (im.account_id = $1 OR im.id IN (SELECT DISTINCT x.import_id FROM entries x WHERE x.account_id = $1 AND x.import_id IS NOT NULL))) AS imports
         FROM entries e WHERE e.family_id = $2 AND e.account_id = $1`,
      [id, scope.familyId],
    );
    return row;
  }

  /** The family's imports into the account that are publishing or reverting now. */
  async importsAtWork(scope: FamilyScope, id: string, tx: Transaction): Promise<string[]> {
    const rows: Array<{ id: string }> = await managerOf(tx, this.dataSource).query(
      `SELECT im.id FROM imports im WHERE im.family_id = $2 AND im.status IN ('importing', 'reverting')
          AND (im.account_id = $1 OR EXISTS (SELECT 1 FROM entries x WHERE x.import_id = im.id AND x.account_id = $1))`,
      [id, scope.familyId],
    );
    return rows.map((row) => row.id);
  }

  /**
   * Deletes the family's account: its entries and what hangs on them go by the foreign keys' cascades (transactions,
   * splits, trades, valuations, taggings, transfers); the other side of a transfer becomes an ordinary transaction.
   */
  async delete(scope: FamilyScope, id: string, tx: Transaction): Promise<void> {
    const manager = managerOf(tx, this.dataSource);
    await manager.query(
      `UPDATE transactions t SET kind = 'standard', updated_at = now()
         FROM transfers tr JOIN entries i ON i.id = tr.inflow_entry_id JOIN entries o ON o.id = tr.outflow_entry_id
        WHERE tr.family_id = $2 AND (i.account_id = $1) <> (o.account_id = $1)
          AND t.entry_id = CASE WHEN i.account_id = $1 THEN o.id ELSE i.id END`,
      [id, scope.familyId],
    );
    await manager.query(`DELETE FROM accounts WHERE id = $1 AND family_id = $2`, [id, scope.familyId]);
  }

  /** The account's valuations, newest first. */
  valuations(scope: FamilyScope, accountId: string): Promise<ValuationRecord[]> {
    return this.dataSource.query(
      `${VALUATION_SELECT} WHERE e.family_id = $1 AND e.account_id = $2 AND e.entryable_type = 'Valuation' ORDER BY e.date DESC, v.kind = 'opening_anchor', e.created_at DESC, e.id DESC`,
      [scope.familyId, accountId],
    );
  }

  async findValuation(scope: FamilyScope, accountId: string, id: string, tx?: Transaction): Promise<ValuationRecord | undefined> {
    const [row] = await managerOf(tx, this.dataSource).query(
      `${VALUATION_SELECT} WHERE e.family_id = $1 AND e.account_id = $2 AND e.id = $3 AND e.entryable_type = 'Valuation'`,
      [scope.familyId, accountId, id],
    );
    return row;
  }

  /**
   * Records a valuation entry of `kind` (minor units, the account's currency); a reconciliation replaces the one set
   * by hand the same day, as Sure keeps one valuation per account and day.
   */
  async insertValuation(scope: FamilyScope, valuation: NewValuation, tx: Transaction): Promise<void> {
    const manager = managerOf(tx, this.dataSource);
    if (valuation.kind === 'reconciliation') {
      await manager.query(
        `DELETE FROM entries e USING valuations v WHERE v.entry_id = e.id AND e.family_id = $1 AND e.account_id = $2 AND e.date = $3
            AND v.kind = 'reconciliation' AND e.import_id IS NULL`,
        [scope.familyId, valuation.accountId, valuation.date],
      );
    }
    await manager.query(
      `INSERT INTO entries (id, family_id, account_id, entryable_type, date, name, amount_minor, currency) VALUES ($1, $2, $3, 'Valuation', $4, $5, $6, $7)`,
      [valuation.id, scope.familyId, valuation.accountId, valuation.date, valuation.name, valuation.amount.toString(), valuation.currency],
    );
    await manager.query(`INSERT INTO valuations (entry_id, kind) VALUES ($1, $2)`, [valuation.id, valuation.kind]);
  }

  async deleteValuation(scope: FamilyScope, accountId: string, id: string, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(
      `DELETE FROM entries WHERE family_id = $1 AND account_id = $2 AND id = $3 AND entryable_type = 'Valuation'`,
      [scope.familyId, accountId, id],
    );
  }
}

const VALUATION_SELECT = `SELECT e.id, e.date::text AS date, v.kind, e.amount_minor::text AS amount, e.currency, e.import_id AS "importId", e.created_at AS "createdAt"
  FROM entries e JOIN valuations v ON v.entry_id = e.id`;

export interface LockedAccount {
  id: string;
  name: string;
  currency: string;
  accountableType: AccountableType;
  classification: 'asset' | 'liability';
  closedAt: Date | null;
  hasEntries: boolean;
}

export interface NewAccount {
  id: string;
  ownerId: string | null;
  name: string;
  accountableType: AccountableType;
  subtype: string | null;
  classification: 'asset' | 'liability';
  /** Minor units of `currency`. */
  balance: bigint;
  currency: string;
  institutionName: string | null;
}

export interface AccountChanges {
  name?: string;
  accountableType?: AccountableType;
  classification?: 'asset' | 'liability';
  subtype?: string | null;
  currency?: string;
  institutionName?: string | null;
  closedAt?: Date | null;
}

export interface DeletionCounts {
  transactions: number;
  valuations: number;
  trades: number;
  transfers: number;
  imports: number;
}

export interface ValuationRecord {
  id: string;
  date: string;
  kind: string;
  /** Minor units, as text. */
  amount: string;
  currency: string;
  importId: string | null;
  createdAt: Date;
}

export interface NewValuation {
  id: string;
  accountId: string;
  date: string;
  name: string;
  kind: 'opening_anchor' | 'reconciliation';
  amount: bigint;
  currency: string;
}
