import type { Transaction } from '../../database/transactions';
import { timeOrderedId } from '../../common/time-ordered-id';
import { publishSplits, publishTrades } from './investments.publisher';
import { minorUnitScale } from './minor-units';
import { ChunkPublisher, chunkRows, ImportRowRecord, previousValues, PublishContext, PublishError, unmovedStatements } from './publish-context';
import { publishTransactionRows } from './transactions.publisher';

/**
 * Statement rows (QIF, PDF) publish into the import's account by kind: transactions (a QIF split as its total and parts),
 * trades and stock splits of a QIF investment section, and an opening balance as a valuation entry of kind
 * opening_anchor.
 */
export const publishStatement: ChunkPublisher = async (tx, chunk, ctx) => {
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
  else if (chunk.last && ctx.imp.type === 'QifImport') await moveOpeningBalance(tx, ctx, accountId);
};

/** The account's opening balance (its first opening_anchor valuation), as `anchor`. */
const OPENING_ANCHOR = `SELECT e.id, e.date, e.amount_minor, e.currency FROM entries e JOIN valuations v ON v.entry_id = e.id
                         WHERE e.account_id = $1 AND v.kind = 'opening_anchor' ORDER BY e.created_at, e.id LIMIT 1`;

/**
 * An account has one opening balance (docs/api/import-formats.md#qif): the file's (its last Opening Balance record) replaces the
 * one the account has, whoever set it, and the row records what it was for revert; an account without one gets it.
 */
async function setOpeningBalance(tx: Transaction, ctx: PublishContext, accountId: string, row: ImportRowRecord): Promise<void> {
  const currency = String(row.values.currency ?? ctx.familyCurrency);
  const [date, amount, scale] = [row.values.date, row.values.amount, minorUnitScale(currency)];
  const [replaced]: [unknown[], number] = await unmovedStatements(tx).query(
    `WITH anchor AS (${OPENING_ANCHOR}),
          changed AS (
            UPDATE entries e SET date = $2, amount_minor = round($3::numeric * $4::numeric)::bigint, currency = $5, updated_at = now()
              FROM anchor a WHERE e.id = a.id RETURNING e.id, e.date, e.amount_minor, e.currency)
     UPDATE import_rows r SET duplicate_of = c.id, previous = ${previousValues(['date', 'amount_minor', 'currency'], 'a', 'c')}
       FROM anchor a JOIN changed c ON c.id = a.id
      WHERE r.import_id = $6 AND r.source_row_number = $7
     RETURNING r.source_row_number`,
    [accountId, date, amount, scale, currency, ctx.imp.id, row.sourceRowNumber],
  );
  if (replaced.length) return;
  const id = timeOrderedId();
  await unmovedStatements(tx).query(
    `INSERT INTO entries (id, family_id, account_id, entryable_type, date, name, amount_minor, currency, import_id)
     VALUES ($1, $2, $3, 'Valuation', $4, 'Opening balance', round($5::numeric * $6::numeric)::bigint, $7, $8)`,
    [id, ctx.imp.familyId, accountId, date, amount, scale, currency, ctx.imp.id],
  );
  await unmovedStatements(tx).query(`INSERT INTO valuations (entry_id, kind) VALUES ($1, 'opening_anchor')`, [id]);
}

/**
 * A file without an Opening Balance record keeps the account's opening balance, but one dated after the file's
 * earliest row would leave that row's history before the account opened: it moves to the day before, with its
 * amount (an account without one gets none). The earliest row the import added records the
 * old date for revert; a row that claimed a duplicate already records that claim, so when every row is a duplicate
 * the balance stays (the account had those transactions before it already). One statement, in the last chunk.
 */
async function moveOpeningBalance(tx: Transaction, ctx: PublishContext, accountId: string): Promise<void> {
  await unmovedStatements(tx).query(
    `WITH anchor AS (${OPENING_ANCHOR}),
          file AS (
            SELECT min((r."values"->>'date')::date) AS earliest,
                   (array_agg(r.source_row_number ORDER BY (r."values"->>'date')::date, r.source_row_number)
                      FILTER (WHERE r.duplicate_of IS NULL))[1] AS recorder
              FROM import_rows r WHERE r.import_id = $2
            HAVING bool_and(r."values"->>'row_kind' <> 'opening_balance')),
          changed AS (
            UPDATE entries e SET date = f.earliest - 1, updated_at = now()
              FROM anchor a, file f WHERE e.id = a.id AND a.date > f.earliest AND f.recorder IS NOT NULL
            RETURNING e.id, e.date)
     UPDATE import_rows r SET duplicate_of = c.id, previous = ${previousValues(['date'], 'a', 'c')}
       FROM anchor a JOIN changed c ON c.id = a.id, file f
      WHERE r.import_id = $2 AND r.source_row_number = f.recorder`,
    [accountId, ctx.imp.id],
  );
}
