import Papa from 'papaparse';
import { isCurrencyCode } from '@hearth/domain/money';
import type { ImportType, NumberFormat } from '@hearth/contracts';
import { dateFormatError, type Digits, lengthError, MAX_CHARS, minorUnitError, negateDecimal, negativeError, normalizeHeader, parseDate, parseNumber, PRICE_DIGITS, shownValue, splitTags, sumOf, tradeSizeError, yearsBefore } from './cells';
import { MAX_NESTING, nestingDepth, ruleOperandTable } from './ndjson';
import { actualSplitMarker, groupActualSplits, SPLIT_MARKER } from './actual-splits';
import { inferColumns, type InferredColumns, looksLikeData, remarkLines } from './headerless';
import { ambiguousDateFormatMessage, DETECTED_DATE_FORMATS, detectDateFormat } from './date-detection';
import type { StatementFacts } from './statement';
import { CREDIT_NAMES, type CsvDialect, type CsvRowKind, csvDialectOf, DEBIT_NAMES, type RequiredColumn } from './formats/csv-dialects';

// CSV import parsing: text -> typed, validated rows. Values keep the service's conventions: ISO dates, decimal
// strings with positive = money leaving the account, tags as a list.

/** The import's configuration that decides how its CSV is read (the Import entity satisfies it). */
export interface CsvImportSettings {
  type: ImportType;
  colSep: string;
  dateColLabel: string | null;
  amountColLabel: string | null;
  nameColLabel: string | null;
  categoryColLabel: string | null;
  tagsColLabel: string | null;
  notesColLabel: string | null;
  accountColLabel: string | null;
  qtyColLabel: string | null;
  tickerColLabel: string | null;
  priceColLabel: string | null;
  entityTypeColLabel: string | null;
  /** A money-out and a money-in column of magnitudes, named by the user (absent: found by common names). */
  outflowColLabel?: string | null;
  inflowColLabel?: string | null;
  currencyColLabel: string | null;
  exchangeOperatingMicColLabel: string | null;
  dateFormat: string | null;
  numberFormat: string;
  signageConvention: string;
  amountTypeStrategy: string;
  amountTypeInflowValue: string | null;
  /** 1-based line of the file that holds the header; null or absent: detected (headerLine). */
  headerRow?: number | null;
  /** false: the file has no header line, and columns are named by number ("1", "2", ...). Absent: true. */
  hasHeader?: boolean;
}

export interface ParseOptions {
  /** More data rows than this and the file is refused before any row is built. */
  maxRows: number;
  defaultCurrency: string;
  hasAccount: boolean;
  /** The family's current date, as the UTC midnight of that day: rows may be dated up to it. */
  today: Date;
  /** Row numbers left out of the import (its skip_rows): not built, so neither stored, checked nor published. */
  skipRows?: ReadonlySet<number>;
}

/** One data row: its 1-based number in the file, its typed values and its validation errors. */
export interface ParsedRow {
  sourceRowNumber: number;
  values: Record<string, unknown>;
  errors: string[];
}

export interface ParsedImport {
  rows: ParsedRow[];
  fileErrors: string[];
  errorCode?: string;
  /** As in ReadImport: the content's rows, skipped ones included, when some may be left out of `rows`. */
  sourceRows?: number;
  /** What a bank statement file (OFX, CAMT.053, MT940) states besides its rows: one entry per statement, in file order. */
  statements?: StatementFacts[];
  /** As in ReadImport. */
  dateFormat?: string;
  ambiguousDates?: AmbiguousDates;
}

/** Where each kind of row with a date finds it after date_col_label: the column its date_format is told from. */
const DATE_ALIASES: Partial<Record<CsvRowKind, string[]>> & Record<'transaction' | 'trade' | 'account', string[]> = {
  transaction: ['date'],
  trade: ['date'],
  account: ['date', 'balance_date'],
};

let lastRange: { today: Date; earliest: string; latest: string } | null = null;
/** Rows may be dated from 30 years ago up to today; computed once per parse, not per row. */
function dateRange(today: Date): { earliest: string; latest: string } {
  if (lastRange?.today !== today) lastRange = { today, earliest: yearsBefore(isoToday(today), 30), latest: isoToday(today) };
  return lastRange;
}
const isoToday = (today: Date) => today.toISOString().slice(0, 10);

interface Table {
  headers: string[];
  records: string[][];
  /** Normalised header names that more than one column has: an error only if the import reads one of them. */
  repeated: Set<string>;
}

/** Excel's separator line (`sep=;`, `sep=,`), which some exports write above the header for Excel to open them. */
const EXCEL_SEPARATOR_LINE = /^"?sep=[^\n"]?"?[ \t]*(?:\n|$)/i;

/** How the header is found: the line the user named, the first line that fits, or no header at all. */
interface HeaderLayout {
  headerRow: number | null;
  hasHeader: boolean;
  /** Column names one of which each required column must have (its dialect's requiredColumns): what makes a line the header. */
  required: Array<Array<string | null>>;
}

/** A headerless file's column by its number: `4` is `Column 4`, as messages name it. */
const numberedColumn = (label: string) => (/^\d+$/.test(label.trim()) ? `Column ${Number(label)}` : label);

/** The settings with each column label that is a number read as that column of a headerless file. */
function labelsByNumber(imp: CsvImportSettings): CsvImportSettings {
  const labels = Object.entries(imp).filter(([key, value]) => key.endsWith('ColLabel') && typeof value === 'string');
  return { ...imp, ...Object.fromEntries(labels.map(([key, value]) => [key, numberedColumn(value as string)])) };
}

