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
  await tx.query(
    `INSERT INTO accounts (id, family_id, name, accountable_type, classification, balance_minor, cash_balance_minor, currency, import_id)
     SELECT id, $1, name, type, class, round(balance * scale)::bigint, round(balance * scale)::bigint, currency, $2
       FROM unnest($3::uuid[], $4::text[], $5::varchar[], $6::varchar[], $7::numeric[], $8::numeric[], $9::char(3)[])
         AS t(id, name, type, class, balance, scale, currency)`,
    [ctx.imp.familyId, ctx.imp.id, rows.map((r) => r.accountId), rows.map((r) => r.name), rows.map((r) => r.type),
      rows.map((r) => r.classification), rows.map((r) => r.balance), rows.map((r) => r.scale), rows.map((r) => r.currency)],
  );
  await tx.query(
    `INSERT INTO entries (id, family_id, account_id, entryable_type, date, name, amount_minor, currency, import_id)
     SELECT id, $1, account_id, 'Valuation', date, 'Opening balance', round(balance * scale)::bigint, currency, $2
       FROM unnest($3::uuid[], $4::uuid[], $5::date[], $6::numeric[], $7::numeric[], $8::char(3)[]) AS t(id, account_id, date, balance, scale, currency)`,
    [ctx.imp.familyId, ctx.imp.id, rows.map((r) => r.entryId), rows.map((r) => r.accountId), rows.map((r) => r.date),
      rows.map((r) => r.balance), rows.map((r) => r.scale), rows.map((r) => r.currency)],
  );
  await tx.query(`INSERT INTO valuations (entry_id, kind) SELECT id, 'opening_anchor' FROM unnest($1::uuid[]) AS t(id)`, [rows.map((r) => r.entryId)]);
};
