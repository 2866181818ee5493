import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AccountableType } from '@hearth/contracts';
import type { BalanceStart, CurrencyFlows } from '@hearth/domain/account-balance';
import type { PageWindow } from '../common/paging';
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

/** Which of a family's accounts a read sees: without includeDisabled only draft and active ones. */
export interface AccountScope {
  familyId: string;
  includeDisabled: boolean;
}

/*
 * The accounts `chosen` selects (family-scoped by the caller), each with the roll-forward's inputs. The anchor is its
 * latest valuation: an opening anchor is the balance at the start of its day (a QIF file's opening balance shares its
 * day with the first rows), any other valuation the balance at the end of its day, so it wins over an opening anchor
 * of the same day. Without one, the balance the account was created with stands before every entry. Split parts are
 * left out: their parent carries the whole amount. An entry in another currency counts at the rate of its day, as in
 * budgets, or is counted as unconverted. The entries of all chosen accounts are read in one pass: MATERIALIZED keeps
 * the sums from being folded into a pass per account, whose entries share heap pages with the others'. Amounts go out
 * as text, so that a bigint beyond 2^53 reaches the presenter exactly.
 */
const rolledForward = (chosen: string) => `
  WITH chosen AS (${chosen}),
  anchored AS (
    SELECT a.*, anchor.date AS anchor_date, anchor.opening AS anchor_opening, anchor.amount_minor AS anchor_amount
      FROM chosen a
      LEFT JOIN LATERAL (
        SELECT e.date, e.amount_minor, v.kind = 'opening_anchor' AS opening
          FROM entries e JOIN valuations v ON v.entry_id = e.id
         WHERE e.account_id = a.id AND e.entryable_type = 'Valuation'
         ORDER BY e.date DESC, v.kind = 'opening_anchor', e.id DESC
         LIMIT 1
      ) anchor ON true
  ),
  moved AS MATERIALIZED (
    SELECT e.account_id, e.currency,
           coalesce(sum(${converted(`CASE WHEN e.entryable_type = 'Trade' THEN (SELECT t.fee_minor FROM trades t WHERE t.entry_id = e.id) ELSE e.amount_minor END`)})
                      FILTER (WHERE a.anchor_date IS NULL OR e.date > a.anchor_date OR (a.anchor_opening AND e.date = a.anchor_date)), 0) AS value_out,
           coalesce(sum(${converted('e.amount_minor')}), 0) AS cash_out,
           count(*) FILTER (WHERE e.currency <> a.currency AND ${RATE} IS NULL)::int AS unconverted
      FROM entries e
      JOIN anchored a ON a.id = e.account_id
     WHERE e.account_id = ANY (ARRAY(SELECT id FROM chosen)) AND e.entryable_type IN ('Transaction', 'Trade') AND e.parent_entry_id IS NULL
     GROUP BY e.account_id, e.currency
  )
  SELECT a.id, a.name, a.currency, a.classification, a.accountable_type AS "accountableType",
         coalesce(a.anchor_amount, a.balance_minor)::text AS anchor, a.cash_balance_minor::text AS "cashBase",
         coalesce((SELECT json_agg(json_build_object('currency', m.currency, 'valueOut', m.value_out::text, 'cashOut', m.cash_out::text,
                                                     'unconverted', m.unconverted))
                     FROM moved m WHERE m.account_id = a.id), '[]') AS flows,
         a.subtype, a.status, a.institution_name AS "institutionName", a.created_at AS "createdAt", a.updated_at AS "updatedAt"
    FROM anchored a
   ORDER BY a.name, a.id`;

// The rate of an entry's day to its account's currency, looked up only for an entry in another currency; a trade's fee
// likewise only for a trade. Per-row lookups, not joins: nearly every entry needs neither.
const RATE = `(SELECT x.rate FROM exchange_rates x WHERE x.from_currency = e.currency AND x.to_currency = a.currency AND x.date = e.date)`;
const converted = (amount: string) => `CASE WHEN e.currency = a.currency THEN ${amount} ELSE ${amount} * ${RATE} END`;

const visible = (scope: AccountScope) => (scope.includeDisabled ? '' : `AND a.status IN ('draft', 'active')`);

interface Row extends Omit<AccountRecord, 'start' | 'flows'>, Omit<BalanceStart, 'anchor' | 'cashBase' | 'accountableType'> {
  anchor: string;
  cashBase: string;
  flows: CurrencyFlows[];
}
const toRecord = ({ currency, classification, anchor, cashBase, flows, ...row }: Row): AccountRecord => ({
  ...row,
  start: { currency, classification, accountableType: row.accountableType, anchor: BigInt(anchor), cashBase: BigInt(cashBase) },
  flows,
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
      rolledForward(`SELECT * FROM accounts a WHERE a.family_id = $1 ${visible(scope)} ORDER BY a.name, a.id LIMIT $2 OFFSET $3`),
      [scope.familyId, page.limit, page.offset],
    );
    return rows.map(toRecord);
  }

  async find(scope: AccountScope, id: string): Promise<AccountRecord | undefined> {
    const rows: Row[] = await this.dataSource.query(rolledForward(`SELECT * FROM accounts a WHERE a.id = $1 AND a.family_id = $2 ${visible(scope)}`), [
      id,
      scope.familyId,
    ]);
    return rows.length ? toRecord(rows[0]) : undefined;
  }
}
