import { anchorReaching, bankSigned, rollForward, statedBalanceDisagreement } from '@hearth/domain/account-balance';
import type { StatedBalances } from '@hearth/domain/import-formats';
import { parseAmount } from '@hearth/domain/money';
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
 * its earliest row once every row is in. A bank statement file's stated balances are then set or checked
 * (holdStatedBalances), and what the check found recorded as the import's warnings.
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
  // What needs every row of the file: the last chunk goes on once the chunks before it (running beside it) committed.
  const wholeFile = chunk.last && (openingBalanceBeforeRows || ctx.imp.statementBalances);
  if (wholeFile) await chunk.earlierCommitted();
  // The file's earliest row may predate the account's opening balance.
  if (!openings.length && chunk.last && openingBalanceBeforeRows) await ctx.ledger.entries.moveOpeningBalanceBeforeRows(accountId, ctx.imp.id, tx);
  if (chunk.last && ctx.imp.statementBalances) await ctx.publishing.setWarnings(ctx.imp.id, await holdStatedBalances(tx, ctx, accountId, ctx.imp.statementBalances), tx);
};

/**
 * The bank's stated balances held against the account once every row is in, returning the warnings. An account that
 * holds nothing but this import's entries (new, or emptied) gets the opening balance that makes the bank's balances
 * hold: the stated opening, else the one from which the rows reach the stated closing (an OFX ledger balance), dated
 * before the earliest row; revert deletes it with the import's entries. Any other account is left as it is, and its
 * balance on the closing balance's day compared with the bank's: a difference is a warning, not a failure.
 */
async function holdStatedBalances(tx: Transaction, ctx: PublishContext, accountId: string, stated: StatedBalances): Promise<string[]> {
  const { closing, opening } = stated;
  const inputs = await ctx.ledger.accounts.balanceInputsOn(ctx.imp.familyId, accountId, closing.date, tx);
  if (!inputs) return [];
  const { start, flows } = inputs;
  const currency = closing.currency ?? start.currency;
  if (currency !== start.currency) {
    return [`The bank states the balances in ${currency} and the account is in ${start.currency}: its balance was neither set nor checked by them`];
  }
  const accountSigned = (amount: string) => bankSigned(parseAmount(amount, currency), start.classification);
  if (await ctx.ledger.entries.holdsOnlyImport(accountId, ctx.imp.id, tx)) {
    const statedOpening = opening && (opening.currency ?? currency) === currency ? accountSigned(opening.amount) : null;
    const anchor = statedOpening ?? anchorReaching(accountSigned(closing.amount), start, flows);
    await ctx.ledger.entries.insertOpeningBalanceBeforeRows(ctx.imp.familyId, ctx.imp.id, timeOrderedId(), accountId, anchor, currency, closing.date, tx);
    return [];
  }
  const account = bankSigned(rollForward(start, flows).balance, start.classification);
  const disagreement = statedBalanceDisagreement({ stated: parseAmount(closing.amount, currency), account, currency, date: closing.date });
  return disagreement ? [disagreement] : [];
}

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
