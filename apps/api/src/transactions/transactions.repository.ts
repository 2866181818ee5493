import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { AccountableType } from '@hearth/contracts';
import type { IsoDate } from '@hearth/domain/budget-math';
import { minorUnitDigits } from '@hearth/domain/money';
import type { MinorUnits } from '@hearth/domain/money';
import type { PageWindow } from '../common/paging';

/** Which of the family's transactions a list reads; every filter given narrows it. An empty id list matches nothing. */
export interface TransactionFilter {
  familyId: string;
  accountIds?: string[];
  categoryIds?: string[];
  merchantIds?: string[];
  /** Any of these tags. */
  tagIds?: string[];
  /** Made by this import. */
  importId?: string;
  startDate?: IsoDate;
  endDate?: IsoDate;
  /** Plain decimals, compared with the signed entry amount in its own currency. */
  minAmount?: string;
  maxAmount?: string;
  type?: 'income' | 'expense';
  search?: string;
}

export interface TransactionAccountRecord {
  id: string;
  name: string;
  accountableType: AccountableType;
}

export interface TransactionRecord {
  id: string;
  date: IsoDate;
  amount: MinorUnits;
  currency: string;
  name: string;
  notes: string | null;
  externalId: string | null;
  source: string | null;
  parentId: string | null;
  account: TransactionAccountRecord;
  category: { id: string; name: string; color: string; icon: string } | null;
  merchant: { id: string; name: string } | null;
  tags: Array<{ id: string; name: string; color: string | null }>;
  transfer: { id: string; amount: MinorUnits; currency: string; otherAccount: TransactionAccountRecord } | null;
  createdAt: Date;
  updatedAt: Date;
  /** created_at to the microsecond (UTC, as PostgreSQL writes a timestamp), for a keyset position. */
  createdAtExact: string;
}

/** Where a keyset page starts: after the row of this date, created_at (createdAtExact) and id, in the list's order. */
export interface ListPosition {
  date: IsoDate;
  createdAt: string;
  id: string;
}

/**
 * Minor-unit digits of every currency that has other than 2, so that SQL can scale a decimal amount filter to each
 * entry's own currency (JPY 0, KWD 3).
 */
let digitsOtherThanTwo: string | undefined;
const currencyDigits = () =>
  (digitsOtherThanTwo ??= JSON.stringify(
    Object.fromEntries(Intl.supportedValuesOf('currency').flatMap((code) => (minorUnitDigits(code) === 2 ? [] : [[code, minorUnitDigits(code)]]))),
  ));

/** `%` and `_` (and the escape itself) literal in an ILIKE pattern. */
const likeLiteral = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/** The WHERE clause of a filter over entries e, transactions tx, accounts a (and merchants m when searching), with its parameters. */
function where(filter: TransactionFilter): { sql: string; params: unknown[]; joinsMerchant: boolean } {
  const params: unknown[] = [filter.familyId];
  const param = (value: unknown) => `$${params.push(value)}`;
  // Accounts pending deletion are on their way out: Sure hides their transactions too.
  const conditions = [`e.family_id = $1`, `e.entryable_type = 'Transaction'`, `a.status <> 'pending_deletion'`];
  if (filter.accountIds) conditions.push(`e.account_id = ANY(${param(filter.accountIds)}::uuid[])`);
  if (filter.categoryIds) conditions.push(`tx.category_id = ANY(${param(filter.categoryIds)}::uuid[])`);
  if (filter.merchantIds) conditions.push(`tx.merchant_id = ANY(${param(filter.merchantIds)}::uuid[])`);
  if (filter.tagIds) conditions.push(`EXISTS (SELECT 1 FROM taggings g WHERE g.entry_id = e.id AND g.tag_id = ANY(${param(filter.tagIds)}::uuid[]))`);
  if (filter.importId) conditions.push(`e.import_id = ${param(filter.importId)}::uuid`);
  if (filter.startDate) conditions.push(`e.date >= ${param(filter.startDate)}::date`);
  if (filter.endDate) conditions.push(`e.date <= ${param(filter.endDate)}::date`);
  if (filter.minAmount !== undefined || filter.maxAmount !== undefined) {
    const scale = `power(10::numeric, coalesce((${param(currencyDigits())}::jsonb ->> e.currency::text)::int, 2))`;
    if (filter.minAmount !== undefined) conditions.push(`e.amount_minor >= ${param(filter.minAmount)}::numeric * ${scale}`);
    if (filter.maxAmount !== undefined) conditions.push(`e.amount_minor <= ${param(filter.maxAmount)}::numeric * ${scale}`);
  }
  if (filter.type === 'income') conditions.push('e.amount_minor < 0');
  if (filter.type === 'expense') conditions.push('e.amount_minor > 0');
  if (filter.search !== undefined) {
    const pattern = param(`%${likeLiteral(filter.search)}%`);
    conditions.push(`(e.name ILIKE ${pattern} OR e.notes ILIKE ${pattern} OR m.name ILIKE ${pattern})`);
  }
  return { sql: conditions.join(' AND '), params, joinsMerchant: filter.search !== undefined };
}

const FILTERED = (joinsMerchant: boolean) => `entries e JOIN transactions tx ON tx.entry_id = e.id JOIN accounts a ON a.id = e.account_id
  ${joinsMerchant ? 'LEFT JOIN merchants m ON m.id = tx.merchant_id' : ''}`;

const ORDER = 'e.date DESC, e.created_at DESC, e.id DESC';

