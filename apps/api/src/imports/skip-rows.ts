import { ApiError } from '../common/api-error';

/** Row numbers a PATCH's skip_rows may hold (one per stored row at most, STORED_ROWS_CAP). */
export const MAX_SKIP_ROWS = 100_000;

/**
 * skip_rows must name rows the content has: every format numbers its rows 1 to `sourceRows`, skipped ones included
 * (row_number in GET /imports/{id}/rows). A 422 names the others.
 */
export function assertSkippable(skipRows: readonly number[], sourceRows: number): void {
  const unknown = skipRows.filter((n) => n > sourceRows);
  if (!unknown.length) return;
  const shown = unknown.length > 20 ? `${unknown.slice(0, 20).join(', ')} and ${unknown.length - 20} more` : unknown.join(', ');
  const has = sourceRows === 0 ? 'it has no rows' : sourceRows === 1 ? 'its only row is 1' : `its rows are 1-${sourceRows}`;
  throw ApiError.validation([`skip_rows names rows this import does not have: ${shown} (${has})`]);
}

/** The list stored for a PATCH's skip_rows: each row once, in order. */
export const normalizedSkipRows = (rows: readonly number[]): number[] => [...new Set(rows)].sort((a, b) => a - b);
