import { timeOrderedId } from '../../common/time-ordered-id';
import { publishTrades } from './investments.publisher';
import { minorUnitScale } from './minor-units';
import { ChunkPublisher, chunkRows, PublishError } from './publish-context';
import { publishTransactionRows } from './transactions.publisher';

/**
 * Statement rows (QIF, PDF) publish into the import's account by kind: transactions (splits already one row each),
 * trades of a QIF investment section, and an opening balance as a valuation entry of kind opening_anchor.
 */
export const publishStatement: ChunkPublisher = async (tx, chunk, ctx) => {
  const accountId = ctx.imp.accountId;
  if (!accountId) throw new PublishError('A statement import publishes into its account_id');
  await publishTransactionRows(tx, chunk, ctx, 'transaction');
  const trades = await chunkRows(tx, ctx, chunk, 'trade');
  if (trades.length) await publishTrades(tx, trades, ctx);
  const openings = await chunkRows(tx, ctx, chunk, 'opening_balance');
  if (!openings.length) return;
  const ids = openings.map(() => timeOrderedId());
  const currencies = openings.map((r) => String(r.values.currency ?? ctx.familyCurrency));
  await tx.query(
    `INSERT INTO entries (id, family_id, account_id, entryable_type, date, name, amount_minor, currency, import_id)
     SELECT id, $1, $2, 'Valuation', date, 'Opening balance', round(amount * scale)::bigint, currency, $3
       FROM unnest($4::uuid[], $5::date[], $6::numeric[], $7::numeric[], $8::char(3)[]) AS t(id, date, amount, scale, currency)`,
    [ctx.imp.familyId, accountId, ctx.imp.id, ids, openings.map((r) => r.values.date), openings.map((r) => r.values.amount),
      currencies.map(minorUnitScale), currencies],
  );
  await tx.query(`INSERT INTO valuations (entry_id, kind) SELECT unnest($1::uuid[]), 'opening_anchor'`, [ids]);
};
