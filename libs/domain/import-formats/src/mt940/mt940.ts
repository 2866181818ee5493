import { negateDecimal, shownValue } from '../cells';
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

export type Mt940Options = BankStatementOptions;

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

interface Message {
  fields: Field[];
}

/** SWIFT block headers (`{1:F01...}{2:I940...}{4:`) before the fields, or the end of a message (`-}`, `-`). */
const BLOCKS = /^(?:\{\d:[^{}]*\})*(?:\{4:)?/;

/** Splits the text into messages of fields: a message starts at :20: and ends at the next or at `-`/`-}`. */
function readMessages(text: string): Message[] {
  const messages: Message[] = [];
  let message: Message | null = null;
  let field: Field | null = null;
  const lines = text.split(/\r\n?|\n/);
  for (let index = 0; index < lines.length; index++) {
    let line = lines[index];
    if (line.charCodeAt(0) === 0x7b /* { */) line = line.replace(BLOCKS, '');
    else if (index === 0 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    if (line.charCodeAt(0) === 0x2d /* - */ && /^-\}?\s*(?:\{.*)?$/.test(line)) {
      message = null;
      field = null;
      continue;
    }
    const tagged = line.charCodeAt(0) === 0x3a /* : */ ? FIELD.exec(line) : null;
    if (tagged) {
      if (tagged[1] === '20' || !message) messages.push((message = { fields: [] }));
      field = { tag: tagged[1], lines: [tagged[2]], line: index + 1 };
      message.fields.push(field);
    } else if (field && line.trim()) field.lines.push(line);
    // Lines before the first field (ABN AMRO's `ABNANL2A` / `940` header) belong to no field.
  }
  return messages;
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

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const leap = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);

/** YYYY-MM-DD of a day of the calendar, or null when there is no such day (31 April, 30 February). */
function validDay(year: number, month: number, day: number): string | null {
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 && leap(year) ? 29 : DAYS_IN_MONTH[month - 1]))) return null;
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

interface StatementLine {
  entry: StatementEntry;
  /** As the balances count it: money in positive; null when unreadable. */
  credit: string | null;
}

/** A :61: field and the :86: after it as an entry. */
function entryOf(field: Field, details: Field | undefined, currency: string, today: Date): StatementLine {
  const [first, ...more] = field.lines;
  const parts = STATEMENT_LINE.exec(first.trim());
  const base = { currency, line: () => field.line, externalId: null, notes: null };
  if (!parts) {
    const problem = `:61: '${shownValue(first.trim())}' is not a statement line (YYMMDD value date, MMDD entry date, C/D/RC/RD, amount as 12,34, type, references)`;
    return { entry: { ...base, date: null, amount: null, name: 'Imported item', problems: [problem] }, credit: null };
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
  const supplementary = [rest, ...more]
    .map((l) => l.trim())
    .filter((l) => l && !/^\/[A-Z]{2,5}\//.test(l))
    .join(' ');
  const read = detailsOf(details?.lines ?? []);
  return {
    entry: {
      ...base,
      date,
      ...(date ? {} : { rawDate: `${valueDay}${entryDay ?? ''}` }),
      amount: outflow,
      name: read.name || supplementary || 'Imported item',
      notes: read.notes || (read.name ? supplementary : '') || null,
      externalId: referenceId(bankRef),
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
export function parseMt940(text: string, opts: Mt940Options): ParsedImport {
  const messages = readMessages(text).filter((m) => m.fields.some((f) => f.tag !== '86'));
  const lineCount = messages.reduce((n, m) => n + m.fields.filter((f) => f.tag === '61').length, 0);
  if (!messages.some((m) => m.fields.some((f) => f.tag === '20' || f.tag === '61'))) {
    return refusedFile('The file is not an MT940 statement: it has no :20: or :61: fields (an MT940 file has lines such as :20:, :25:, :60F:, :61:, :86:, :62F:)', INVALID);
  }
  if (lineCount > opts.maxRows) return tooManyRows(lineCount, opts.maxRows);
  const rows: ParsedRow[] = [];
  const statements: StatementFacts[] = [];
  const fileErrors: string[] = [];
  let balanced = true;
  for (const [index, message] of messages.entries()) {
    const facts: StatementFacts = { rows: null };
    const first = rows.length + 1;
    const credits: string[] = [];
    let readable = true;
    const valueOf = (tag: string) => message.fields.find((f) => f.tag === tag)?.lines.join(' ').trim() ?? '';
    const reference = valueOf('20');
    const number = valueOf('28C') || valueOf('28');
    if (reference || number) facts.id = [reference, number].filter(Boolean).join(' ');
    const account = accountOf(valueOf('25'));
    if (account) facts.account = account;
    for (const field of message.fields) {
      if (!/^(60[FM]|62[FM]|64)$/.test(field.tag)) continue;
      const balance = balanceOf(field, opts.today);
      if (typeof balance === 'string') {
        fileErrors.push(`Statement ${index + 1}: ${balance}`);
        continue;
      }
      if (field.tag.startsWith('60')) facts.openingBalance ??= balance;
      else if (field.tag.startsWith('62')) facts.closingBalance ??= balance;
      else facts.availableBalance ??= balance;
    }
    const currency = facts.openingBalance?.currency ?? facts.closingBalance?.currency;
    if (currency) facts.currency = currency;
    if (facts.openingBalance?.date) facts.periodStart = facts.openingBalance.date;
    if (facts.closingBalance?.date) facts.periodEnd = facts.closingBalance.date;
    message.fields.forEach((field, k) => {
      if (field.tag !== '61') return;
      const next = message.fields[k + 1];
      const { entry, credit } = entryOf(field, next?.tag === '86' ? next : undefined, currency ?? opts.defaultCurrency, opts.today);
      if (credit === null) readable = false;
      else credits.push(credit);
      rows.push(statementRow(rows.length + 1, entry, opts.today));
    });
    facts.rows = rows.length >= first ? { first, last: rows.length } : null;
    const label = `Statement ${index + 1}${facts.id ? ` (${facts.id})` : ''}`;
    const mismatch = readable ? balanceMismatch(label, facts, credits) : null;
    if (mismatch) {
      fileErrors.push(mismatch);
      balanced = false;
    }
    statements.push(facts);
  }
  if (fileErrors.length) return { rows: [], fileErrors, errorCode: balanced ? INVALID : 'unbalanced_statement' };
  const several = severalAccounts(statements, 'MT940');
  if (several) return refusedFile(several, INVALID);
  if (!rows.length) return refusedFile('The MT940 file has no transactions (:61: lines)', INVALID);
  dropRepeatedIds(rows);
  return { rows, fileErrors: [], statements };
}
