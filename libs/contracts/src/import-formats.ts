// The import types and what the API and the admin app both need to know of each: the content it accepts, whether
// its rows need an account, and what can be configured. One entry per type; the API's registry
// (apps/api/src/imports/formats/) adds the parser and the publisher. No other file names an import type.

/** What an import's content is: CSV, QIF or NDJSON text, a bank statement (OFX/QFX, CAMT, MT940) or a PDF statement. */
export type ImportContentKind = 'csv' | 'qif' | 'ndjson' | 'pdf' | 'ofx' | 'camt' | 'mt940';

/** The configuration an import takes (create and PATCH) and shows, in the order shown; a type reads its entry's `fields`. */
export const IMPORT_CONFIGURATION_FIELDS = [
  'date_col_label',
  'amount_col_label',
  'name_col_label',
  'category_col_label',
  'tags_col_label',
  'notes_col_label',
  'account_col_label',
  'date_format',
  'number_format',
  'signage_convention',
  'entity_type_col_label',
  'currency_col_label',
  'qty_col_label',
  'ticker_col_label',
  'price_col_label',
  'exchange_operating_mic_col_label',
  'outflow_col_label',
  'inflow_col_label',
  'col_sep',
  'amount_type_strategy',
  'amount_type_inflow_value',
  'header_row',
  'has_header',
] as const;
export type ImportConfigurationField = (typeof IMPORT_CONFIGURATION_FIELDS)[number];

/** A kind of content an import type accepts: how it is uploaded, checked, decoded and shown before upload. */
export interface ImportContentFacts {
  kind: ImportContentKind;
  /** The media types and file extensions taken; a file needs one or the other. */
  mimeTypes: readonly string[];
  extensions: readonly string[];
  /** Largest upload in bytes; null: the configured limit for text imports (IMPORT_MAX_BYTES). */
  maxBytes: number | null;
  /** text: decoded (byte-order mark, UTF-16, Latin-1) and read as text; bytes: read as the bytes that came. */
  decoder: 'text' | 'bytes';
  /** What the API's refusal asks for: "Please upload a CSV file." */
  describe: string;
  /** What the admin app's drop zone asks for. */
  noun: string;
  /** The admin app's file picker accept list. */
  accept: string;
  /** columns: a table of the first rows, with column pickers; lines: the first lines as text; none: name and size. */
  preview: 'columns' | 'lines' | 'none';
  /** Whether text can be pasted instead of a file (raw_file_content). */
  pasteable: boolean;
}

/** What both sides know of one import type. */
export interface ImportFormatFacts {
  /** The content it accepts; the first is what pasted text is read as and what the admin app asks for. */
  accepts: readonly [ImportContentFacts, ...ImportContentFacts[]];
  /** required: the file names no account, rows go into account_id; column: rows name theirs; none: rows are no money. */
  account: 'required' | 'column' | 'none';
  /** The configuration the type reads (the API takes every field for every type, and keeps what it is given). */
  fields: readonly ImportConfigurationField[];
  /** Exports whose columns the exporting app fixes: the date format it writes unless date_format says otherwise. */
  layoutDateFormat?: string;
  /** Whether rows' amounts are money in or out (stored positive for money out), shown signed as the file had them. */
  signedAmounts: boolean;
  /** What the admin app calls the type, when its name without "Import" would not say it ("OFX / QFX"). */
  label?: string;
}

export const MAX_PDF_BYTES = 25 * 1024 * 1024;