/** Title and summary lines above a header (account name, balance) are few: a header further down is not looked for. */
const MAX_TITLE_LINES = 20;

/**
 * Which of the file's filled records is the header, when the import does not say (header_row). The first record,
 * unless it lacks the required column names and a later one (within MAX_TITLE_LINES) has them all; failing that,
 * the first record with as many cells as most records have, when every record above it has at most two filled cells
 * (a label and its value). A file whose first record has the names is read as it always was.
 */
export function headerLine(records: string[][], required: Array<Array<string | null>>): number {
  const hasNames = (record: string[]) => {
    const present = new Set(record.map(normalizeHeader));
    return required.every((names) => names.some((n) => n !== null && present.has(normalizeHeader(n))));
  };
  const candidates = records.slice(0, MAX_TITLE_LINES + 1);
  if (!candidates.length || hasNames(candidates[0])) return 0;
  const named = candidates.findIndex(hasNames);
  if (named > 0) return named;
  const counts = new Map<number, number>();
  for (const record of records) counts.set(record.length, (counts.get(record.length) ?? 0) + 1);
  const usual = [...counts.entries()].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
  const filledCells = (record: string[]) => record.filter((cell) => cell.trim() !== '').length;
  const shaped = candidates.findIndex((record) => record.length === usual);
  return shaped > 0 && candidates.slice(0, shaped).every((record) => filledCells(record) <= 2) ? shaped : 0;
}

function readTable(text: string, colSep: string, layout: HeaderLayout): Table | { error: string } {
  // Papa picks one newline style per file; exports that mix \r\n, \n and \r are normalised first. A first line
  // `sep=;` is Excel's note of the separator, not the header: left out (col_sep still decides how the rest is read).
  let body = text.replace(/\r\n?/g, '\n');
  if (layout.headerRow) {
    // header_row counts the file's own lines, blank ones too: the lines above it are titles, left out unread.
    const lines = body.split('\n');
    if (layout.headerRow > lines.length) return { error: `header_row is ${layout.headerRow}, but the file has ${lines.length} lines` };
    body = lines.slice(layout.headerRow - 1).join('\n');
  }
  body = body.trim().replace(EXCEL_SEPARATOR_LINE, '');
  const parsed = Papa.parse<string[]>(body, { delimiter: colSep, newline: '\n' });
  // Blank lines are skipped here rather than by Papa, whose error rows count them.
  const filled = (record: string[]) => record.some((cell) => cell.trim() !== '');
  // A stray quote inside a quoted field (`"Bob "Best" Diner"`) is read literally, as Sure's liberal parser does,
  // unless the field then runs on over a line break: that would swallow the rows after it.
  const fatal = parsed.errors.find(
    (e) => e.type === 'Quotes' && (e.code !== 'InvalidQuotes' || (parsed.data[e.row ?? 0] ?? []).some((cell) => cell.includes('\n'))),
  );
  const firstRecord = layout.hasHeader ? 1 : 0;
  if (fatal) {
    const row = parsed.data.slice(firstRecord, (fatal.row ?? 0) + 1).filter(filled).length;
    if (!layout.hasHeader) return { error: `The CSV could not be parsed: unbalanced quotes near row ${Math.max(row, 1)}` };
    return { error: row ? `The CSV could not be parsed: unbalanced quotes near row ${row}` : 'The CSV could not be parsed: unbalanced quotes in the header' };
  }
  const all = parsed.data.filter(filled);
  if (!layout.hasHeader) {
    // Without a header line, columns are named by their number (`Column 1`), which the *_col_label fields then name.
    const width = all.reduce((most, record) => Math.max(most, record.length), 0);
    if (!width) return { error: 'The CSV has no rows' };
    return { headers: Array.from({ length: width }, (_, i) => numberedColumn(String(i + 1))), records: all, repeated: new Set() };
  }
  const [headers, ...records] = layout.headerRow ? all : all.slice(headerLine(all, layout.required));
  if (!headers || headers.every((h) => !h.trim())) return { error: 'The CSV has no header row' };
  const normalized = headers.map(normalizeHeader);
  const repeated = new Set(normalized.filter((h, i) => h && normalized.indexOf(h) !== i));
  return { headers, records, repeated };
}

/**
 * Why a column name the import reads cannot be read (several columns have it), with how to pick one: a header's
 * name is all a configuration can point at, so one of them must be renamed.
 */
const repeatedColumnError = (table: Table, name: string): string => {
  const columns = table.headers.flatMap((h, i) => (normalizeHeader(h) === name ? [i + 1] : []));
  return (
    `The CSV has two columns named '${name}' (columns ${columns.join(' and ')}), and the import reads that column: ` +
    `rename the one to read (its header) and set the matching *_col_label to the new name, or rename the other`
  );
};

/**
 * A header read as one column that holds the other separator is a file sent with the wrong col_sep (a European
 * bank's semicolons without `col_sep: semicolon`); naming that beats naming every required column as missing.
 */
function separatorHint(headers: string[], colSep: string): string {
  const [other, name] = colSep === ';' ? [',', 'comma'] : [';', 'semicolon'];
  if (headers.length !== 1 || !headers[0].includes(other)) return '';
  return ` (its header is one column, '${shownValue(headers[0])}': set col_sep to ${name})`;
}

/** Column positions for one (label, aliases) lookup, found once per parse by walking label then aliases. */
interface PositionNode {
  next: Map<string | null, PositionNode>;
  positions?: number[];
  /** A name of the lookup that several columns have, which it cannot read. */
  repeated?: string;
}

