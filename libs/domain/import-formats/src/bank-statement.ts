import { isCurrencyCode } from '@hearth/domain/money';
import { lengthError, MAX_CHARS, minorUnitError, shownValue, sumOf, sameNumber } from './cells';
import { outsideDateRange, type ParsedImport, type ParsedRow } from './csv-import';
import type { StatementBalance, StatementFacts } from './statement';

// What the bank statement formats (CAMT.053, MT940) share once their entries are read: one transaction row per entry
// in the QIF conventions (positive = money leaving the account), the checks every row gets, the balance check of a
// statement and the file-level refusals.

/** What every statement parser (QIF, PDF, OFX, CAMT, MT940) is told about the import it reads for. */
export interface BankStatementOptions {
  /** More rows than this and the file is refused, no row kept. */
  maxRows: number;
  /** The currency of rows whose file names none. */
  defaultCurrency: string;
  /** The family's current date, as the UTC midnight of that day: rows may be dated up to it. */
  today: Date;
}

/** One booked entry of a statement, read from the file but not yet checked. */
export interface StatementEntry {
  /** YYYY-MM-DD booking date, or null when the file gives none readable (`rawDate` then holds it). */
  date: string | null;
  rawDate?: string;
  /** Decimal string, positive = money leaving the account; null when unreadable (a problem then says why). */
  amount: string | null;
  currency: string;
  name: string;
  notes: string | null;
  externalId: string | null;
  /** Line of the file the entry starts on, for its messages: asked only when it has one. */
  line: () => number;
  /** What is wrong with the entry as read. */
  problems: string[];
}

/** References banks write where they have none: never an identifier of the transaction. */
const PLACEHOLDER_REFERENCES = /^(?:NONREF|NOTPROVIDED|NOT PROVIDED|NONE|0+)$/i;

/** A reference as an external id: null when empty or a placeholder. */
export const referenceId = (raw: string): string | null => {
  const value = raw.trim();
  return value && !PLACEHOLDER_REFERENCES.test(value) ? value : null;
};

/** The entry as a transaction row, with every problem it has: date range, currency, minor units, name length. */
export function statementRow(rowNumber: number, entry: StatementEntry, today: Date): ParsedRow {
  const problems = [...entry.problems];
  const outside = entry.date && outsideDateRange(entry.date, today);
  if (outside) problems.push(`date ${outside}`);
  if (!isCurrencyCode(entry.currency)) problems.push(`currency '${shownValue(entry.currency)}' is not a valid currency code`);
  else if (entry.amount !== null) {
    const finer = minorUnitError('amount', entry.amount, entry.currency);
    if (finer) problems.push(finer);
  }
  const tooLong = lengthError('name', entry.name, MAX_CHARS.entryName, 'transaction names');
  if (tooLong) problems.push(tooLong);
  const line = problems.length ? entry.line() : 0;
  const values: Record<string, unknown> = {
    row_kind: 'transaction',
    date: entry.date,
    amount: entry.amount,
    currency: entry.currency,
    account: null,
    name: entry.name,
    notes: entry.notes,
    external_id: entry.externalId,
    category: null,
    tags: [],
  };
  // The date as written, when it gave none, stays with its row (shown with the row's error).
  if (entry.date === null && entry.rawDate) values.raw_date = entry.rawDate;
  return { sourceRowNumber: rowNumber, errors: problems.map((p) => `Row ${rowNumber} (line ${line}): ${p}`), values };
}

/**
 * Leaves out external ids that more than one row has: a bank reference that repeats (a bank writing one reference
 * for every line, a batch's shared one) identifies no transaction, and would link different rows as duplicates.
 */
export function dropRepeatedIds(rows: ParsedRow[]): void {
  const seen = new Map<unknown, number>();
  for (const row of rows) {
    const id = row.values.external_id;
    if (id !== null) seen.set(id, (seen.get(id) ?? 0) + 1);
  }
  for (const row of rows) if (row.values.external_id !== null && seen.get(row.values.external_id)! > 1) row.values.external_id = null;
}

const shownBalance = (balance: StatementBalance, currency: string | undefined) =>
  `${balance.amount}${currency ? ` ${currency}` : ''}${balance.date ? ` on ${balance.date}` : ''}`;

/**
 * Why a statement's entries do not lead from its opening balance to its closing one, naming both figures, or null
 * when they do or a balance is not stated. `credits` are the entries as the balances count them (money in positive).
 */
export function balanceMismatch(label: string, facts: StatementFacts, credits: string[]): string | null {
  const { openingBalance: opening, closingBalance: closing } = facts;
  if (!opening || !closing) return null;
  const expected = sumOf([opening.amount, ...credits]);
  if (sameNumber(expected, closing.amount)) return null;
  const net = sumOf(['0', ...credits]);
  return `${label}: the opening balance ${shownBalance(opening, opening.currency)} and the ${credits.length} booked entries (net ${net}) come to ${expected}, but the closing balance is ${shownBalance(closing, closing.currency)}: the file is not the whole statement, or not as the bank wrote it`;
}

/** A file refused as a whole: no rows. */
export const refusedFile = (message: string, errorCode: string): ParsedImport => ({ rows: [], fileErrors: [message], errorCode });

/** The too-many-rows refusal every import type gives. */
export const tooManyRows = (count: number, maxRows: number): ParsedImport =>
  refusedFile(`The file has ${count} rows; at most ${maxRows} can be stored for one import`, 'too_many_rows');

/**
 * Why the statements cannot go into one account, or null: an import publishes into one account, so a file holding
 * statements of several would file one account's transactions in another.
 */
export function severalAccounts(statements: StatementFacts[], format: string): string | null {
  const accounts = [...new Set(statements.flatMap((s) => (s.rows && s.account?.id ? [s.account.id] : [])))];
  if (accounts.length < 2) return null;
  const named = accounts.slice(0, 5).map((a) => `'${shownValue(a)}'`).join(', ');
  return `The ${format} file holds statements of ${accounts.length} accounts (${named}${accounts.length > 5 ? ', …' : ''}); export each account to its own file and import it into its account`;
}
