import type { ParsedRow } from './csv-import';

/** The row number of the split a row belongs to (its total's), or null for a row of no split. */
const splitOf = (row: ParsedRow): number | null =>
  row.values.split_of != null ? Number(row.values.split_of) : row.values.split_count != null ? row.sourceRowNumber : null;

/**
 * A statement's rows without the ones skip_rows leaves out. A split (a total's row with split_count, its parts with
 * split_of) goes whole or not at all: one missing a skipped row would publish parts that do not add up to its total,
 * or parts of no total, so each of its rows left gets an error naming the split.
 */
export function leaveOutRows(rows: ParsedRow[], skip: ReadonlySet<number>): ParsedRow[] {
  if (!skip.size) return rows;
  const incomplete = new Set(rows.filter((r) => skip.has(r.sourceRowNumber)).map(splitOf).filter((n) => n !== null));
  const lastOf = new Map<number, number>();
  for (const r of rows) if (incomplete.has(splitOf(r)!)) lastOf.set(splitOf(r)!, r.sourceRowNumber);
  return rows
    .filter((r) => !skip.has(r.sourceRowNumber))
    .map((r) => {
      const split = splitOf(r);
      if (split === null || !incomplete.has(split)) return r;
      const problem = `Row ${r.sourceRowNumber}: its split (rows ${split}-${lastOf.get(split)}) has skipped rows: skip the whole split, or include them again`;
      return { ...r, errors: [...r.errors, problem] };
    });
}
