import { isDay, negateDecimal, shownValue } from '../cells';
import type { ParsedImport, ParsedRow } from '../csv-import';
import {
  balanceMismatch,
  type BankStatementOptions,
  dropRepeatedIds,
  referenceId,
  refusedFile,
  severalAccounts,
  type StatementEntry,
  statementRow,
  tooManyRows,
} from '../bank-statement';
import type { StatementAccount, StatementBalance, StatementFacts } from '../statement';
import { detailsOf } from './details';

// MT940 (SWIFT customer statement): messages of `:tag:` fields, each a statement: :20: reference, :25: account,
// :28C: number, :60F:/:60M: opening balance, a :61: line per entry with its :86: details, :62F:/:62M: closing
// balance, :64: available balance. Banks wrap it in SWIFT blocks ({1:...}{2:...}{4: ... -}), put a few header lines
// above it (ABN AMRO) or separate statements by a `-` line (Sparkassen); all are read. Each :61: becomes a
// transaction row; each statement's opening balance plus its entries must give its closing balance.


const INVALID = 'invalid_mt940';

/** A field's first line: `:20:`, `:28C:`, `:60F:`, `:61:`, `:86:` ... and what follows on that line. */
const FIELD = /^:(\d{2}[A-Z]?):(.*)$/;
/** A balance: C (in the holder's favour) or D, YYMMDD, currency and amount with a decimal comma (`C250801EUR1500,00`). */
const BALANCE = /^([CD])(\d{6})([A-Z]{3})(\d{1,15},\d*)$/;
/**
 * A statement line: value date YYMMDD, entry date MMDD (optional), D/C mark (RC and RD reverse a credit and a debit;
 * EC and ED are expected ones), the currency's third letter (optional), amount, transaction type (N/F/S and three
 * characters) and the references: the holder's, then `//` and the bank's.
 */
const STATEMENT_LINE = /^(\d{6})(\d{4})?(R?[CD]|E[CD])([A-Z])?(\d{1,15},\d*)([A-Z][A-Z0-9]{3})?(.*)$/;

interface Field {
  tag: string;
  /** Its lines, the first one without the tag. */
  lines: string[];
  line: number;
}

/** SWIFT block headers (`{1:F01...}{2:I940...}{4:`) before the fields. */
const BLOCKS = /^(?:\{\d:[^{}]*\})*(?:\{4:)?/;
/** The end of a message: `-`, or `-}` and any trailer blocks. */
const MESSAGE_END = /^-\}?\s*(?:\{.*)?$/;

/**
 * Reads the text field by field, each whole (with its continuation lines) before the next begins: `field` gets each,
 * `end` each end of a message (`-`, `-}`) and the end of the text. Lines before the first field (ABN AMRO's
 * `ABNANL2A` / `940` header) belong to no field.
 */
function readFields(text: string, field: (field: Field) => void, end: () => void): void {
  let current: Field | null = null;
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let index = 1; start <= text.length; index++) {
    let stop = text.indexOf('\n', start);
    if (stop === -1) stop = text.length;
    let line = text.slice(start, stop > start && text.charCodeAt(stop - 1) === 0x0d ? stop - 1 : stop);
    start = stop + 1;
    if (line.charCodeAt(0) === 0x7b /* { */) line = line.replace(BLOCKS, '');
    const tagged = line.charCodeAt(0) === 0x3a /* : */ ? FIELD.exec(line) : null;
    if (tagged) {
      if (current) field(current);
      current = { tag: tagged[1], lines: [tagged[2]], line: index };
    } else if (line.charCodeAt(0) === 0x2d /* - */ && MESSAGE_END.test(line)) {
      if (current) field(current);
      current = null;
      end();
    } else if (current && line.trim()) current.lines.push(line);
  }
  if (current) field(current);
  end();
}

/** How many :61: lines the text has: counted before any row is built, to refuse a file of too many. */
function statementLineCount(text: string): number {
  let count = text.startsWith(':61:') ? 1 : 0;
  for (let at = text.indexOf('\n:61:'); at !== -1; at = text.indexOf('\n:61:', at + 5)) count++;
  return count;
}

/**
 * `250801` -> 2025-08-01; a year more than fifty years ahead is of the century before (`990105` is 1999). A date
 * a little ahead stays so, to be shown as out of range rather than read as a century ago.
 */
function dateOf(yymmdd: string, today: Date): string | null {
  let year = 2000 + Number(yymmdd.slice(0, 2));
  if (year > today.getUTCFullYear() + 50) year -= 100;
  return validDay(year, Number(yymmdd.slice(2, 4)), Number(yymmdd.slice(4, 6)));
}

/** YYYY-MM-DD of a day of the calendar, or null when there is no such day (31 April, 30 February). */
function validDay(year: number, month: number, day: number): string | null {
  if (!isDay(year, month, day)) return null;
  return `${year}-${month < 10 ? '0' : ''}${month}-${day < 10 ? '0' : ''}${day}`;
}

