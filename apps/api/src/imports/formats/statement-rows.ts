import { leaveOutRows, type ParsedImport, type ReadImport } from '@hearth/domain/import-formats';
import type { ParseOptions } from '@hearth/domain/import-formats';

/** Statement rows come as one list: the skipped ones are dropped from it (CSV rows are never built). */
export function leaveOutSkipped(parsed: ParsedImport, options: ParseOptions): ReadImport {
  return { ...parsed, rows: leaveOutRows(parsed.rows, options.skipRows ?? new Set()), sourceRows: parsed.rows.length };
}
