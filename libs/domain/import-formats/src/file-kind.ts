// What a chosen file is, told from its first bytes: a picture, a PDF or a spreadsheet sent as an import's text is
// refused with what it is (and, for a spreadsheet, what to do) before any of it is read as text. The admin app asks
// this when a file is chosen, the API when one is uploaded, so both say the same.

import { IMPORT_FORMAT_FACTS, IMPORT_TYPES, type ImportContentKind } from '@hearth/contracts';

/** What an import type reads: CSV, QIF or NDJSON text, or a PDF statement. */
export type ContentFormat = ImportContentKind;

/**
 * How many of a file's first bytes `wrongFileKind` looks at: an ODS names its kind within them, and a bank statement
 * its standard (a CAMT's namespace follows the XML declaration and, in some banks' files, a comment).
 */
export const FILE_HEAD_BYTES = 1024;

const WANTED: Record<ContentFormat, string> = {
  csv: 'a CSV file',
  qif: 'a QIF file',
  ndjson: 'an NDJSON file',
  pdf: 'a PDF statement',
  ofx: 'an OFX or QFX file',
  camt: 'a CAMT.053 XML statement',
  mt940: 'an MT940 statement',
};

/**
 * Bank statement standards told by their first lines: OFX 1.x's header (OFXHEADER:) or 2.x's processing instruction
 * (<?OFX), or an <OFX> element; an ISO 20022 cash-management namespace (camt.052/053/054); an MT940's SWIFT block
 * header ({1:F01) or its :20: line followed by the account's :25:.
 */
const STATEMENT_KINDS: Array<{ format: ContentFormat; test: RegExp }> = [
  { format: 'ofx', test: /^\s*OFXHEADER\s*:|<\?OFX[\s?]|^\s*(?:<\?xml[^>]*>\s*)?<OFX>/i },
  { format: 'camt', test: /urn:iso:std:iso:20022:tech:xsd:camt\.05[234]\./ },
  { format: 'mt940', test: /^\s*\{1:F01|^:20:[^\r\n]*\r?\n(?:[^\r\n]*\r?\n)?:25:/m },
];

/** Which bank statement standard a file's head is written in, or null when none. */
export function statementFormatOf(head: Uint8Array): ContentFormat | null {
  const text = String.fromCharCode(...head.subarray(0, FILE_HEAD_BYTES));
  return STATEMENT_KINDS.find((kind) => kind.test.test(text))?.format ?? null;
}

/** The import type that reads `format` first: the one a file of that kind should be sent as. */
const typeReading = (format: ContentFormat) => IMPORT_TYPES.find((type) => IMPORT_FORMAT_FACTS[type].accepts[0].kind === format);

interface Signature {
  magic: number[];
  kind: string;
}

const ascii = (text: string) => Array.from(text, (c) => c.charCodeAt(0));
const ZIP = [0x50, 0x4b, 0x03, 0x04];
/** Compound File Binary: Excel 97-2003 (.xls) and the other Office files of that time. */
const OLE2 = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const PDF = ascii('%PDF-');
const SIGNATURES: Signature[] = [
  { magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], kind: 'a PNG image' },
  { magic: [0xff, 0xd8, 0xff], kind: 'a JPEG image' },
  { magic: ascii('GIF8'), kind: 'a GIF image' },
  { magic: PDF, kind: 'a PDF document' },
];
/** Names a ZIP archive has when it is a spreadsheet (XLSX, ODS, Numbers are all ZIP archives). */
const SPREADSHEET_EXTENSIONS = new Set(['.xlsx', '.xlsm', '.xlsb', '.xls', '.ods', '.numbers']);

const startsWith = (head: Uint8Array, magic: number[], at = 0) => magic.every((byte, i) => head[at + i] === byte);
const extensionOf = (name: string) => /\.[^.]+$/.exec(name.toLowerCase())?.[0] ?? '';

/** Whether a file may be a spreadsheet, by its name or first bytes (a ZIP or an OLE2 file): one to read whole. */
export const maybeSpreadsheet = (name: string, head: Uint8Array): boolean =>
  SPREADSHEET_EXTENSIONS.has(extensionOf(name)) || startsWith(head, ZIP) || startsWith(head, OLE2);

/** An Office Open XML or OpenDocument file: the ZIP's first entry is its content-type list or its mimetype. */
function officeZip(head: Uint8Array): boolean {
  // A ZIP's first local header names its first entry at byte 30.
  const entry = String.fromCharCode(...head.subarray(30, 30 + 19));
  return entry === '[Content_Types].xml' || entry.startsWith('mimetype');
}

/**
 * Why a file named `name`, starting with `head` (its first FILE_HEAD_BYTES bytes), is not content of `format`, or
 * null when it may be (its text is checked when read). Text formats refuse any known binary kind and bytes with NUL
 * in them (UTF-16 with its byte-order mark excepted); a PDF statement refuses the kinds that are no PDF.
 */
export function wrongFileKind(name: string, head: Uint8Array, format: ContentFormat): string | null {
  const wanted = WANTED[format];
  const shown = name ? `"${name}"` : 'The file';
  const zip = startsWith(head, ZIP);
  if (zip || startsWith(head, OLE2)) {
    const spreadsheet = SPREADSHEET_EXTENSIONS.has(extensionOf(name)) || !zip || officeZip(head);
    if (!spreadsheet) return `${shown} is a ZIP archive, not ${wanted}: unpack it and choose the file inside.`;
    const advice = format === 'csv' ? 'choose that file' : 'import it with a CSV type (Transaction, Trade, Account, ...)';
    return `${shown} is a spreadsheet, not ${wanted}. Open it in its spreadsheet app (Excel, LibreOffice, Numbers, Google Sheets), export or save the sheet as CSV, and ${advice}.`;
  }
  if (format === 'pdf') {
    const other = SIGNATURES.find((s) => s.magic !== PDF && startsWith(head, s.magic));
    return other ? `${shown} is ${other.kind}, not ${wanted}.` : null;
  }
  const known = SIGNATURES.find((s) => startsWith(head, s.magic));
  if (known) return `${shown} is ${known.kind}, not ${wanted}.${known.magic === PDF ? ' For a PDF bank statement, choose the import type Pdf.' : ''}`;
  const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
  if (!utf16 && head.includes(0)) return `${shown} is not text (it has NUL bytes): choose ${wanted}.`;
  const statement = statementFormatOf(head);
  if (statement && statement !== format) return `${shown} is ${WANTED[statement]}, not ${wanted}: import it with the import type ${typeReading(statement)}.`;
  return null;
}