/** The entry (booking) date MMDD in the year of the value date, or the year either side when months are far apart. */
function entryDateOf(valueDate: string, mmdd: string): string | null {
  const valueYear = Number(valueDate.slice(0, 4));
  const month = Number(mmdd.slice(0, 2));
  const shift = month - Number(valueDate.slice(5, 7));
  return validDay(valueYear + (shift > 6 ? -1 : shift < -6 ? 1 : 0), month, Number(mmdd.slice(2, 4)));
}

/** `1500,00` -> `1500.00`; `100,` -> `100`; leading zeros dropped. */
const decimalOf = (amount: string): string => amount.replace(',', '.').replace(/\.$/, '').replace(/^0+(?=\d)/, '');

/** A balance field's value (C/D, date, currency, amount) or why it is none. */
function balanceOf(field: Field, today: Date): StatementBalance | string {
  const value = field.lines.join('').trim();
  const parts = BALANCE.exec(value);
  const date = parts && dateOf(parts[2], today);
  if (!parts || !date) return `:${field.tag}: '${shownValue(value)}' on line ${field.line} is not a balance (C or D, YYMMDD, currency, amount as 1234,56)`;
  const magnitude = decimalOf(parts[4]);
  return { amount: parts[1] === 'D' ? negateDecimal(magnitude) : magnitude, date, currency: parts[3] };
}

/** Whether an IBAN's check digits agree with the rest (ISO 13616, mod 97). */
function isIban(value: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{10,30}$/.test(value)) return false;
  const digits = (value.slice(4) + value.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const digit of digits) rest = (rest * 10 + Number(digit)) % 97;
  return rest === 1;
}

/**
 * :25: as an account: `BLZ/account` (German banks) or `BIC/account` gives the bank and the account; an IBAN may be
 * followed by the currency (ING: `NL69INGB0123456789EUR`).
 */
function accountOf(raw: string): StatementAccount | undefined {
  const value = raw.trim().replace(/\s+/g, '');
  if (!value) return undefined;
  const slash = value.indexOf('/');
  const [bank, number] = slash > 0 ? [value.slice(0, slash), value.slice(slash + 1)] : ['', value];
  const withoutCurrency = /[A-Z]{3}$/.test(number) && !isIban(number) && isIban(number.slice(0, -3)) ? number.slice(0, -3) : number;
  const account: StatementAccount = { id: withoutCurrency || value };
  if (isIban(withoutCurrency)) account.iban = withoutCurrency;
  if (bank) account.bankId = bank;
  return account;
}

/** Opening (:60F:, :60M:), closing (:62F:, :62M:) and available (:64:) balances. */
const BALANCE_TAGS = new Set(['60F', '60M', '62F', '62M', '64']);
/** Supplementary details that are only codes: `/TRCD/00100/`. */
const CODES = /^\/[A-Z]{2,5}\//;
const NO_DETAILS = { name: '', notes: '' };

interface StatementLine {
  entry: StatementEntry;
  /** As the balances count it: money in positive; null when unreadable. */
  credit: string | null;
}

/** A :61: field and the :86: after it as an entry. */
function entryOf(field: Field, details: Field | undefined, currency: string, today: Date): StatementLine {
  const first = field.lines[0].trim();
  const parts = STATEMENT_LINE.exec(first);
  const line = () => field.line;
  if (!parts) {
    const problem = `:61: '${shownValue(first)}' is not a statement line (YYMMDD value date, MMDD entry date, C/D/RC/RD, amount as 12,34, type, references)`;
    return { entry: { date: null, amount: null, currency, name: 'Imported item', notes: null, externalId: null, line, problems: [problem] }, credit: null };
  }
  const [, valueDay, entryDay, mark, , amountText, , references] = parts;
  const problems: string[] = [];
  const valueDate = dateOf(valueDay, today);
  const date = valueDate && entryDay ? entryDateOf(valueDate, entryDay) : valueDate;
  if (!date) problems.push(`the date ${valueDay}${entryDay ?? ''} (:61: value date YYMMDD, entry date MMDD) is not a date`);
  const magnitude = decimalOf(amountText);
  // D is a debit; RC reverses a credit, so it takes money out as well. C and RD bring money in.
  const outflow = mark.endsWith('D') !== mark.startsWith('R') ? magnitude : negateDecimal(magnitude);
  // The holder's reference, then `//` and the bank's (16 characters at most); what follows, and the next line, is
  // supplementary detail.
  const split = references.indexOf('//');
  const bankRef = split === -1 ? '' : references.slice(split + 2, split + 18);
  const rest = split === -1 ? '' : references.slice(split + 18);
  let supplementary = '';
  for (let k = 0; k < field.lines.length; k++) {
    // Codes some banks put there (ING's /TRCD/00100/) are no text for a person.
    const text = (k === 0 ? rest : field.lines[k]).trim();
    if (text && !CODES.test(text)) supplementary = supplementary ? `${supplementary} ${text}` : text;
  }
  const read = details ? detailsOf(details.lines) : NO_DETAILS;
  return {
    entry: {
      date,
      rawDate: date ? undefined : `${valueDay}${entryDay ?? ''}`,
      amount: outflow,
      currency,
      name: read.name || supplementary || 'Imported item',
      notes: read.notes || (read.name ? supplementary : '') || null,
      externalId: referenceId(bankRef),
      line,
      problems,
    },
    credit: negateDecimal(outflow),
  };
}

