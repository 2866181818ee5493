import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { IsoDate } from '@hearth/domain/budget-math';
import type { FamilyScope } from '../common/family-scope';
import { countedEntriesSql } from './counted-entries';

/** The points of a balance series: `start`, then every `step` after it while on or before `end`, and `end` itself. */
export interface SeriesPoints {
  start: IsoDate;
  end: IsoDate;
  interval: 'day' | 'week' | 'month';
  /** How many steps after `start` fit before `end` (the service counts them). */
  steps: number;
}

/** Minor-unit digits of the currencies whose digits are not 2 (JPY 0, KWD 3), to scale converted amounts. */
export interface CurrencyDigits {
  codes: string[];
  digits: number[];
}

/** One account's balances at the series points, in its own currency's minor units (decimal text). */
export interface AccountBalanceSeries {
  id: string;
  currency: string;
  classification: 'asset' | 'liability';
  points: Array<{ date: IsoDate; balance: string }>;
}

/** Σ balance × rate of the accounts of one classification and currency at one point, in family-currency minor units × 10^(its digits − theirs). */
export interface NetWorthGroup {
  date: IsoDate;
  classification: 'asset' | 'liability';
  currency: string;
  product: string | null;
  /** Balances (not 0) of this currency with no rate to the family currency on the point's day: left out of `product`. */
  missingRates: number;
}

/** Σ|amount × rate| of one (month, entry currency, classification) group. */
export interface CashFlowGroup {
  month: IsoDate;
  currency: string;
  isExpense: boolean;
  product: string;
  missingRates: number;
}

/** Σ|amount × rate| of one (top-level category, entry currency, classification) group; category null = uncategorized. */
export interface CategorySpendingGroup {
  categoryId: string | null;
  name: string | null;
  color: string | null;
  icon: string | null;
  currency: string;
  isExpense: boolean;
  product: string;
  missingRates: number;
}

/**
 * The smallest series point on or after the entry's day `d.date` (before `start`: the first point; a month step keeps
 * the start's day of month, the last day of a shorter month standing in for it, as generate_series of the points does).
 */
const BUCKET: Record<SeriesPoints['interval'], string> = {
  day: `GREATEST(d.date, $2::date)`,
  week: `LEAST($2::date + 7 * ceil(GREATEST(d.date - $2::date, 0) / 7.0)::int, $3::date)`,
  month: `LEAST(($2::date + make_interval(months => GREATEST(m.months + ((($2::date + make_interval(months => m.months))::date < d.date)::int), 0)))::date, $3::date)`,
};
const MONTHS_AFTER_START = `(extract(year FROM d.date)::int - extract(year FROM $2::date)::int) * 12 + extract(month FROM d.date)::int - extract(month FROM $2::date)::int`;

/**
 * Each chosen account's balance at every point: `points` rows (kind 2) of an account merged, in date order, with its
 * money moved per day (kind 0) and its valuations (an opening anchor, kind -1, before that day's entries; any other
 * valuation, kind 1, after them), so that one running sum gives the value moved up to each row.
 *
 * As the accounts endpoint rolls a balance forward (rolled-forward.ts): the latest valuation on or before the point is
 * its anchor, and what moved after it changes it (money out lowers an asset, raises a liability); without one, the
 * balance the account was created with stands before every entry. What moves the value is transactions (split parts
 * left out: their parent carries the whole) and trade fees. An entry in another currency is converted to the account's
 * at the rate of its own day (scaled by the two currencies' digits); without a rate it is left out and counted.
 * Parameters: $1 family, $2 start, $3 end, $4 steps, $5 months per step, $6 days per step, $7 account ids or null, $8
 * and $9 the currency digits, $10 whether accounts excluded from reports are left out.
 */
