import Papa from 'papaparse';
import { decodeBytes } from '../cells';
import { htmlTableRows, isHtmlTable } from './html-table';
import { readWorkbook } from './workbook';
import { type RawInflate, SpreadsheetError, zipEntries } from './zip';

// A spreadsheet uploaded for a CSV import type, read as the table it holds: an XLSX workbook's sheet, or a `.xls`
// that is really an HTML page or tab-separated text (what many banks' "Excel export" is). The table is then written
// as CSV (tableText) and read by the CSV path like any uploaded CSV, header detection and mapping included.

export { SpreadsheetError } from './zip';
export type { RawInflate } from './zip';
export { numberKind, plainDecimal, serialDate } from './cell-values';
export { htmlTableRows, isHtmlTable } from './html-table';

export interface SpreadsheetTable {
  /** What the bytes were: an XLSX workbook, an HTML page's tables, or tab-separated text. */
  kind: 'xlsx' | 'html' | 'tsv';
  /** The workbook's sheet names (empty for the others). */
  sheets: string[];
  /** The sheet read; null for the others. */
  sheet: string | null;
  /** Rows from the first, each as wide as the widest; an empty row of the sheet is an empty row here. */
  rows: string[][];
}

export type SpreadsheetResult = SpreadsheetTable | { error: { code: SpreadsheetError['code']; message: string } };

export interface SpreadsheetOptions {
  /** The uploaded file's name: its extension tells a tab-separated `.xls` from a TSV sent as CSV. */
  fileName: string;
  /** A workbook's sheet to read, by name; absent: the first. */
  sheet?: string | null;
  /** The most text the table may hold, as for a CSV upload (IMPORT_MAX_BYTES). */
  maxTextBytes: number;
  /** A native inflater (node's zlib) for an XLSX's parts; without one they are inflated in JavaScript. */
  inflate?: RawInflate;
}

const startsWith = (bytes: Uint8Array, magic: number[]) => magic.every((byte, i) => bytes[i] === byte);
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const SPREADSHEET_NAME = /\.(xls|xlsx|xlsm)$/i;

/** A ZIP whose first entry is an Office part list, or named as a workbook: damaged, it is still a damaged XLSX. */
function namedWorkbook(bytes: Uint8Array, fileName: string): boolean {
  const first = new TextDecoder().decode(bytes.subarray(30, 30 + 19));
  return /\.(xlsx|xlsm)$/i.test(fileName) || first === '[Content_Types].xml' || first.startsWith('xl/');
}

/** The first bytes are '<' (after a byte-order mark and spaces): text that may be an HTML page. */
function startsWithMarkup(bytes: Uint8Array): boolean {
  let i = startsWith(bytes, [0xef, 0xbb, 0xbf]) ? 3 : 0;
  while (i < bytes.length && i < 1024 && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return bytes[i] === 0x3c;
}

/** Tab-separated when the first lines have more tabs than commas and semicolons together. */
function tabSeparated(text: string): boolean {
  const head = text.slice(0, 8192).split(/\r\n?|\n/).slice(0, 20).join('\n');
  const count = (c: string) => head.split(c).length - 1;
  return count('\t') > count(',') + count(';');
}

function described(error: unknown, fileName: string): SpreadsheetResult {
  if (!(error instanceof SpreadsheetError)) throw error;
  return { error: { code: error.code, message: error.message.replace(/^The XLSX file\b/, fileName ? `"${fileName}"` : 'The XLSX file') } };
}

/**
 * The table a spreadsheet upload holds; an error (a damaged or too large workbook, an old binary .xls, a sheet not
 * there) with a message for the user; or null when the bytes are no spreadsheet this reads (CSV text, a PDF, another
 * ZIP), to be read and judged as before.
 */
export function readSpreadsheet(bytes: Uint8Array, options: SpreadsheetOptions): SpreadsheetResult | null {
  const shown = options.fileName ? `"${options.fileName}"` : 'The file';
  if (startsWith(bytes, OLE2)) {
    return {
      error: {
        code: 'invalid_file_type',
        message: `${shown} is an Excel 97-2003 workbook (.xls) or a password-protected one, which this import does not read: open it in Excel or LibreOffice and save it as .xlsx (without a password) or as CSV.`,
      },
    };
  }
  if (startsWith(bytes, ZIP)) {
    try {
      const entries = zipEntries(bytes);
      if (entries.has('xl/workbook.bin')) {
        return { error: { code: 'invalid_file_type', message: `${shown} is an Excel binary workbook (.xlsb): save it as .xlsx or as CSV.` } };
      }
      if (!entries.has('xl/workbook.xml') && ![...entries.keys()].some((name) => name.startsWith('xl/worksheets/'))) return null;
      return { kind: 'xlsx', ...readWorkbook(bytes, options, entries) };
    } catch (error) {
      if (error instanceof SpreadsheetError && error.code === 'invalid_xlsx' && !namedWorkbook(bytes, options.fileName)) return null;
      return described(error, options.fileName);
    }
  }
  const markup = startsWithMarkup(bytes);
  if (!markup && !SPREADSHEET_NAME.test(options.fileName)) return null;
  const decoded = decodeBytes(bytes);
  if ('error' in decoded) return null;
  const { text } = decoded;
  if (markup && /urn:schemas-microsoft-com:office:spreadsheet/.test(text.slice(0, 4096))) {
    return { error: { code: 'invalid_file_type', message: `${shown} is an Excel 2003 XML spreadsheet, which this import does not read: open it in Excel or LibreOffice and save it as .xlsx or as CSV.` } };
  }
  if (markup && isHtmlTable(text)) {
    try {
      return { kind: 'html', sheets: [], sheet: null, rows: htmlTableRows(text, options.maxTextBytes) };
    } catch (error) {
      return described(error, options.fileName);
    }
  }
  if (!markup && tabSeparated(text)) {
    const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { delimiter: '\t', skipEmptyLines: false });
    return { kind: 'tsv', sheets: [], sheet: null, rows: parsed.data };
  }
  return null;
}

const QUOTED = /[",\r\n]|^\s|\s$/;
const field = (cell: string) => (QUOTED.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

/** The table as CSV text with commas (fields quoted as needed): what the CSV path reads, and what the import keeps. */
export function tableText(rows: string[][]): string {
  return rows.map((row) => (row.every((cell) => cell === '') ? '' : row.map(field).join(','))).join('\n');
}