/**
 * Reads a cell by configured label, else by the first alias present; both compared after normalisation. A name that
 * several columns have reads as blank and is kept in `ambiguous` (and `touched`, until the caller clears it): which of
 * them was meant cannot be told.
 */
function cellReader(table: Table) {
  const index = new Map(table.headers.map((h, i) => [normalizeHeader(h), i]));
  const ambiguous = new Set<string>();
  const touched = new Set<string>();
  // The same few lookups repeat on every row: resolved once each, and found again without building a key string.
  const root: PositionNode = { next: new Map() };
  const child = (node: PositionNode, name: string | null) => {
    let found = node.next.get(name);
    if (!found) node.next.set(name, (found = { next: new Map() }));
    return found;
  };
  const positionsOf = (label: string | null, aliases: string[]) => {
    let node = child(root, label);
    for (const alias of aliases) node = child(node, alias);
    if (!node.positions) {
      const names = (label ? [label, ...aliases] : aliases).map(normalizeHeader);
      node.repeated = names.find((name) => table.repeated.has(name));
      node.positions = names
        .filter((name) => !table.repeated.has(name))
        .map((name) => index.get(name))
        .filter((i): i is number => i !== undefined);
    }
    if (node.repeated) [ambiguous, touched].forEach((names) => names.add(node.repeated!));
    return node.positions;
  };
  const read = (record: string[], label: string | null, aliases: string[] = []): string => {
    for (const i of positionsOf(label, aliases)) {
      const value = record[i]?.trim();
      if (value) return value;
    }
    return '';
  };
  return { read, ambiguous, touched };
}

function hasColumn(table: Table, label: string | null, aliases: string[]): string | null {
  const present = new Set(table.headers.map(normalizeHeader));
  return [label, ...aliases].filter((n): n is string => Boolean(n)).find((n) => present.has(normalizeHeader(n))) ?? null;
}

/** Adds a row error when `value` is longer than its column in the database holds (MAX_CHARS). */
function checkLength(value: string, max: number, column: string, what: string, errors: string[], row: number): void {
  const problem = lengthError(column, value, max, what);
  if (problem) errors.push(`Row ${row}: ${problem}`);
}

type RowBuilder = (cell: (label: string | null, aliases?: string[]) => string, errors: string[], row: number) => Record<string, unknown>;

function transactionRow(imp: CsvImportSettings, opts: ParseOptions, headers: string[], dialect: CsvDialect): RowBuilder {
  const outflowInflow = dialect.moneyColumns === 'outflow_inflow';
  const sides = outflowInflow ? OUTFLOW_INFLOW : bankMoneySides(imp, headers, dialect);
  // Money out and money in are magnitudes whose columns say the direction, as a type column does under custom_column.
  const signage = sides && !outflowInflow ? { ...imp, signageConvention: 'inflows_positive', amountTypeStrategy: 'signed_amount' } : imp;
  return (cell, errors, row) => {
    const rawDate = cell(imp.dateColLabel, DATE_ALIASES.transaction);
    const date = checkedDate(rawDate, imp.dateFormat ?? '%Y-%m-%d', opts.today, errors, row, imp.dateColLabel ?? 'date');
    const amount = fileAmount(imp, dialect, cell, errors, row, sides);
    const currency = rowCurrency(imp.currencyColLabel ? cell(imp.currencyColLabel, ['currency']) : '', opts, errors, row);
    checkMinorUnit(amount, currency, imp.amountColLabel ?? 'amount', errors, row);
    // Actual marks split rows in their notes; the marker says where the row stands, and is not kept in the notes.
    const rawNotes = cell(imp.notesColLabel, ['notes', 'memo']);
    const { marker, notes } = dialect.actualSplits ? actualSplitMarker(rawNotes) : { marker: null, notes: rawNotes || null };
    const values: Record<string, unknown> = {
      date,
      // A split's parent row has Amount 0 and the transaction's total in Split_Amount.
      amount: marker && 'into' in marker ? splitTotal(imp, dialect, cell, currency, errors, row) : signedAmount(signage, dialect, amount, cell),
      currency,
      name: transactionName(imp, dialect, cell, notes, errors, row),
      category: categoryText(imp, dialect, cell) || null,
      tags: splitTags(cell(imp.tagsColLabel, ['tags'])),
      notes,
      account: cell(imp.accountColLabel, ['account', 'account_name']) || null,
    };
    keepUnreadDate(values, rawDate);
    if (marker) values[SPLIT_MARKER] = marker;
    // YNAB names a transfer's payee after the other account: money moved, which budgets leave out.
    if (dialect.transferPayees) values.transfer_account = /^Transfer : (.+)$/.exec(values.name as string)?.[1].trim() ?? null;
    if (!opts.hasAccount && !values.account) errors.push(`Row ${row}: account is required (no account_id was given and the row names no account)`);
    return values;
  };
}

/** The row's name; YNAB and Actual rows without a payee (reconciliations, starting balances) take their memo. */
function transactionName(imp: CsvImportSettings, dialect: CsvDialect, cell: (label: string | null, aliases?: string[]) => string, notes: string | null, errors: string[], row: number): string {
  const name = cell(imp.nameColLabel, ['name', 'description', 'payee']);
  const memo = !name && dialect.memoNamesPayeeless ? notes ?? '' : '';
  if (name) checkLength(name, MAX_CHARS.entryName, imp.nameColLabel ?? 'name', 'transaction names', errors, row);
  if (memo) checkLength(memo, MAX_CHARS.entryName, imp.notesColLabel ?? 'notes', 'transaction names', errors, row);
  return name || memo || 'Imported item';
}

