import { readSpreadsheet, tableText } from '@hearth/domain/import-formats';

/**
 * The API's default import size (IMPORT_MAX_BYTES): a sheet whose table is larger as text is refused here, as it would
 * be there, rather than drawn as a preview of a file that cannot be sent.
 */
const MAX_TABLE_BYTES = 10 * 1024 * 1024;

/** What a spreadsheet upload holds as the browser reads it, with the same reader as the API. */
export type ReadSheet = { sheets: string[]; sheet: string | null; text: string } | { problem: string };

/**
 * A workbook's sheet (the first, or `sheet`), or a `.xls` that is an HTML page or tab-separated text, as the CSV text of
 * its table, which the preview and column pickers read like a CSV; null when the bytes are no spreadsheet.
 */
export function readSheet(bytes: Uint8Array, fileName: string, sheet?: string | null): ReadSheet | null {
  const table = readSpreadsheet(bytes, { fileName, sheet, maxTextBytes: MAX_TABLE_BYTES });
  if (!table) return null;
  if ('error' in table) return { problem: table.error.message };
  return { sheets: table.sheets, sheet: table.sheet, text: tableText(table.rows) };
}
