import { readSpreadsheet, tableText } from '@hearth/domain/import-formats';

/**
 * The API's default import size (IMPORT_MAX_BYTES): a sheet whose table is larger as text is refused here, as it would
 * be there, rather than drawn as a preview of a file that cannot be sent.
 */
const MAX_TABLE_BYTES = 10 * 1024 * 1024;

/** What a spreadsheet upload holds as the browser reads it, with the same reader as the API. */
export type ReadSheet = { sheets: string[]; sheet: string | null; text: string } | { problem: string };

/** Names that say "spreadsheet" whatever the bytes are; a workbook's bytes say it for themselves. */
const SPREADSHEET_NAME = /\.(xlsx|xlsm|xls)$/i;
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0];

/** Whether a chosen file may be a spreadsheet, by its name or first bytes: only such files are read whole. */
export const maybeSpreadsheet = (name: string, head: Uint8Array): boolean =>
  SPREADSHEET_NAME.test(name) || [ZIP, OLE2].some((magic) => magic.every((byte, i) => head[i] === byte));

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
