import { timeOrderedId } from '../../common/time-ordered-id';
import type { Transaction } from '../../database/transactions';
import { minorUnitScale } from './minor-units';
import { claimDuplicates, PublishContext, PublishError, RowsPublisher, str, unmovedStatements } from './publish-context';

/** Broker and QIF exports re-imported with overlapping dates must not double the holdings. */
const DEDUPLICATED = new Set(['TradeImport', 'QifImport']);

/** A trade's entry amount in minor units, from a row of `t`: the cash the file states, else qty x price, signed. */
const amountMinor = (t: string) => `round(COALESCE(${t}.amount, ${t}.qty * ${t}.price * ${t}.sign) * ${t}.scale)::bigint`;

/**
 * Trades: securities are found by (ticker, exchange MIC) or created offline in one statement per chunk
 * (no market-data provider here), then entries and trades go in with one statement each. A broker or QIF export's
 * row that duplicates an existing trade claims it instead.
 */
export const publishTrades: RowsPublisher = async (tx, records, ctx) => {
  let rows = records.map((row) => {
    const v = row.values;
    const accountId = ctx.imp.accountId ?? ctx.accounts.get(str(v.account) ?? '');
    if (!accountId) throw new PublishError(`Row ${row.sourceRowNumber}: no account (set account_id or an account column)`);
    const currency = str(v.currency) ?? ctx.accountCurrencies.get(accountId) ?? ctx.familyCurrency;
    const qty = String(v.qty);
    const ticker = String(v.ticker).toUpperCase();
    return {
      entryId: timeOrderedId(),
      accountId,
      date: String(v.date),
      ticker,
      mic: (str(v.exchange_operating_mic) ?? '').toUpperCase(),
      qty,
      price: String(v.price),
      // A QIF trade's cash amount as the file states it (commission included); CSV trades have none.
      amount: str(v.amount),
      // A QIF trade's commission (O), in the trade's currency; CSV trades state none.
      fee: str(v.fee),
      currency,
      scale: minorUnitScale(currency),
      // A buy is money leaving the account: positive, like an expense; signage flips it for inflows_negative CSV files.
      // QIF trades are signed by their action (Buy, Sell) whatever signage_convention the import was given.
      sign: ctx.imp.type === 'TradeImport' && ctx.imp.signageConvention === 'inflows_negative' ? -1 : 1,
      name: str(v.name) ?? `${qty.startsWith('-') ? 'Sell' : 'Buy'} ${ticker}`,
      // QIF ShrsIn/ShrsOut say Transfer: shares moved without cash.
      label: str(v.activity_label) ?? (qty.startsWith('-') ? 'Sell' : Number(qty) === 0 ? null : 'Buy'),
      rowNumber: row.sourceRowNumber,
    };
  });
  const duplicates = DEDUPLICATED.has(ctx.imp.type) ? await claimDuplicateTrades(tx, ctx, rows) : new Set<number>();
  if (duplicates.size === rows.length) return;
  rows = rows.filter((r) => !duplicates.has(r.rowNumber));
  await unmovedStatements(tx).query(
    `INSERT INTO securities (ticker, exchange_operating_mic, offline) SELECT DISTINCT t, m, true FROM unnest($1::varchar[], $2::varchar[]) AS x(t, m)
     ON CONFLICT (ticker, exchange_operating_mic) DO NOTHING`,
    [rows.map((r) => r.ticker), rows.map((r) => r.mic)],
  );
  await unmovedStatements(tx).query(
    `INSERT INTO entries (id, family_id, account_id, entryable_type, date, name, amount_minor, currency, import_id)
     SELECT id, $1, account_id, 'Trade', date, name, ${amountMinor('t')}, currency, $2
       FROM unnest($3::uuid[], $4::uuid[], $5::date[], $6::text[], $7::numeric[], $8::numeric[], $9::numeric[], $10::int[], $11::char(3)[], $12::numeric[])
         AS t(id, account_id, date, name, qty, price, scale, sign, currency, amount)`,
    [ctx.imp.familyId, ctx.imp.id, rows.map((r) => r.entryId), rows.map((r) => r.accountId), rows.map((r) => r.date), rows.map((r) => r.name),
      rows.map((r) => r.qty), rows.map((r) => r.price), rows.map((r) => r.scale), rows.map((r) => r.sign), rows.map((r) => r.currency),
      rows.map((r) => r.amount)],
  );
  await unmovedStatements(tx).query(
    `INSERT INTO trades (entry_id, security_id, qty, price, fee_minor, currency, investment_activity_label)
     SELECT t.id, s.id, t.qty, t.price, round(COALESCE(t.fee, 0) * t.scale)::bigint, t.currency, t.label
       FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::numeric[], $5::numeric[], $6::char(3)[], $7::varchar[], $8::numeric[], $9::numeric[])
         AS t(id, ticker, mic, qty, price, currency, label, fee, scale)
       JOIN securities s ON s.ticker = t.ticker AND s.exchange_operating_mic = t.mic`,
    [rows.map((r) => r.entryId), rows.map((r) => r.ticker), rows.map((r) => r.mic), rows.map((r) => r.qty), rows.map((r) => r.price),
      rows.map((r) => r.currency), rows.map((r) => r.label), rows.map((r) => r.fee), rows.map((r) => r.scale)],
  );
};

/**
 * Stock splits (QIF StkSplit), after the chunk's trades and each in file order: a trade of the shares the split adds
 * (or removes, below 1 for 1) at price 0 and no cash, labelled Other. The shares are the holding of the security in
 * the account on that day as recorded when the split publishes (its trades dated on or before it, the file's rows
 * before it included) times ratio - 1. One statement each: a second split of the security counts the shares the
 * first added. A split recorded already (a re-imported file: a trade of that name, day and security, no cash) is
 * claimed whatever its shares, which trades added since would change. A split of a security not held adds nothing.
 */
