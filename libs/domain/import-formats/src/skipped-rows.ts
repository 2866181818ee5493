import type { ParsedRow } from './csv-import';

/**
 * The first row of the rows a row publishes with: a split's total (split_of on its parts), or the first row of a QIF
 * record that becomes several (record_of on the others); a row of its own is its own.
 */
const groupOf = (row: ParsedRow): number => Number(row.values.split_of ?? row.values.record_of ?? row.sourceRowNumber);

/**
 * A statement's rows without the ones skip_rows leaves out. Rows that publish together go whole or not at all: a
 * split missing a skipped row would publish parts that do not add up to its total, or parts of no total, and a
 * reinvestment its buy without the income that paid for it. Each row left of such a group gets an error naming it.
 */
export function leaveOutRows(rows: ParsedRow[], skip: ReadonlySet<number>): ParsedRow[] {
  if (!skip.size) return rows;
  const broken = new Set(rows.filter((r) => skip.has(r.sourceRowNumber)).map(groupOf));
  const lastOf = new Map<number, number>();
  for (const r of rows) if (broken.has(groupOf(r))) lastOf.set(groupOf(r), r.sourceRowNumber);
  return rows
    .filter((r) => !skip.has(r.sourceRowNumber))
    .map((r) => {
      const group = groupOf(r);
      if (!broken.has(group)) return r;
      const problem = `Row ${r.sourceRowNumber}: it is one of rows ${group}-${lastOf.get(group)}, which publish together (a split, or one record of several rows): skip them all, or include them again`;
      return { ...r, errors: [...r.errors, problem] };
    });
}