/** An Actual split's total (Split_Amount), signed as its Amount would be. */
function splitTotal(imp: CsvImportSettings, dialect: CsvDialect, cell: (label: string | null, aliases?: string[]) => string, currency: string | null, errors: string[], row: number): string | null {
  const total = requiredNumber(cell('Split_Amount'), 'Split_Amount', amountFormat(imp, dialect), errors, row);
  checkMinorUnit(total, currency, 'Split_Amount', errors, row);
  return signedAmount(imp, dialect, total, cell);
}

/** Mint and Actual exports always write 1,234.56; the other layouts are read with the import's number_format. */
const amountFormat = (imp: CsvImportSettings, dialect: CsvDialect) => (dialect.numberFormat ?? imp.numberFormat) as NumberFormat;

/** The headers of a file's money-out and money-in columns, when it writes an amount as two magnitudes (either may be absent). */
interface MoneySides {
  out: string | null;
  into: string | null;
}
const OUTFLOW_INFLOW: MoneySides = { out: 'Outflow', into: 'Inflow' };

/**
 * A bank export's money columns when it has no amount column (none configured, none named amount) but a debit or a
 * credit column: many banks and card issuers write `Debit,Credit` (or `Withdrawal,Deposit`) instead of a signed amount.
 */
function bankMoneySides(imp: CsvImportSettings, headers: string[], dialect: CsvDialect): MoneySides | null {
  if (dialect.moneyColumns !== 'detected_debit_credit' || imp.amountColLabel) return null;
  const named = (names: string[]) => headers.find((h) => names.includes(normalizeHeader(h)))?.trim() ?? null;
  if (imp.outflowColLabel || imp.inflowColLabel) {
    const configured = (label: string | null | undefined) => (label ? named([normalizeHeader(label)]) : null);
    return { out: configured(imp.outflowColLabel), into: configured(imp.inflowColLabel) };
  }
  if (named(['amount'])) return null;
  const sides = { out: named(DEBIT_NAMES), into: named(CREDIT_NAMES) };
  return sides.out || sides.into ? sides : null;
}

/**
 * The row's amount signed as the file signs it (inflows positive for two columns); YNAB splits it into Outflow and
 * Inflow magnitudes, bank exports into Debit and Credit.
 */
function fileAmount(imp: CsvImportSettings, dialect: CsvDialect, cell: (label: string | null, aliases?: string[]) => string, errors: string[], row: number, sides: MoneySides | null): string | null {
  const format = amountFormat(imp, dialect);
  const outflowInflow = dialect.moneyColumns === 'outflow_inflow';
  const amount = sides && !outflowInflow ? '' : cell(imp.amountColLabel, ['amount']);
  if (!sides || amount) return requiredNumber(amount, imp.amountColLabel ?? 'amount', format, errors, row);
  const outflow = sides.out ? cell(sides.out) : '';
  const inflow = sides.into ? cell(sides.into) : '';
  if (!outflow && !inflow) {
    const columns = outflowInflow ? 'Amount or Outflow/Inflow' : [sides.out, sides.into].filter(Boolean).join(' or ');
    errors.push(`Row ${row}: ${columns} is required`);
    return null;
  }
  // A blank side counts as 0.
  const out = outflow ? requiredNumber(outflow, sides.out!, format, errors, row) : '0';
  const into = inflow ? requiredNumber(inflow, sides.into!, format, errors, row) : '0';
  if (out === null || into === null) return null;
  // A bank may print its debits with a minus in their own column: each side is a magnitude.
  return sumOf([outflowInflow ? into : into.replace(/^-/, ''), negateDecimal(out.replace(/^-/, ''))]);
}

function categoryText(imp: CsvImportSettings, dialect: CsvDialect, cell: (label: string | null, aliases?: string[]) => string): string {
  if (dialect.categoryGroups === 'ynab') {
    // YNAB's layout (group and leaf), then YNAB4's, whose Category column already joins Master and Sub.
    const combined = cell('Category Group/Category');
    if (combined) return combined;
    const group = cell('Category Group');
    if (group) return joinedCategory(group, cell('Category'));
    const master = cell('Master Category');
    const sub = cell('Sub Category');
    return master || sub ? joinedCategory(master, sub) : cell('Category');
  }
  if (dialect.categoryGroups === 'actual') {
    return joinedCategory(cell('Category_Group'), cell(imp.categoryColLabel, ['category']));
  }
  return cell(imp.categoryColLabel, ['category']);
}

/** "Group: Category", which the mapping step files as a child under its parent; either part alone when the other is blank. */
const joinedCategory = (group: string, leaf: string) => (group && leaf ? `${group}: ${leaf}` : group || leaf);


/** Where custom_column finds the column whose value marks an inflow, after entity_type_col_label. */
const MARKER_ALIASES = ['entity_type', 'type'];
/** The file's sign convention -> ours (positive = outflow), including a debit/credit type column. */
function signedAmount(imp: CsvImportSettings, dialect: CsvDialect, value: string | null, cell: (l: string | null, a?: string[]) => string): string | null {
  if (value === null) return null;
  const inflowsPositive = imp.signageConvention !== 'inflows_negative';
  if (dialect.creditColumn) {
    // Mint amounts are magnitudes; the Transaction Type column says debit (out) or credit (in).
    const credit = cell(dialect.creditColumn).toLowerCase() === 'credit';
    return credit ? negateDecimal(value.replace(/^-/, '')) : value.replace(/^-/, '');
  }
  if (imp.amountTypeStrategy === 'custom_column') {
    const marker = cell(imp.entityTypeColLabel, MARKER_ALIASES);
    // Cells are read trimmed, so the configured value is too (the API requires it non-blank once trimmed).
    const isInflow = marker === imp.amountTypeInflowValue?.trim();
    const magnitude = value.replace(/^-/, '');
    return isInflow ? negateDecimal(magnitude) : magnitude;
  }
  return inflowsPositive ? negateDecimal(value) : value;
}