const BALANCES = (interval: SeriesPoints['interval']) => `
  WITH digits AS (SELECT * FROM unnest($8::text[], $9::int[]) AS x(code, n)),
  chosen AS (
    SELECT a.id, a.currency, a.classification, a.balance_minor, CASE a.classification WHEN 'liability' THEN -1 ELSE 1 END AS sign,
           coalesce((SELECT n FROM digits WHERE code = a.currency), 2) AS digits
      FROM accounts a
     WHERE a.family_id = $1 AND a.status IN ('draft', 'active')
       AND ($7::uuid[] IS NULL OR a.id = ANY($7::uuid[]))
       AND NOT ($10::boolean AND a.exclude_from_reports)
  ),
  points AS (
    SELECT DISTINCT p.date FROM (
      SELECT ($2::date + make_interval(months => k * $5::int, days => k * $6::int))::date AS date FROM generate_series(0, $4::int) AS k
      UNION ALL SELECT $3::date
    ) p WHERE p.date <= $3::date
  ),
  daily AS (
    SELECT e.account_id, e.date,
           sum(CASE e.entryable_type WHEN 'Transaction' THEN e.amount_minor ELSE coalesce(t.fee_minor, 0) END
               * CASE WHEN e.currency = a.currency THEN 1 ELSE x.rate * power(10::numeric, a.digits - coalesce(ed.n, 2)) END) AS moved,
           count(*) FILTER (WHERE e.currency <> a.currency AND x.rate IS NULL) AS unconverted
      FROM entries e
      JOIN chosen a ON a.id = e.account_id
      LEFT JOIN trades t ON e.entryable_type = 'Trade' AND t.entry_id = e.id
      LEFT JOIN exchange_rates x ON e.currency <> a.currency AND x.from_currency = e.currency AND x.to_currency = a.currency AND x.date = e.date
      LEFT JOIN digits ed ON e.currency <> a.currency AND ed.code = e.currency
     WHERE e.family_id = $1 AND e.entryable_type IN ('Transaction', 'Trade') AND e.parent_entry_id IS NULL AND e.date <= $3::date
     GROUP BY e.account_id, e.date
  ),
  -- Days merged into their series point: what a day moved counts from the first point on or after it.
  bucketed AS (
    SELECT d.account_id, ${BUCKET[interval]} AS date, sum(d.moved) AS moved, sum(d.unconverted) AS unconverted
      FROM daily d ${interval === 'month' ? `CROSS JOIN LATERAL (SELECT ${MONTHS_AFTER_START} AS months) m` : ''}
     GROUP BY 1, 2
  ),
  anchors AS (
    SELECT e.account_id, e.date, e.amount_minor, CASE WHEN v.kind = 'opening_anchor' THEN -1 ELSE 1 END AS kind, e.id
      FROM entries e JOIN valuations v ON v.entry_id = e.id JOIN chosen a ON a.id = e.account_id
     WHERE e.family_id = $1 AND e.entryable_type = 'Valuation' AND e.date <= $3::date
  ),
  stream AS (
    -- An anchor's moves are those of its own day (the day itself, not its point): read from daily, before bucketing.
    SELECT account_id, date, 0 AS kind, NULL::uuid AS id, moved, NULL::bigint AS anchor FROM daily
     WHERE EXISTS (SELECT 1 FROM anchors WHERE anchors.account_id = daily.account_id AND anchors.date >= daily.date)
    UNION ALL
    SELECT account_id, date, -1, id, NULL, amount_minor FROM anchors WHERE kind = -1
    UNION ALL
    SELECT account_id, date, 1, id, NULL, amount_minor FROM anchors WHERE kind = 1
  ),
  -- Each anchor's base: its amount plus (asset) or minus (liability) what moved up to it, so that base − sign × (what
  -- moved up to a point) is the balance at that point.
  anchor_bases AS (
    SELECT s.account_id, s.date, s.kind, s.id, s.anchor + a.sign * s.moved_before AS base
      FROM (SELECT s.*, coalesce(sum(s.moved) OVER (PARTITION BY s.account_id ORDER BY s.date, s.kind, s.id ROWS UNBOUNDED PRECEDING), 0) AS moved_before
              FROM stream s) s
      JOIN chosen a ON a.id = s.account_id
     WHERE s.kind <> 0
  ),
  grid AS (
    SELECT a.id AS account_id, a.currency, a.classification, a.sign, a.balance_minor, p.date,
           coalesce(sum(b.moved) OVER w, 0) AS moved, coalesce(sum(b.unconverted) OVER w, 0) AS unconverted,
           (SELECT ab.base FROM anchor_bases ab WHERE ab.account_id = a.id AND ab.date <= p.date ORDER BY ab.date DESC, ab.kind DESC, ab.id DESC LIMIT 1) AS base
      FROM chosen a CROSS JOIN points p
      LEFT JOIN bucketed b ON b.account_id = a.id AND b.date = p.date
    WINDOW w AS (PARTITION BY a.id ORDER BY p.date ROWS UNBOUNDED PRECEDING)
  ),
  balances AS (
    SELECT account_id, currency, classification, date, round(coalesce(base, balance_minor) - sign * moved) AS balance, unconverted FROM grid
  )`;