/**
 * The page's transactions with everything the Transaction object shows, joined once for the page's rows (`page` is a
 * CTE of entry ids in order). Amounts as text, so a bigint beyond 2^53 reaches the presenter exactly.
 */
const DETAILS = `
  SELECT e.id, e.date::text AS date, e.amount_minor::text AS amount, e.currency, e.name, e.notes, e.external_id AS "externalId",
         e.source, e.parent_entry_id AS "parentId", e.created_at AS "createdAt", e.updated_at AS "updatedAt",
         (e.created_at AT TIME ZONE 'UTC')::text AS "createdAtExact",
         json_build_object('id', a.id, 'name', a.name, 'accountableType', a.accountable_type) AS account,
         CASE WHEN c.id IS NULL THEN NULL ELSE json_build_object('id', c.id, 'name', c.name, 'color', c.color, 'icon', c.lucide_icon) END AS category,
         CASE WHEN m.id IS NULL THEN NULL ELSE json_build_object('id', m.id, 'name', m.name) END AS merchant,
         COALESCE(tg.tags, '[]'::json) AS tags,
         CASE WHEN xf.id IS NULL THEN NULL ELSE json_build_object('id', xf.id, 'amount', xf.amount::text, 'currency', xf.currency,
           'otherAccount', json_build_object('id', xf.account_id, 'name', xf.account_name, 'accountableType', xf.accountable_type)) END AS transfer
    FROM page p
    JOIN entries e ON e.id = p.id
    JOIN transactions tx ON tx.entry_id = e.id
    JOIN accounts a ON a.id = e.account_id
    LEFT JOIN categories c ON c.id = tx.category_id
    LEFT JOIN merchants m ON m.id = tx.merchant_id
    LEFT JOIN LATERAL (
      SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) ORDER BY t.name, t.id) AS tags
        FROM taggings g JOIN tags t ON t.id = g.tag_id WHERE g.entry_id = e.id
    ) tg ON true
    LEFT JOIN LATERAL (
      SELECT tr.id, abs(inflow.amount_minor) AS amount, inflow.currency, other.id AS account_id, other.name AS account_name, other.accountable_type
        FROM transfers tr
        JOIN entries inflow ON inflow.id = tr.inflow_entry_id
        JOIN entries side ON side.id = CASE WHEN tr.inflow_entry_id = e.id THEN tr.outflow_entry_id ELSE tr.inflow_entry_id END
        JOIN accounts other ON other.id = side.account_id
       WHERE tr.inflow_entry_id = e.id OR tr.outflow_entry_id = e.id
       LIMIT 1
    ) xf ON true
   ORDER BY ${ORDER}`;

type Row = Omit<TransactionRecord, 'amount' | 'transfer'> & {
  amount: string;
  transfer: (Omit<NonNullable<TransactionRecord['transfer']>, 'amount'> & { amount: string }) | null;
};
const toRecord = (row: Row): TransactionRecord => ({
  ...row,
  amount: BigInt(row.amount),
  transfer: row.transfer && { ...row.transfer, amount: BigInt(row.transfer.amount) },
});

@Injectable()
export class TransactionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async count(filter: TransactionFilter): Promise<number> {
    const { sql, params, joinsMerchant } = where(filter);
    const [row] = await this.dataSource.query(`SELECT count(*)::int AS n FROM ${FILTERED(joinsMerchant)} WHERE ${sql}`, params);
    return row.n;
  }

  /**
   * One page, newest first; the family's entries are read along the (family_id, date) index, backwards. After a
   * position (keyset paging), the scan starts at its date (`e.date <=`, a bound of that index) and the row comparison,
   * in the order's own columns, drops what precedes it on that day; LIMIT then ends the scan, so a deep page costs
   * what the first does, where an OFFSET reads and throws away every row before it.
   */
  async list(filter: TransactionFilter, page: PageWindow, after?: ListPosition): Promise<TransactionRecord[]> {
    const { sql, params, joinsMerchant } = where(filter);
    let keyset = '';
    if (after) {
      const [date, createdAt, id] = [params.push(after.date), params.push(after.createdAt), params.push(after.id)].map((n) => `$${n}`);
      keyset = `AND e.date <= ${date}::date AND (e.date, e.created_at, e.id) < (${date}::date, ${createdAt}::timestamp AT TIME ZONE 'UTC', ${id}::uuid)`;
    }
    const limit = `$${params.push(page.limit)}`;
    const offset = `$${params.push(page.offset)}`;
    const rows: Row[] = await this.dataSource.query(
      `WITH page AS (SELECT e.id FROM ${FILTERED(joinsMerchant)} WHERE ${sql} ${keyset} ORDER BY ${ORDER} LIMIT ${limit} OFFSET ${offset}) ${DETAILS}`,
      params,
    );
    return rows.map(toRecord);
  }

  /** The family's transactions among `ids`, in the list's order. */
  async findMany(familyId: string, ids: string[]): Promise<TransactionRecord[]> {
    const { sql, params } = where({ familyId });
    const rows: Row[] = await this.dataSource.query(
      `WITH page AS (SELECT e.id FROM ${FILTERED(false)} WHERE ${sql} AND e.id = ANY($${params.push(ids)}::uuid[])) ${DETAILS}`,
      params,
    );
    return rows.map(toRecord);
  }

  async find(familyId: string, id: string): Promise<TransactionRecord | undefined> {
    return (await this.findMany(familyId, [id]))[0];
  }
}
