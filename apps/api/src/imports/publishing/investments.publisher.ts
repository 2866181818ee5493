import { timeOrderedId } from '../../common/time-ordered-id';
import type { Transaction } from '../../database/transactions';
import type { TradeProbe } from '../../ledger/trades.repository';
import { minorUnitScale } from './minor-units';
import { claimDuplicates, PublishContext, PublishError, RowsPublisher, str } from './publish-context';

/**
 * Trades: securities are found by (ticker, exchange MIC) or created offline in one statement per chunk
 * (no market-data provider here), then entries and trades go in with one statement each. Under the duplicate
 * policy `content` (broker and QIF exports re-imported with overlapping dates) a row that duplicates an existing
 * trade claims it instead.
 */
export const publishTrades: RowsPublisher = async (tx, records, ctx) => {
  const signage = ctx.format.facts.fields.includes('signage_convention') ? ctx.imp.signageConvention : null;
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
      // QIF trades are signed by their action (Buy, Sell): only a type that reads signage_convention applies it.
      sign: signage === 'inflows_negative' ? -1 : 1,
      name: str(v.name) ?? `${qty.startsWith('-') ? 'Sell' : 'Buy'} ${ticker}`,
      // QIF ShrsIn/ShrsOut say Transfer: shares moved without cash.
      label: str(v.activity_label) ?? (qty.startsWith('-') ? 'Sell' : Number(qty) === 0 ? null : 'Buy'),
      rowNumber: row.sourceRowNumber,
    };
  });
  // Trades carry no external id: a statement whose rows have one finds its trades again by their content.
  const duplicates = ctx.format.duplicates !== 'none' ? await claimDuplicateTrades(tx, ctx, rows) : new Set<number>();
  if (duplicates.size === rows.length) return;
  rows = rows.filter((r) => !duplicates.has(r.rowNumber));
  await ctx.ledger.trades.insertMany(ctx.imp.familyId, ctx.imp.id, rows, tx);
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
    const split = { rowNumber: row.sourceRowNumber, accountId: ctx.imp.accountId, date: v.date, name: v.name, ticker: v.ticker };
    const recorded = await ctx.ledger.trades.recordedSplits(split, ctx.imp.id, tx);
    const claims = await claimDuplicates(tx, ctx, recorded);
    if (claims.length) {
      await ctx.ledger.entries.recordClaims(ctx.imp.id, claims, tx);
      continue;
    }
    const added = await ctx.ledger.trades.sharesAddedBySplit(ctx.imp.accountId, v.date, v.ticker, v.ratio, tx);
    if (Number(added) === 0) continue;
    // trades.qty is numeric(24, 8).
    if (Math.abs(Number(added)) >= 1e16) throw new PublishError(`Row ${row.sourceRowNumber}: the split adds more shares than a trade can hold (${added})`);
    await publishTrades(tx, [{ ...row, values: { ...v, qty: added, price: '0', amount: '0', fee: '0', activity_label: 'Other' } }], ctx);
  }
};

/**
 * Claims for each row an existing trade it duplicates (same account, date, security, qty, price, cash amount and
 * currency; not created by this import, nor claimed already): the n-th identical row the n-th oldest identical
 * trade. The claim is recorded on the row (import_rows.duplicate_of) for revert; returns the claiming rows' numbers.
 */
async function claimDuplicateTrades(tx: Transaction, ctx: PublishContext, rows: TradeProbe[]): Promise<Set<number>> {
  const candidates = await ctx.ledger.trades.duplicateCandidates(ctx.imp.familyId, ctx.imp.id, rows, tx);
  const claims = await claimDuplicates(tx, ctx, candidates);
  if (claims.length) await ctx.ledger.entries.recordClaims(ctx.imp.id, claims, tx);
  return new Set(claims.map((c) => c.rowNumber));
}