/**
 * A date cell that gave the row no date stays with it as `raw_date`, as the file wrote it, to be shown with the row's
 * error; a row with a date has none.
 */
function keepUnreadDate(values: Record<string, unknown>, raw: string): void {
  if (values.date === null && raw) values.raw_date = raw;
}

function checkedDate(raw: string, format: string, today: Date, errors: string[], row: number, column: string): string | null {
  if (!raw) {
    errors.push(`Row ${row}: ${column} is required`);
    return null;
  }
  const iso = parseDate(raw, format);
  if (!iso) {
    errors.push(`Row ${row}: ${column} '${raw}' does not match the date format ${format}`);
    return null;
  }
  const outside = outsideDateRange(iso, today);
  if (outside) {
    errors.push(`Row ${row}: ${column} ${outside}`);
    return null;
  }
  return iso;
}

/** `<iso> must be between <30 years ago> and <today>` when a row may not be dated so (any import format), else null. */
export function outsideDateRange(iso: string, today: Date): string | null {
  const { earliest, latest } = dateRange(today);
  return iso < earliest || iso > latest ? `${iso} must be between ${earliest} and ${latest}` : null;
}

/**
 * A row's own currency, else the import account's; null when the row names its account, decided at publish (a Mint
 * export has no Currency column: its rows take the currency of the account they name, not the family's).
 */
const rowCurrency = (raw: string, opts: ParseOptions, errors: string[], row: number): string | null =>
  raw || opts.hasAccount ? checkedCurrency(raw, opts.defaultCurrency, errors, row) : null;

function checkedCurrency(raw: string, fallback: string, errors: string[], row: number): string {
  const code = (raw || fallback).toUpperCase();
  if (!isCurrencyCode(code)) errors.push(`Row ${row}: currency '${raw}' is not a valid currency code`);
  return code;
}

/**
 * `Row N: ...` when an amount has more decimals than its currency stores (1.234 in USD): minor units would round it,
 * and such a number is often one read with the wrong number_format (1.234 meaning 1234). Null when it fits.
 */
export function amountPrecisionError(amount: string, currency: string, column: string, row: number): string | null {
  const problem = minorUnitError(column, amount, currency);
  return problem && `Row ${row}: ${problem} (check number_format and the currency)`;
}

/**
 * amountPrecisionError for a row whose currency is known when the file is read. A row that takes the currency of
 * the account it names is checked once its account is mapped (the API's accountCurrencyErrors).
 */
function checkMinorUnit(amount: string | null, currency: string | null, column: string, errors: string[], row: number): void {
  if (amount === null || currency === null || !isCurrencyCode(currency)) return;
  const problem = amountPrecisionError(amount, currency, column, row);
  if (problem) errors.push(problem);
}

function requiredNumber(cellValue: string, column: string, format: NumberFormat, errors: string[], row: number, limits?: Digits): string | null {
  if (!cellValue) {
    errors.push(`Row ${row}: ${column} is required`);
    return null;
  }
  const value = parseNumber(cellValue, format, limits);
  if (value === null) errors.push(`Row ${row}: ${column} '${cellValue}' is not a number in the format ${format}`);
  return value;
}


function tradeRow(imp: CsvImportSettings, opts: ParseOptions): RowBuilder {
  const format = imp.numberFormat as NumberFormat;
  return (cell, errors, row) => {
    const ticker = cell(imp.tickerColLabel, ['ticker', 'symbol']).toUpperCase();
    if (!ticker) errors.push(`Row ${row}: ticker is required`);
    else if (!/^[A-Z0-9.\-^=:]{1,30}$/.test(ticker)) errors.push(`Row ${row}: ticker '${ticker}' is not a valid symbol`);
    const mic = cell(imp.exchangeOperatingMicColLabel, ['exchange_operating_mic', 'mic']).toUpperCase();
    if (mic && !/^[A-Z0-9]{4}$/.test(mic)) errors.push(`Row ${row}: exchange_operating_mic '${mic}' must be a 4-character MIC`);
    const rawDate = cell(imp.dateColLabel, DATE_ALIASES.trade);
    const values = {
      date: checkedDate(rawDate, imp.dateFormat ?? '%Y-%m-%d', opts.today, errors, row, imp.dateColLabel ?? 'date'),
      ticker,
      exchange_operating_mic: mic || null,
      qty: requiredNumber(cell(imp.qtyColLabel, ['qty', 'quantity', 'shares']), imp.qtyColLabel ?? 'qty', format, errors, row),
      price: requiredNumber(cell(imp.priceColLabel, ['price']), imp.priceColLabel ?? 'price', format, errors, row, PRICE_DIGITS),
      currency: rowCurrency(cell(imp.currencyColLabel, ['currency']), opts, errors, row),
      name: cell(imp.nameColLabel, ['name']) || null,
      account: cell(imp.accountColLabel, ['account', 'account_name']) || null,
    };
    // The qty's sign says buy or sell; a price is per unit and never below 0. Zero is a trade: shares granted or moved in at no cost.
    if (values.price?.startsWith('-')) errors.push(`Row ${row}: ${negativeError(imp.priceColLabel ?? 'price', cell(imp.priceColLabel, ['price']))}`);
    if (values.name) checkLength(values.name, MAX_CHARS.entryName, imp.nameColLabel ?? 'name', 'trade names', errors, row);
    // The trade's amount is qty x price: it must fit an amount as much as a cash row's does.
    const tooLarge = values.qty && values.price && tradeSizeError(values.qty, values.price);
    if (tooLarge) errors.push(`Row ${row}: ${tooLarge}`);
    if (!opts.hasAccount && !values.account) errors.push(`Row ${row}: account is required (no account_id was given and the row names no account)`);
    keepUnreadDate(values, rawDate);
    return values;
  };
}

