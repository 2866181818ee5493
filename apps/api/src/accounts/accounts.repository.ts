import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AccountableType } from '@hearth/contracts';
import type { MinorUnits } from '@hearth/domain/money';
import type { PageWindow } from '../common/paging';
import type { AccountStatus } from '../finance/entities/account.entity';

export interface AccountRecord {
  id: string;
  name: string;
  balance: MinorUnits;
  cashBalance: MinorUnits;
  currency: string;
  classification: 'asset' | 'liability';
  accountableType: AccountableType;
  subtype: string | null;
  status: AccountStatus;
  institutionName: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Which of a family's accounts a read sees: without includeDisabled only draft and active ones. */
export interface AccountScope {
  familyId: string;
  includeDisabled: boolean;
}

// Amounts as text, so a bigint beyond 2^53 reaches the presenter exactly.
const COLUMNS = `id, name, balance_minor::text AS balance, cash_balance_minor::text AS "cashBalance", currency, classification,
  accountable_type AS "accountableType", subtype, status, institution_name AS "institutionName", created_at AS "createdAt",
  updated_at AS "updatedAt"`;

const visible = (scope: AccountScope) => (scope.includeDisabled ? '' : `AND status IN ('draft', 'active')`);

type Row = Omit<AccountRecord, 'balance' | 'cashBalance'> & { balance: string; cashBalance: string };
const toRecord = (row: Row): AccountRecord => ({ ...row, balance: BigInt(row.balance), cashBalance: BigInt(row.cashBalance) });

@Injectable()
export class AccountsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async count(scope: AccountScope): Promise<number> {
    const [row] = await this.dataSource.query(`SELECT count(*)::int AS n FROM accounts WHERE family_id = $1 ${visible(scope)}`, [scope.familyId]);
    return row.n;
  }

  /** One page by name (id among equal names), read along the (family_id, name) index. */
  async list(scope: AccountScope, page: PageWindow): Promise<AccountRecord[]> {
    const rows: Row[] = await this.dataSource.query(
      `SELECT ${COLUMNS} FROM accounts WHERE family_id = $1 ${visible(scope)} ORDER BY name, id LIMIT $2 OFFSET $3`,
      [scope.familyId, page.limit, page.offset],
    );
    return rows.map(toRecord);
  }

  async find(scope: AccountScope, id: string): Promise<AccountRecord | undefined> {
    const rows: Row[] = await this.dataSource.query(`SELECT ${COLUMNS} FROM accounts WHERE id = $1 AND family_id = $2 ${visible(scope)}`, [
      id,
      scope.familyId,
    ]);
    return rows.length ? toRecord(rows[0]) : undefined;
  }
}
