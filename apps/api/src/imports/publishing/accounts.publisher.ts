import { yearsBefore } from '@hearth/domain/import-formats';
import { timeOrderedId } from '../../common/time-ordered-id';
import { classificationOf } from './mappables';
import { minorUnitScale } from './minor-units';
import { RowsPublisher, str } from './publish-context';

/** Each row becomes an account with its balance, plus an opening-balance valuation entry. */
export const publishAccounts: RowsPublisher = async (tx, records, ctx) => {
  const rows = records.map((row) => {
    const v = row.values;
    const type = ctx.accountTypes.get(str(v.entity_type) ?? '') ?? 'Depository';
    const currency = str(v.currency) ?? ctx.familyCurrency;
    return {
      accountId: timeOrderedId(),
      entryId: timeOrderedId(),
      name: String(v.name),
      type,
      classification: classificationOf(type),
      balance: String(v.amount),
      scale: minorUnitScale(currency),
      currency,
      date: str(v.date) ?? yearsBefore(ctx.familyToday, 2), // as Sure does without a balance date
    };
  });
  await ctx.ledger.accounts.insertWithBalances(ctx.imp.familyId, ctx.imp.id, rows, tx);
  await ctx.ledger.entries.insertOpeningBalances(ctx.imp.familyId, ctx.imp.id, rows, tx);
};