function accountRow(imp: CsvImportSettings, opts: ParseOptions): RowBuilder {
  return (cell, errors, row) => {
    const name = cell(imp.nameColLabel, ['name', 'account_name']);
    if (!name) errors.push(`Row ${row}: name is required`);
    checkLength(name, MAX_CHARS.name, imp.nameColLabel ?? 'name', 'account names', errors, row);
    const rawDate = cell(imp.dateColLabel, DATE_ALIASES.account);
    const balance = requiredNumber(cell(imp.amountColLabel, ['amount', 'balance']), imp.amountColLabel ?? 'balance', imp.numberFormat as NumberFormat, errors, row);
    const currency = checkedCurrency(cell(imp.currencyColLabel, ['currency']), opts.defaultCurrency, errors, row);
    checkMinorUnit(balance, currency, imp.amountColLabel ?? 'balance', errors, row);
    const values = {
      entity_type: cell(imp.entityTypeColLabel, ['entity_type', 'account_type', 'type']) || null,
      name: name || null,
      amount: balance,
      currency,
      date: rawDate ? checkedDate(rawDate, imp.dateFormat ?? '%Y-%m-%d', opts.today, errors, row, 'balance date') : null,
    };
    keepUnreadDate(values, rawDate);
    return values;
  };
}

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

function colorOf(raw: string, errors: string[], row: number): string | null {
  if (raw && !HEX_COLOR.test(raw)) errors.push(`Row ${row}: color '${raw}' must look like #1a2b3c`);
  return raw && HEX_COLOR.test(raw) ? raw.toLowerCase() : null;
}

const categoryRow: RowBuilder = (cell, errors, row) => {
  const name = cell(null, ['name']);
  if (!name) errors.push(`Row ${row}: name is required`);
  const parent = cell(null, ['parent_category', 'parent']);
  const icon = cell(null, ['lucide_icon', 'icon']);
  checkLength(name, MAX_CHARS.name, 'name', 'category names', errors, row);
  checkLength(parent, MAX_CHARS.name, 'parent_category', 'category names', errors, row);
  checkLength(icon, MAX_CHARS.icon, 'lucide_icon', 'icon names', errors, row);
  return {
    name: name || null,
    color: colorOf(cell(null, ['color']), errors, row),
    parent: parent || null,
    icon: icon || null,
  };
};

const merchantRow: RowBuilder = (cell, errors, row) => {
  const name = cell(null, ['name']);
  if (!name) errors.push(`Row ${row}: name is required`);
  checkLength(name, MAX_CHARS.name, 'name', 'merchant names', errors, row);
  const website = cell(null, ['website_url', 'website']);
  if (website && !/^https?:\/\/[^\s]+$/i.test(website) && !/^[a-z0-9.-]+\.[a-z]{2,}$/i.test(website)) errors.push(`Row ${row}: website_url '${website}' is not a web address`);
  else checkLength(website, MAX_CHARS.url, 'website_url', 'web addresses', errors, row);
  return { name: name || null, color: colorOf(cell(null, ['color']), errors, row), website_url: website || null };
};

const isObject = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x);

function jsonList(raw: string, column: string, errors: string[], row: number): unknown[] | null {
  if (!raw) {
    errors.push(`Row ${row}: ${column} is required`);
    return null;
  }
  // Refused before JSON.parse, as in NDJSON: the operand checks and the publisher recurse into sub_conditions.
  if (nestingDepth(raw, MAX_NESTING) > MAX_NESTING) {
    errors.push(`Row ${row}: ${column} nests objects or arrays deeper than ${MAX_NESTING} levels`);
    return null;
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    if (Array.isArray(parsed) && parsed.every(isObject)) return parsed;
  } catch {
    // reported below
  }
  errors.push(`Row ${row}: ${column} must be a JSON array of objects`);
  return null;
}

const OPERAND_NAMES = { categories: 'category names', merchants: 'merchant names', tags: 'tag names' } as const;

/**
 * Category, merchant and tag names in rule operands (sub-conditions too) become records: each must fit a name.
 * Sub-conditions must be a list of objects, as the top level is, for the publisher to walk them.
 */
function checkOperands(operands: unknown[] | null, column: string, errors: string[], row: number): void {
  for (const op of (operands ?? []) as Array<Record<string, unknown>>) {
    const table = ruleOperandTable(op);
    if (table && typeof op.value === 'string') checkLength(op.value.trim(), MAX_CHARS.name, `${column} value`, OPERAND_NAMES[table], errors, row);
    if (op.sub_conditions === undefined || op.sub_conditions === null) continue;
    if (!Array.isArray(op.sub_conditions) || !op.sub_conditions.every(isObject)) errors.push(`Row ${row}: ${column} sub_conditions must be a JSON array of objects`);
    else checkOperands(op.sub_conditions, column, errors, row);
  }
}