export const publishSplits: RowsPublisher = async (tx, records, ctx) => {
  for (const row of records) {
    const v = row.values;
    const recorded: Array<{ rowNumber: number; entryId: string }> = await unmovedStatements(tx).query(
      `SELECT $1::int AS "rowNumber", e.id AS "entryId"
         FROM entries e JOIN trades t ON t.entry_id = e.id JOIN securities s ON s.id = t.security_id
        WHERE e.account_id = $2 AND e.date = $3 AND e.name = $4 AND e.entryable_type = 'Trade' AND e.amount_minor = 0 AND t.price = 0
          AND s.ticker = $5 AND s.exchange_operating_mic = '' AND e.import_id IS DISTINCT FROM $6
        ORDER BY e.created_at, e.id`,
      [row.sourceRowNumber, ctx.imp.accountId, v.date, v.name, v.ticker, ctx.imp.id],
    );
    const claims = await claimDuplicates(tx, ctx, recorded);
    if (claims.length) {
      await recordClaims(tx, ctx, claims);
      continue;
    }
    const [{ added }] = await unmovedStatements(tx).query(
      `SELECT round(COALESCE(sum(t.qty), 0) * ($4::numeric - 1), 8)::text AS added
         FROM entries e JOIN trades t ON t.entry_id = e.id JOIN securities s ON s.id = t.security_id
        WHERE e.account_id = $1 AND e.date <= $2 AND e.entryable_type = 'Trade' AND s.ticker = $3 AND s.exchange_operating_mic = ''`,
      [ctx.imp.accountId, v.date, v.ticker, v.ratio],
    );
    if (Number(added) === 0) continue;
    // trades.qty is numeric(24, 8).
    if (Math.abs(Number(added)) >= 1e16) throw new PublishError(`Row ${row.sourceRowNumber}: the split adds more shares than a trade can hold (${added})`);
    await publishTrades(tx, [{ ...row, values: { ...v, qty: added, price: '0', amount: '0', fee: '0', activity_label: 'Other' } }], ctx);
  }
};

/** Records on the rows (import_rows.duplicate_of) the existing records they claimed, for revert. */
async function recordClaims(tx: Transaction, ctx: PublishContext, claims: Array<{ rowNumber: number; entryId: string }>): Promise<void> {
  await unmovedStatements(tx).query(
    `UPDATE import_rows r SET duplicate_of = u.id FROM unnest($2::int[], $3::uuid[]) AS u(rn, id) WHERE r.import_id = $1 AND r.source_row_number = u.rn`,
    [ctx.imp.id, claims.map((c) => c.rowNumber), claims.map((c) => c.entryId)],
  );
}

type TradeRow = { rowNumber: number; accountId: string; date: string; ticker: string; mic: string; qty: string; price: string; amount: string | null; sign: number; scale: string; currency: string };

/**
 * Claims for each row an existing trade it duplicates (same account, date, security, qty, price, cash amount and
 * currency; not created by this import, nor claimed already): the n-th identical row the n-th oldest identical
 * trade. The claim is recorded on the row (import_rows.duplicate_of) for revert; returns the claiming rows' numbers.
 * The join with trades alone says an entry is a trade: naming entryable_type too let the planner probe by the partial
 * index of an account's trades (account balances'), reading every trade of the account for each row (time growing
 * with the square of the re-imported trades), instead of by (account, date, amount).
 */
async function claimDuplicateTrades(tx: Transaction, ctx: PublishContext, rows: TradeRow[]): Promise<Set<number>> {
  const candidates: Array<{ rowNumber: number; entryId: string }> = await unmovedStatements(tx).query(
    `SELECT g.rn AS "rowNumber", x.id AS "entryId"
       FROM unnest($3::int[], $4::uuid[], $5::date[], $6::varchar[], $7::varchar[], $8::numeric[], $9::numeric[], $10::numeric[], $11::int[], $12::numeric[], $13::char(3)[])
         AS g(rn, account_id, date, ticker, mic, qty, price, amount, sign, scale, currency)
       JOIN accounts a ON a.id = g.account_id AND a.family_id = $1
      CROSS JOIN LATERAL (
        SELECT e.id, row_number() OVER (ORDER BY e.created_at, e.id) AS age
          FROM entries e JOIN trades t ON t.entry_id = e.id JOIN securities s ON s.id = t.security_id
         WHERE e.account_id = g.account_id AND e.date = g.date AND e.import_id IS DISTINCT FROM $2
           AND e.amount_minor = ${amountMinor('g')} AND e.currency = g.currency
           AND t.qty = g.qty AND t.price = g.price AND s.ticker = g.ticker AND s.exchange_operating_mic = g.mic
        OFFSET 0) x
      ORDER BY g.rn, x.age`,
    [ctx.imp.familyId, ctx.imp.id, rows.map((r) => r.rowNumber), rows.map((r) => r.accountId), rows.map((r) => r.date), rows.map((r) => r.ticker),
      rows.map((r) => r.mic), rows.map((r) => r.qty), rows.map((r) => r.price), rows.map((r) => r.amount), rows.map((r) => r.sign),
      rows.map((r) => r.scale), rows.map((r) => r.currency)],
  );
  const claims = await claimDuplicates(tx, ctx, candidates);
  if (claims.length) await recordClaims(tx, ctx, claims);
  return new Set(claims.map((c) => c.rowNumber));
}
