import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AccountableType } from '@hearth/contracts';
import type { IsoDate } from '@hearth/domain/budget-math';
import type { BalanceStart, CurrencyFlows } from '@hearth/domain/account-balance';
import type { PageWindow } from '../common/paging';
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
const toRecord = ({ id, name, accountableType, subtype, status, institutionName, createdAt, updatedAt, ...inputs }: Row): AccountRecord => ({
  id,
  name,
  accountableType,
  subtype,
  status,
  institutionName,
  createdAt,
  updatedAt,
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
}
