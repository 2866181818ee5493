import { timeOrderedId } from '../../common/time-ordered-id';
import { minorUnitScale } from './minor-units';
import { PublishError, RowsPublisher, str } from './publish-context';

/**
 * Trades: securities are found by (ticker, exchange MIC) or created offline in one statement per chunk
 * (no market-data provider here), then entries and trades go in with one statement each.
 */
export const publishTrades: RowsPublisher = async (tx, records, ctx) => {
  const rows = records.map((row) => {
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
    };
  });
  await tx.query(
    `INSERT INTO securities (ticker, exchange_operating_mic, offline) SELECT DISTINCT t, m, true FROM unnest($1::varchar[], $2::varchar[]) AS x(t, m)
     ON CONFLICT (ticker, exchange_operating_mic) DO NOTHING`,
    [rows.map((r) => r.ticker), rows.map((r) => r.mic)],
  );
  await tx.query(
    `INSERT INTO entries (id, family_id, account_id, entryable_type, date, name, amount_minor, currency, import_id)
     SELECT id, $1, account_id, 'Trade', date, name, round(COALESCE(amount, qty * price * sign) * scale)::bigint, currency, $2
       FROM unnest($3::uuid[], $4::uuid[], $5::date[], $6::text[], $7::numeric[], $8::numeric[], $9::numeric[], $10::int[], $11::char(3)[], $12::numeric[])
         AS t(id, account_id, date, name, qty, price, scale, sign, currency, amount)`,
    [ctx.imp.familyId, ctx.imp.id, rows.map((r) => r.entryId), rows.map((r) => r.accountId), rows.map((r) => r.date), rows.map((r) => r.name),
      rows.map((r) => r.qty), rows.map((r) => r.price), rows.map((r) => r.scale), rows.map((r) => r.sign), rows.map((r) => r.currency),
      rows.map((r) => r.amount)],
  );
  await tx.query(
    `INSERT INTO trades (entry_id, security_id, qty, price, fee_minor, currency, investment_activity_label)
     SELECT t.id, s.id, t.qty, t.price, round(COALESCE(t.fee, 0) * t.scale)::bigint, t.currency, t.label
       FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::numeric[], $5::numeric[], $6::char(3)[], $7::varchar[], $8::numeric[], $9::numeric[])
         AS t(id, ticker, mic, qty, price, currency, label, fee, scale)
       JOIN securities s ON s.ticker = t.ticker AND s.exchange_operating_mic = t.mic`,
    [rows.map((r) => r.entryId), rows.map((r) => r.ticker), rows.map((r) => r.mic), rows.map((r) => r.qty), rows.map((r) => r.price),
      rows.map((r) => r.currency), rows.map((r) => r.label), rows.map((r) => r.fee), rows.map((r) => r.scale)],
  );
};