const ruleRow: RowBuilder = (cell, errors, row) => {
  const resourceType = cell(null, ['resource_type']) || 'transaction';
  if (resourceType !== 'transaction') errors.push(`Row ${row}: resource_type '${resourceType}' is not supported (only transaction)`);
  const actions = jsonList(cell(null, ['actions']), 'actions', errors, row);
  if (actions && !actions.length) errors.push(`Row ${row}: a rule needs at least one action`);
  const effective = cell(null, ['effective_date']);
  const effectiveDate = effective ? parseDate(effective, '%Y-%m-%d') : null;
  if (effective && !effectiveDate) errors.push(`Row ${row}: effective_date '${effective}' must be YYYY-MM-DD`);
  const name = cell(null, ['name']);
  checkLength(name, MAX_CHARS.name, 'name', 'rule names', errors, row);
  const conditions = jsonList(cell(null, ['conditions']), 'conditions', errors, row);
  checkOperands(conditions, 'conditions', errors, row);
  checkOperands(actions, 'actions', errors, row);
  return {
    name: name || null,
    resource_type: resourceType,
    active: /^(true|1|yes|y)$/i.test(cell(null, ['active'])),
    effective_date: effectiveDate,
    conditions,
    actions,
  };
};

/** How each kind of row is built from a record's cells. */
const BUILDERS: Record<CsvRowKind, (imp: CsvImportSettings, opts: ParseOptions, headers: string[], dialect: CsvDialect) => RowBuilder> = {
  transaction: transactionRow,
  trade: tradeRow,
  account: accountRow,
  category: () => categoryRow,
  merchant: () => merchantRow,
  rule: () => ruleRow,
};

/**
 * Whether a record's cells do not line up with the header: a row with more cells than the header has is shifted
 * (a stray separator splits a field) unless the cells past the header are empty, and one with fewer lacks columns
 * unless each it lacks is unnamed or empty throughout the file (up to lastFilledColumn). Exports that end every data
 * line with a separator (or only the header line), or stop a line after its last filled cell, shift nothing.
 */
function misaligned(record: string[], headers: string[], lastFilledColumn: number): boolean {
  if (record.length > headers.length) return record.slice(headers.length).some((cell) => cell.trim() !== '');
  return record.length <= lastFilledColumn;
}

/**
 * The last column a short row can lack without losing a value: past it every column is unnamed or empty in every
 * row of the file (a statement that stops each line after its last filled cell), so its missing cells would be
 * empty too. -1 when no named column is filled.
 */
function lastFilledColumn({ headers, records }: Table): number {
  for (let column = headers.length - 1; column >= 0; column--) {
    if (headers[column].trim() && records.some((record) => (record[column] ?? '').trim() !== '')) return column;
  }
  return -1;
}

/** The date formats that fit every date of a file, reading some as different days (ambiguous_date_format). */
export interface AmbiguousDates {
  formats: string[];
  /** The first date the formats read differently, to show each reading. */
  sample: string;
}

/** Content read as a whole, whose rows are built one by one as they are taken (once). */
export interface ReadImport {
  rows: Iterable<ParsedRow>;
  fileErrors: string[];
  errorCode?: string;
  /** How many rows the content has, skipped ones included (they are numbered 1 to this); absent: rows is every row. */
  sourceRows?: number;
  /** As in ParsedImport: what a bank statement file states besides its rows. */
  statements?: StatementFacts[];
  /** The date format told from the file's dates, when the import has none: the rows are read with it, and it is kept. */
  dateFormat?: string;
  /** With errorCode ambiguous_date_format: the formats to choose from. */
  ambiguousDates?: AmbiguousDates;
}

/**
 * Reads stored import content and checks it as a whole (configuration, table, size, required columns); the rows,
 * with their validation errors, are built as the caller takes them, so storing some can overlap building the next.
 */
