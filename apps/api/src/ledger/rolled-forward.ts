import type { BalanceStart, CurrencyFlows } from '@hearth/domain/account-balance';

// The one statement that rolls accounts' balances forward, read by the accounts API and by import publishing (a bank
// statement's balances checked against its account): a balance has one formula, rollForward over these inputs.

/*
 * The accounts `chosen` selects (family-scoped by the caller, `family` being the parameter that names the family),
 * each with the roll-forward's inputs.
 *
 * The anchor is the latest valuation: an opening anchor is the balance at the start of its day (a QIF file's opening
 * balance shares its day with the first rows), any other valuation the balance at the end of its day, so it wins over
 * an opening anchor of the same day. Without one, the balance the account was created with stands before every entry.
 *
 * The money moved is summed by account, currency and day, so that a day's sum of another currency is converted at
 * that day's rate (as in budgets; without one its entries are counted as unconverted) and each day falls before or
 * after the anchor. The entries are read in one pass for all chosen accounts, which the family's covering index (what
 * budgets read) answers without the table. The few rows that change a sum are read apart, each from a partial index:
 * split parts are taken away (their parent carries the whole amount), and a trade's fee is what changes the account's
 * value (a trade only turns cash into holdings). Amounts go out as text, so that a bigint beyond 2^53 reaches the
 * presenter exactly.
 *
 * The balance is today's, in the family's time zone (`today` is the parameter that names it): an entry or a valuation
 * dated later, such as a scheduled payment in a bank export, counts from its day on, as in Sure.
 */
export const rolledForward = (chosen: string, family: string, today: string) => `
  WITH chosen AS (${chosen}),
  anchored AS (
    SELECT a.*, anchor.date AS anchor_date, anchor.opening AS anchor_opening, anchor.amount_minor AS anchor_amount
      FROM chosen a
      LEFT JOIN LATERAL (
        SELECT e.date, e.amount_minor, v.kind = 'opening_anchor' AS opening
          FROM entries e JOIN valuations v ON v.entry_id = e.id
         WHERE e.account_id = a.id AND e.entryable_type = 'Valuation' AND e.date <= ${today}
         ORDER BY e.date DESC, v.kind = 'opening_anchor', e.id DESC
         LIMIT 1
      ) anchor ON true
  ),
  daily AS (
    SELECT account_id, currency, date, sum(value) AS value, sum(cash) AS cash, sum(n) AS n
      FROM (
        SELECT e.account_id, e.currency, e.date, sum(e.amount_minor) FILTER (WHERE e.entryable_type = 'Transaction') AS value,
               sum(e.amount_minor) AS cash, count(*) AS n
          FROM entries e
         WHERE e.family_id = ${family} AND e.account_id = ANY (ARRAY(SELECT id FROM chosen)) AND e.entryable_type IN ('Transaction', 'Trade') AND e.date <= ${today}
         GROUP BY e.date, e.account_id, e.currency
        UNION ALL
        SELECT e.account_id, e.currency, e.date, -sum(e.amount_minor), -sum(e.amount_minor), -count(*)
          FROM entries e
         WHERE e.parent_entry_id IS NOT NULL AND e.account_id = ANY (ARRAY(SELECT id FROM chosen)) AND e.date <= ${today}
         GROUP BY e.date, e.account_id, e.currency
        UNION ALL
        SELECT e.account_id, e.currency, e.date, sum(t.fee_minor), 0, 0
          FROM entries e JOIN trades t ON t.entry_id = e.id
         WHERE e.entryable_type = 'Trade' AND e.account_id = ANY (ARRAY(SELECT id FROM chosen)) AND e.date <= ${today}
         GROUP BY e.date, e.account_id, e.currency
      ) moves
     GROUP BY account_id, currency, date
  ),
  moved AS (
    SELECT d.account_id, d.currency,
           coalesce(sum(d.value * ${RATE}) FILTER (WHERE a.anchor_date IS NULL OR d.date > a.anchor_date OR (a.anchor_opening AND d.date = a.anchor_date)), 0) AS value_out,
           coalesce(sum(d.cash * ${RATE}), 0) AS cash_out,
           coalesce(sum(d.n) FILTER (WHERE d.currency <> a.currency AND x.rate IS NULL), 0)::int AS unconverted
      FROM daily d
      JOIN anchored a ON a.id = d.account_id
      LEFT JOIN exchange_rates x ON d.currency <> a.currency AND x.from_currency = d.currency AND x.to_currency = a.currency AND x.date = d.date
     GROUP BY d.account_id, d.currency
  )
  SELECT a.id, a.name, a.currency, a.classification, a.accountable_type AS "accountableType",
         coalesce(a.anchor_amount, a.balance_minor)::text AS anchor, a.cash_balance_minor::text AS "cashBase",
         coalesce(m.flows, '[]') AS flows,
         a.subtype, a.status, a.institution_name AS "institutionName", a.created_at AS "createdAt", a.updated_at AS "updatedAt",
         a.closed_at AS "closedAt"
    FROM anchored a
    -- Joined, not a subquery per account: the planner would fold the sums into it and read the entries once per account.
    LEFT JOIN (
      SELECT account_id, json_agg(json_build_object('currency', currency, 'valueOut', value_out::text, 'cashOut', cash_out::text, 'unconverted', unconverted)) AS flows
        FROM moved GROUP BY account_id
    ) m ON m.account_id = a.id
   ORDER BY a.name, a.id`;

const RATE = `CASE WHEN d.currency = a.currency THEN 1 ELSE x.rate END`;

/** What rolledForward gives besides the account's other columns: the roll forward's inputs, amounts as text. */
export interface RolledForwardRow {
  currency: string;
  classification: BalanceStart['classification'];
  accountableType: string;
  anchor: string;
  cashBase: string;
  flows: CurrencyFlows[];
}

/** rollForward's inputs from a row of rolledForward. */
export const balanceInputs = (row: RolledForwardRow): { start: BalanceStart; flows: CurrencyFlows[] } => ({
  start: { currency: row.currency, classification: row.classification, accountableType: row.accountableType, anchor: BigInt(row.anchor), cashBase: BigInt(row.cashBase) },
  flows: row.flows,
});