@Injectable()
export class ReportsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Every chosen account's balance at each point (accountIds null: all draft and active accounts), by account name,
   * and the entries left out for want of a rate.
   */
  async accountBalances(
    scope: FamilyScope,
    points: SeriesPoints,
    accountIds: string[] | null,
    digits: CurrencyDigits,
  ): Promise<{ accounts: AccountBalanceSeries[]; unconverted: number }> {
    const accounts: (AccountBalanceSeries & { unconverted: number })[] = await this.dataSource.query(
      `${BALANCES(points.interval)}
       SELECT b.account_id AS id, b.currency, b.classification,
              json_agg(json_build_object('date', to_char(b.date, 'YYYY-MM-DD'), 'balance', b.balance::text) ORDER BY b.date) AS points,
              max(b.unconverted)::int AS unconverted
         FROM balances b JOIN accounts a ON a.id = b.account_id
        GROUP BY b.account_id, b.currency, b.classification, a.name
        ORDER BY a.name, b.account_id`,
      seriesParams(scope, points, accountIds, digits, false),
    );
    return {
      accounts: accounts.map(({ unconverted: _, ...account }) => account),
      unconverted: accounts.reduce((sum, account) => sum + account.unconverted, 0),
    };
  }

  /**
   * Assets and liabilities of the family at each point, per classification and account currency, each balance
   * converted to `currency` at the rate of the point's day. Accounts excluded from reports are left out.
   */
  async netWorth(
    scope: FamilyScope,
    points: SeriesPoints,
    currency: string,
    digits: CurrencyDigits,
  ): Promise<{ groups: NetWorthGroup[]; unconvertedEntries: number }> {
    const params = seriesParams(scope, points, null, digits, true);
    params.push(currency);
    const groups: (NetWorthGroup & { unconvertedEntries: number })[] = await this.dataSource.query(
      `${BALANCES(points.interval)}
       SELECT to_char(b.date, 'YYYY-MM-DD') AS date, b.classification, b.currency,
              sum(b.balance * CASE WHEN b.currency = $11 THEN 1 ELSE r.rate END)::text AS product,
              (count(*) FILTER (WHERE b.currency <> $11 AND r.rate IS NULL AND b.balance <> 0))::int AS "missingRates",
              (SELECT coalesce(sum(unconverted), 0) FROM daily)::int AS "unconvertedEntries"
         FROM balances b
         LEFT JOIN exchange_rates r ON b.currency <> $11 AND r.from_currency = b.currency AND r.to_currency = $11 AND r.date = b.date
        GROUP BY b.date, b.classification, b.currency
        ORDER BY b.date`,
      params,
    );
    return {
      groups: groups.map(({ unconvertedEntries: _, ...group }) => group),
      unconvertedEntries: groups[0]?.unconvertedEntries ?? 0,
    };
  }

  /**
   * Income and spending by budget month (starting on the family's month_start_day), counted as budgets count them
   * (countedEntriesSql: transfers, one-offs, card payments, excluded and pending entries left out), each amount
   * converted to `currency` at the rate of its own day.
   */
  cashFlow(scope: FamilyScope, start: IsoDate, end: IsoDate, currency: string, monthStartDay: number): Promise<CashFlowGroup[]> {
    const params: unknown[] = [scope.familyId, start, end, currency, monthStartDay];
    const counted = countedEntriesSql(params);
    return this.dataSource.query(
      `SELECT to_char(date_trunc('month', e.date - ($5::int - 1)) + ($5::int - 1) * interval '1 day', 'YYYY-MM-DD') AS month,
              e.currency, ${counted.isExpense} AS "isExpense",
              coalesce(sum(abs(e.amount_minor) * CASE WHEN e.currency = $4 THEN 1 ELSE r.rate END), 0)::text AS product,
              (count(*) FILTER (WHERE e.currency <> $4 AND r.rate IS NULL))::int AS "missingRates"
         FROM entries e
         JOIN transactions t ON t.entry_id = e.id
         JOIN accounts a ON a.id = e.account_id
         LEFT JOIN exchange_rates r ON e.currency <> $4 AND r.from_currency = e.currency AND r.to_currency = $4 AND r.date = e.date
        WHERE e.family_id = $1 AND e.date BETWEEN $2::date AND $3::date AND a.family_id = $1 AND ${counted.where}
        GROUP BY 1, 2, 3
        ORDER BY 1`,
      params,
    );
  }

  /**
   * Spending and refunds of the period by top-level category (subcategories rolled up through the family's tree) or
   * uncategorized, counted and converted as budgets count them.
   */
  spendingByCategory(scope: FamilyScope, start: IsoDate, end: IsoDate, currency: string): Promise<CategorySpendingGroup[]> {
    const params: unknown[] = [scope.familyId, start, end, currency];
    const counted = countedEntriesSql(params);
    return this.dataSource.query(
      `WITH RECURSIVE tree(id, top) AS (
         SELECT id, id FROM categories WHERE family_id = $1 AND parent_id IS NULL
         UNION ALL
         SELECT c.id, tree.top FROM categories c JOIN tree ON c.parent_id = tree.id WHERE c.family_id = $1
       )
       SELECT top.id AS "categoryId", top.name, top.color, top.lucide_icon AS icon, e.currency, ${counted.isExpense} AS "isExpense",
              coalesce(sum(abs(e.amount_minor) * CASE WHEN e.currency = $4 THEN 1 ELSE r.rate END), 0)::text AS product,
              (count(*) FILTER (WHERE e.currency <> $4 AND r.rate IS NULL))::int AS "missingRates"
         FROM entries e
         JOIN transactions t ON t.entry_id = e.id
         JOIN accounts a ON a.id = e.account_id
         LEFT JOIN tree ON tree.id = t.category_id
         LEFT JOIN categories top ON top.id = tree.top
         LEFT JOIN exchange_rates r ON e.currency <> $4 AND r.from_currency = e.currency AND r.to_currency = $4 AND r.date = e.date
        WHERE e.family_id = $1 AND e.date BETWEEN $2::date AND $3::date AND a.family_id = $1 AND ${counted.where}
        GROUP BY top.id, top.name, top.color, top.lucide_icon, e.currency, 6`,
      params,
    );
  }
}

const STEP: Record<SeriesPoints['interval'], [months: number, days: number]> = { day: [0, 1], week: [0, 7], month: [1, 0] };

function seriesParams(scope: FamilyScope, points: SeriesPoints, accountIds: string[] | null, digits: CurrencyDigits, reportsOnly: boolean): unknown[] {
  const [months, days] = STEP[points.interval];
  return [scope.familyId, points.start, points.end, points.steps, months, days, accountIds, digits.codes, digits.digits, reportsOnly];
}