/**
 * Parses an MT940 file into transaction rows, one per :61: line (booking date, positive = money out, the bank
 * reference as external id, name and notes from :86:), and each statement's facts. File errors: not MT940, a
 * balance unreadable, statements of several accounts, balances that do not agree, no entry, too many rows.
 */
export function parseMt940(text: string, opts: BankStatementOptions): ParsedImport {
  const lineCount = statementLineCount(text);
  if (lineCount > opts.maxRows) return tooManyRows(lineCount, opts.maxRows);
  const rows: ParsedRow[] = [];
  const statements: StatementFacts[] = [];
  const fileErrors: string[] = [];
  let balanced = true;
  let sawStatement = false;

  // The message being read: its facts, its entries' amounts as balances count them, the :61: awaiting its :86:.
  let facts: StatementFacts | null = null;
  let credits: string[] = [];
  let readable = true;
  let waiting: Field | null = null;
  const label = (open: StatementFacts) => `Statement ${statements.length + 1}${open.id ? ` (${open.id})` : ''}`;
  const addRow = (open: StatementFacts, field: Field, details: Field | undefined) => {
    // The currency of the opening balance, which comes before the entries.
    const { entry, credit } = entryOf(field, details, open.openingBalance?.currency ?? opts.defaultCurrency, opts.today);
    if (credit === null) readable = false;
    else credits.push(credit);
    rows.push(statementRow(rows.length + 1, entry, opts.today));
    if (open.rows) open.rows.last = rows.length;
    else open.rows = { first: rows.length, last: rows.length };
  };
  const finish = () => {
    const open = facts;
    if (!open) return;
    if (waiting) addRow(open, waiting, undefined);
    waiting = null;
    const currency = open.openingBalance?.currency ?? open.closingBalance?.currency;
    if (currency) open.currency = currency;
    if (open.openingBalance?.date) open.periodStart = open.openingBalance.date;
    if (open.closingBalance?.date) open.periodEnd = open.closingBalance.date;
    const mismatch = readable ? balanceMismatch(label(open), open, credits) : null;
    if (mismatch) {
      fileErrors.push(mismatch);
      balanced = false;
    }
    statements.push(open);
    facts = null;
  };
  const valueOf = (field: Field) => field.lines.join(' ').trim();

  readFields(
    text,
    (field) => {
      if (field.tag === '20') finish();
      // A :86: after a statement's end (its own information) starts no statement.
      if (!facts && field.tag === '86') return;
      if (!facts) [facts, credits, readable] = [{ rows: null }, [], true];
      const open: StatementFacts = facts;
      if (field.tag === '20' || field.tag === '61') sawStatement = true;
      if (waiting) addRow(open, waiting, field.tag === '86' ? field : undefined);
      const detailsTaken = waiting !== null && field.tag === '86';
      waiting = field.tag === '61' ? field : null;
      if (detailsTaken) return;
      if (field.tag === '20' || field.tag === '28C' || field.tag === '28') open.id = open.id ? `${open.id} ${valueOf(field)}` : valueOf(field);
      else if (field.tag === '25') {
        const account = accountOf(valueOf(field));
        if (account) open.account = account;
      } else if (BALANCE_TAGS.has(field.tag)) {
        const balance = balanceOf(field, opts.today);
        if (typeof balance === 'string') fileErrors.push(`${label(open)}: ${balance}`);
        else if (field.tag.startsWith('60')) open.openingBalance ??= balance;
        else if (field.tag.startsWith('62')) open.closingBalance ??= balance;
        else open.availableBalance ??= balance;
      }
    },
    finish,
  );
  if (!sawStatement) {
    return refusedFile('The file is not an MT940 statement: it has no :20: or :61: fields (an MT940 file has lines such as :20:, :25:, :60F:, :61:, :86:, :62F:)', INVALID);
  }
  if (fileErrors.length) return { rows: [], fileErrors, errorCode: balanced ? INVALID : 'unbalanced_statement' };
  const several = severalAccounts(statements, 'MT940');
  if (several) return refusedFile(several, INVALID);
  if (!rows.length) return refusedFile('The MT940 file has no transactions (:61: lines)', INVALID);
  dropRepeatedIds(rows);
  return { rows, fileErrors: [], statements };
}
