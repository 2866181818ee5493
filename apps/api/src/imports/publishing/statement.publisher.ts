import type { Transaction } from '../../database/transactions';
import { timeOrderedId } from '../../common/time-ordered-id';
import { publishSplits, publishTrades } from './investments.publisher';
import { minorUnitScale } from './minor-units';
import { ChunkPublisher, chunkRows, ImportRowRecord, PublishContext, PublishError } from './publish-context';
import { publishTransactionRows } from './transactions.publisher';

/**
 * Statement rows (QIF, PDF) publish into the import's account by kind: transactions (a QIF split as its total and parts),
 * trades and stock splits of a QIF investment section, and an opening balance as a valuation entry of kind
 * opening_anchor. With `openingBalanceBeforeRows`, a file without an opening balance moves the account's one before
 * its earliest row once every row is in.
 */
export const statementPublisher = ({ openingBalanceBeforeRows }: { openingBalanceBeforeRows: boolean }): ChunkPublisher => async (tx, chunk, ctx) => {
  const accountId = ctx.imp.accountId;
  if (!accountId) throw new PublishError('A statement import publishes into its account_id');
  await publishTransactionRows(tx, chunk, ctx, 'transaction');
  const trades = await chunkRows(tx, ctx, chunk, 'trade');
  if (trades.length) await publishTrades(tx, trades, ctx);
  const splits = await chunkRows(tx, ctx, chunk, 'split');
  if (splits.length) await publishSplits(tx, splits, ctx);
  const openings = await chunkRows(tx, ctx, chunk, 'opening_balance');
  if (openings.length) await setOpeningBalance(tx, ctx, accountId, openings.at(-1)!);
  // Once every row is in: the file's earliest row may predate the account's opening balance.
  else if (chunk.last && openingBalanceBeforeRows) await ctx.ledger.entries.moveOpeningBalanceBeforeRows(accountId, ctx.imp.id, tx);
};

/**
 * An account has one opening balance (docs/api/import-formats.md#qif): the file's (its last Opening Balance record) replaces the
 * one the account has, whoever set it, and the row records what it was for revert; an account without one gets it.
 */
async function setOpeningBalance(tx: Transaction, ctx: PublishContext, accountId: string, row: ImportRowRecord): Promise<void> {
  const currency = String(row.values.currency ?? ctx.familyCurrency);
  const balance = { date: row.values.date, amount: row.values.amount, scale: minorUnitScale(currency), currency };
  if (await ctx.ledger.entries.replaceOpeningBalance(accountId, balance, ctx.imp.id, row.sourceRowNumber, tx)) return;
  await ctx.ledger.entries.insertOpeningBalance(ctx.imp.familyId, ctx.imp.id, timeOrderedId(), accountId, balance, tx);
}