const CSV: ImportContentFacts = {
  kind: 'csv',
  // A spreadsheet (XLSX, or a .xls that is HTML or text) is told by its bytes, whatever it is labelled.
  mimeTypes: ['text/csv', 'text/plain', 'application/vnd.ms-excel', 'application/csv', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'text/html', 'text/tab-separated-values'],
  extensions: ['.csv', '.txt', '.tsv', '.xlsx', '.xlsm', '.xls'],
  maxBytes: null,
  decoder: 'text',
  describe: 'a CSV file',
  noun: 'a CSV file',
  // Spreadsheets too: the admin app reads their table for the preview, the API for the rows.
  accept: '.csv,.txt,.tsv,.xlsx,.xlsm,.xls,text/csv',
  preview: 'columns',
  pasteable: true,
};
// QIF and NDJSON have fixed fields: a table of their lines split at commas would show columns that are not there.
const QIF: ImportContentFacts = {
  kind: 'qif',
  mimeTypes: ['application/qif', 'application/x-qif', 'text/plain', 'application/octet-stream'],
  extensions: ['.qif'],
  maxBytes: null,
  decoder: 'text',
  describe: 'a QIF file',
  noun: 'a QIF file',
  accept: '.qif',
  preview: 'lines',
  pasteable: true,
};
const NDJSON: ImportContentFacts = {
  kind: 'ndjson',
  mimeTypes: ['application/x-ndjson', 'application/ndjson', 'application/json', 'application/octet-stream', 'text/plain'],
  extensions: ['.ndjson', '.json'],
  maxBytes: null,
  decoder: 'text',
  describe: 'an NDJSON file',
  noun: 'an NDJSON file',
  accept: '.ndjson,.json',
  preview: 'lines',
  pasteable: true,
};
const PDF: ImportContentFacts = {
  kind: 'pdf',
  mimeTypes: ['application/pdf'],
  extensions: ['.pdf'],
  maxBytes: MAX_PDF_BYTES,
  decoder: 'bytes',
  describe: 'a PDF file',
  noun: 'a PDF statement',
  accept: '.pdf,application/pdf',
  preview: 'none',
  pasteable: false,
};

// Bank statement files: text whose fields the standard fixes. Banks and browsers label them loosely (an OFX as
// text/plain, a CAMT as text/xml, anything as application/octet-stream): the bytes are sniffed (wrongFileKind).
const OFX: ImportContentFacts = {
  kind: 'ofx',
  mimeTypes: ['application/x-ofx', 'application/ofx', 'application/vnd.intu.qfx', 'application/x-qfx', 'application/qfx', 'text/plain', 'application/xml', 'text/xml', 'application/octet-stream'],
  extensions: ['.ofx', '.qfx'],
  maxBytes: null,
  decoder: 'text',
  describe: 'an OFX or QFX file',
  noun: 'an OFX or QFX file',
  accept: '.ofx,.qfx',
  preview: 'lines',
  pasteable: true,
};
const CAMT: ImportContentFacts = {
  kind: 'camt',
  mimeTypes: ['application/xml', 'text/xml', 'text/plain', 'application/octet-stream'],
  extensions: ['.xml', '.camt', '.053'],
  maxBytes: null,
  decoder: 'text',
  describe: 'a CAMT.053 XML file',
  noun: 'a CAMT.053 XML statement',
  accept: '.xml,application/xml,text/xml',
  preview: 'lines',
  pasteable: true,
};
const MT940: ImportContentFacts = {
  kind: 'mt940',
  mimeTypes: ['text/plain', 'application/x-mt940', 'application/octet-stream'],
  extensions: ['.sta', '.mt940', '.940', '.txt', '.mta'],
  maxBytes: null,
  decoder: 'text',
  describe: 'an MT940 file',
  noun: 'an MT940 statement',
  accept: '.sta,.mt940,.940,.txt',
  preview: 'lines',
  pasteable: true,
};

const CSV_COLUMNS = ['date_col_label', 'amount_col_label', 'name_col_label', 'category_col_label', 'tags_col_label', 'notes_col_label', 'account_col_label'] as const;
const CSV_OPTIONS = ['date_format', 'number_format', 'signage_convention', 'col_sep', 'header_row', 'has_header'] as const;

/**
 * One entry per import type, in the order the API lists them. Adding a type: an entry here, a folder in
 * apps/api/src/imports/formats/ and its line in that folder's registry.ts (docs/architecture.md#import-formats).
 */