export function readImportContent(imp: CsvImportSettings, text: string, opts: ParseOptions): ReadImport {
  const dialect = csvDialectOf(imp.type);
  if (!dialect) return { rows: [], fileErrors: [`${imp.type} content is not CSV`], errorCode: 'unsupported_import_type' };
  // A configuration error like those of the request's other fields, named before the file is read.
  const formatError = imp.dateFormat != null && dateFormatError(imp.dateFormat);
  if (formatError) return { rows: [], fileErrors: [formatError], errorCode: 'validation_failed' };
  if (imp.hasHeader === false && imp.headerRow) {
    return { rows: [], fileErrors: ['header_row cannot be given when has_header is false (the file has no header line)'], errorCode: 'validation_failed' };
  }
  if (imp.hasHeader === false) imp = labelsByNumber(imp);
  // Without its marker column, custom_column would read every row as an outflow.
  const marker: RequiredColumn[] = imp.amountTypeStrategy === 'custom_column' && dialect.signedByMarker ? [[imp.entityTypeColLabel, MARKER_ALIASES]] : [];
  const requiredColumns = [...dialect.requiredColumns(imp), ...marker];
  const layout = { headerRow: imp.headerRow ?? null, hasHeader: imp.hasHeader !== false, required: requiredColumns.map(([label, aliases]) => [label, ...aliases]) };
  const table = readTable(text, imp.colSep, layout);
  if ('error' in table) return { rows: [], fileErrors: [table.error], errorCode: 'invalid_csv' };
  if (table.records.length > opts.maxRows) {
    const message = `The file has ${table.records.length} rows; at most ${opts.maxRows} can be stored for one import`;
    return { rows: [], fileErrors: [message], errorCode: 'too_many_rows' };
  }
  const missing = requiredColumns
    .filter(([label, aliases]) => !hasColumn(table, label, aliases))
    .map(([label, aliases, name]) => label ?? name ?? aliases.join(' or '));
  if (missing.length) {
    const headerless = headerlessReading(imp, table, requiredColumns);
    if (headerless) return readImportContent(headerless.imp, text, { ...opts, skipRows: new Set([...(opts.skipRows ?? []), ...headerless.remarks]) });
    const message = `The CSV is missing required columns: ${missing.join(', ')}${separatorHint(table.headers, imp.colSep)}`;
    return { rows: [], fileErrors: [message], errorCode: 'invalid_csv' };
  }
  if (!table.records.length) return { rows: [], fileErrors: ['The CSV has a header but no rows'], errorCode: 'invalid_csv' };
  const { records, headers } = table;
  const repeatedError = (name: string) => repeatedColumnError(table, name);
  const { read, ambiguous, touched } = cellReader(table);
  const skipped = opts.skipRows ?? new Set<number>();
  const detection = imp.dateFormat == null ? detectedDateFormat(imp, dialect.rows, records, skipped, read) : null;
  if (detection && 'ambiguous' in detection) {
    const ambiguousDates = { formats: detection.ambiguous, sample: detection.sample };
    return { rows: [], fileErrors: [ambiguousDateFormatMessage(detection.ambiguous)], errorCode: 'ambiguous_date_format', ambiguousDates };
  }
  const dateFormat = detection && 'format' in detection ? detection.format : undefined;
  if (dateFormat) imp = { ...imp, dateFormat };
  const build = BUILDERS[dialect.rows](imp, opts, headers, dialect);
  // A blank row reads every column a row can fall back on: a repeated name among them refuses the file up front.
  build((label, aliases = []) => read([], label, aliases), [], 0);
  const [unreadable] = ambiguous;
  if (unreadable) return { rows: [], fileErrors: [repeatedError(unreadable)], errorCode: 'invalid_csv' };
  const filledUpTo = lastFilledColumn(table);
  const widthOf = imp.hasHeader === false ? 'the widest row' : 'the header';
  function* fileRows(): Generator<ParsedRow> {
    for (const [i, record] of records.entries()) {
      const errors: string[] = [];
      const rowNumber = i + 1;
      if (skipped.has(rowNumber)) continue;
      if (misaligned(record, headers, filledUpTo)) errors.push(`Row ${rowNumber}: has ${record.length} columns, ${widthOf} has ${headers.length}`);
      touched.clear();
      const values = build((label, aliases = []) => read(record, label, aliases), errors, rowNumber);
      // A column only some rows read (an Actual split's Split_Amount) is found repeated only on those rows.
      for (const name of touched) errors.push(`Row ${rowNumber}: ${repeatedError(name)}`);
      yield { sourceRowNumber: rowNumber, values, errors };
    }
  }
  // Skipped rows are left out before splits are grouped: a split missing a part is a row error, not a smaller split.
  const rows = dialect.actualSplits ? groupActualSplits(fileRows(), skipped) : fileRows();
  return { rows, fileErrors: [], sourceRows: records.length, ...(dateFormat ? { dateFormat } : {}) };
}

/**
 * The format of the date column's filled cells in the rows that are not skipped (detectDateFormat); null for rows
 * without a date (categories, merchants, rules, whose effective_date is always ISO).
 */
function detectedDateFormat(imp: CsvImportSettings, kind: CsvRowKind, records: string[][], skipped: ReadonlySet<number>, read: (record: string[], label: string | null, aliases?: string[]) => string) {
  const aliases = DATE_ALIASES[kind];
  if (!aliases) return null;
  const values = records.flatMap((record, i) => {
    const value = skipped.has(i + 1) ? '' : read(record, imp.dateColLabel, aliases);
    return value ? [value] : [];
  });
  return detectDateFormat(values);
}

/**
 * The settings that read a file without a header line, when the import names no columns and needs only a date and an
 * amount, the first line reads as a booking, and the values tell which column is which (inferColumns); else null.
 */
function headerlessReading(imp: CsvImportSettings, table: Table, required: RequiredColumn[]): { imp: CsvImportSettings; remarks: number[] } | null {
  const onlyDateAndAmount = required.every(([label, aliases]) => label === null && (aliases.includes('date') || aliases.includes('amount')));
  if (imp.hasHeader === false || imp.headerRow || !onlyDateAndAmount) return null;
  const numberFormat = imp.numberFormat as NumberFormat;
  const records = [table.headers, ...table.records];
  // Without a date_format, the first format that finds the columns finds them; the date column's own values then
  // tell its format (readImportContent), and whether it is ambiguous.
  for (const dateFormat of imp.dateFormat != null ? [imp.dateFormat] : DETECTED_DATE_FORMATS) {
    const columns = looksLikeData(table.headers, dateFormat, numberFormat) ? inferColumns(records, dateFormat, numberFormat) : null;
    if (columns) return headerlessSettings(imp, columns, remarkLines(records, dateFormat, numberFormat));
  }
  return null;
}

/** The settings that read a headerless file's inferred columns (by number), and its remark lines to leave out. */
function headerlessSettings(imp: CsvImportSettings, columns: InferredColumns, remarks: number[]): { imp: CsvImportSettings; remarks: number[] } {
  const label = (column: number | null) => (column === null ? null : String(column + 1));
  const settings = {
    ...imp,
    hasHeader: false,
    dateColLabel: label(columns.date),
    amountColLabel: label(columns.amount),
    nameColLabel: imp.nameColLabel ?? label(columns.name),
    currencyColLabel: imp.currencyColLabel ?? label(columns.currency),
  };
  return { imp: settings, remarks };
}

/** Parses stored import content into rows with their validation errors, or file-level errors. */
export function parseImportContent(imp: CsvImportSettings, text: string, opts: ParseOptions): ParsedImport {
  const read = readImportContent(imp, text, opts);
  return { ...read, rows: [...read.rows] };
}