export const IMPORT_FORMAT_FACTS = {
  TransactionImport: {
    accepts: [CSV],
    account: 'column',
    fields: [...CSV_COLUMNS, 'outflow_col_label', 'inflow_col_label', 'currency_col_label', 'entity_type_col_label', ...CSV_OPTIONS, 'amount_type_strategy', 'amount_type_inflow_value'],
    signedAmounts: true,
  },
  TradeImport: {
    accepts: [CSV],
    account: 'column',
    fields: [...CSV_COLUMNS, 'currency_col_label', 'qty_col_label', 'ticker_col_label', 'price_col_label', 'exchange_operating_mic_col_label', ...CSV_OPTIONS],
    signedAmounts: false,
  },
  AccountImport: { accepts: [CSV], account: 'none', fields: [...CSV_COLUMNS, 'currency_col_label', 'entity_type_col_label', ...CSV_OPTIONS], signedAmounts: false },
  MintImport: { accepts: [CSV], account: 'column', fields: ['date_format'], layoutDateFormat: '%m/%d/%Y', signedAmounts: true },
  ActualImport: { accepts: [CSV], account: 'column', fields: ['date_format'], layoutDateFormat: '%Y-%m-%d', signedAmounts: true },
  // YNAB writes dates as its user set them (25/03/2024 in the UK): its layout's date format is only a default.
  YnabImport: { accepts: [CSV], account: 'column', fields: ['date_format'], layoutDateFormat: '%m/%d/%Y', signedAmounts: true, label: 'YNAB' },
  CategoryImport: { accepts: [CSV], account: 'none', fields: [...CSV_COLUMNS, ...CSV_OPTIONS], signedAmounts: false },
  RuleImport: { accepts: [CSV], account: 'none', fields: [...CSV_COLUMNS, ...CSV_OPTIONS], signedAmounts: false },
  MerchantImport: { accepts: [CSV], account: 'none', fields: [...CSV_COLUMNS, ...CSV_OPTIONS], signedAmounts: false },
  PdfImport: { accepts: [PDF], account: 'required', fields: [], signedAmounts: true, label: 'PDF statement' },
  QifImport: { accepts: [QIF], account: 'required', fields: [], signedAmounts: true, label: 'QIF' },
  ServiceImport: { accepts: [NDJSON], account: 'none', fields: [], signedAmounts: false, label: 'Hearth NDJSON' },
  OfxImport: { accepts: [OFX], account: 'required', fields: [], signedAmounts: true, label: 'OFX / QFX' },
  CamtImport: { accepts: [CAMT], account: 'required', fields: [], signedAmounts: true, label: 'CAMT.053 (ISO 20022)' },
  Mt940Import: { accepts: [MT940], account: 'required', fields: [], signedAmounts: true, label: 'MT940' },
} as const satisfies Record<string, ImportFormatFacts>;

export type ImportType = keyof typeof IMPORT_FORMAT_FACTS;
export const IMPORT_TYPES = Object.keys(IMPORT_FORMAT_FACTS) as readonly ImportType[];
/** The type an import has when a request names none. */
export const DEFAULT_IMPORT_TYPE: ImportType = 'TransactionImport';

/** Whether `name` is an import type (after unaliasImportType). */
export const isImportType = (name: string): name is ImportType => Object.hasOwn(IMPORT_FORMAT_FACTS, name);

/** What both sides know of `type`. */
export const importFormatFacts = (type: ImportType): ImportFormatFacts => IMPORT_FORMAT_FACTS[type];

/** Accepted on input as another name for ServiceImport, so files and scripts written for Sure keep working. */
export const IMPORT_TYPE_ALIASES: Readonly<Record<string, ImportType>> = { SureImport: 'ServiceImport' };

/** The type an input name stands for: the alias's type, or the name itself (still to be checked against IMPORT_TYPES). */
export const unaliasImportType = (name: string): string => (Object.hasOwn(IMPORT_TYPE_ALIASES, name) ? IMPORT_TYPE_ALIASES[name] : name);
