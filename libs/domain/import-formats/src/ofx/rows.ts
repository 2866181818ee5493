import { isCurrencyCode } from '@hearth/domain/money';
import { isDay, lengthError, MAX_CHARS, minorUnitError, negateDecimal, parseNumber, parseStatementAmount, shownValue } from '../cells';
import type { BankStatementOptions } from '../bank-statement';
import { outsideDateRange, type ParsedRow } from '../csv-import';
import { childNamed, type OfxNode } from './ofx-tree';

// What every OFX row is built from: dates, amounts, currencies and FITIDs read the one way, and a bank statement's
// transaction (STMTTRN) as a row.

/** As the other bank statements' (CAMT, MT940): defaultCurrency stands in when the statement names no CURDEF. */

/** What a row builder needs of its statement and file. */
export interface RowContext {
  opts: BankStatementOptions;
  currency: string;
  lineOf: (offset: number) => number;
  securities: Map<string, string>;
  /** FITIDs the statement's rows have taken, and how often: a repeat gets a suffix (#2, #3) to stay one row's. */
  fitids: Map<string, number>;
  /** The statement writes every TRNAMT as a magnitude and says which way by TRNTYPE (writesMagnitudes). */
  magnitudesOnly: boolean;
}

/** Names for transactions that give neither NAME nor MEMO, by TRNTYPE. */
const TRNTYPE_NAMES: Record<string, string> = {
  CREDIT: 'Credit', DEBIT: 'Debit', INT: 'Interest', DIV: 'Dividend', FEE: 'Fee', SRVCHG: 'Service charge', DEP: 'Deposit',
  ATM: 'ATM withdrawal', POS: 'Card payment', XFER: 'Transfer', CHECK: 'Check', PAYMENT: 'Payment', CASH: 'Cash withdrawal',
  DIRECTDEP: 'Direct deposit', DIRECTDEBIT: 'Direct debit', REPEATPMT: 'Standing order',
};
/** TRNTYPEs that take money out: the way a statement of magnitudes only (magnitudesOnly) is read. */
const OUTFLOW_TYPES = new Set(['DEBIT', 'FEE', 'SRVCHG', 'CHECK', 'PAYMENT', 'CASH', 'DIRECTDEBIT', 'ATM', 'POS', 'REPEATPMT']);

/** OFX's date-times (YYYYMMDD, YYYYMMDDHHMMSS, .XXX milliseconds, [-5:EST] offset) -> the YYYY-MM-DD they were written on. */
export function ofxDate(raw: string | undefined): string | null {
  const match = /^(\d{4})(\d{2})(\d{2})(?:\d{2}(?:\d{2}(?:\d{2}(?:\.\d{1,6})?)?)?)?\s*(?:\[\s*[+-]?\d{1,2}(?:[.:]\d{1,2})?(?::[A-Za-z0-9+\-_/ ]*)?\])?$/.exec(raw?.trim() ?? '');
  if (!match) return null;
  // The day as written: an offset says when the bank's day was, never moves it to another.
  if (!isDay(Number(match[1]), Number(match[2]), Number(match[3]))) return null;
  return `${match[1]}-${match[2]}-${match[3]}`;
}

/**
 * An OFX amount -> decimal string: a point or, as some European banks write, a comma before the decimals (OFX has
 * no thousands separators, so a lone comma is the decimal mark); a leading + is allowed. Null when not a number.
 */
export function ofxAmount(raw: string | undefined): string | null {
  const value = raw?.trim().replace(/^\+/, '');
  if (!value) return null;
  if (!value.includes(',')) return parseNumber(value, '1,234.56');
  return value.includes('.') ? parseStatementAmount(value) : parseNumber(value, '1.234,56');
}

/** `Row 3 (line 41): ...`: problems of a row, as QIF rows name theirs. */
export const rowErrors = (n: number, node: OfxNode, ctx: RowContext, problems: string[]): string[] =>
  problems.map((p) => `Row ${n} (line ${ctx.lineOf(node.offset)}): ${p}`);

/** The row's external id: the FITID, made unique within the statement when the bank gave two transactions one. */
export function externalId(fitid: string | undefined, ctx: RowContext, problems: string[]): string | null {
  if (!fitid) return null;
  const seen = (ctx.fitids.get(fitid) ?? 0) + 1;
  ctx.fitids.set(fitid, seen);
  const id = seen > 1 ? `${fitid}#${seen}` : fitid;
  const long = lengthError('FITID', id, 255, 'transaction ids');
  if (long) problems.push(long);
  return id;
}

/** The row's date from an OFX date field, with the problem when it is missing, unreadable or out of range. */
export function rowDate(raw: string | undefined, field: string, ctx: RowContext, problems: string[]): { date: string | null; raw_date?: string } {
  const date = ofxDate(raw);
  if (!date) problems.push(`date '${shownValue(raw ?? '')}' (${field}) is missing or not a date`);
  const outside = date && outsideDateRange(date, ctx.opts.today);
  if (outside) problems.push(`date ${outside}`);
  return { date, ...(!date && raw ? { raw_date: raw } : {}) };
}

/** A transaction's own currency (CURRENCY/CURSYM: its amounts are in it), else the statement's. */
export function rowCurrency(node: OfxNode, ctx: RowContext, problems: string[]): string {
  const own = childNamed(node, 'CURRENCY')?.fields.CURSYM?.toUpperCase();
  if (!own) return ctx.currency;
  if (isCurrencyCode(own)) return own;
  problems.push(`currency '${shownValue(own)}' (CURSYM) is not an ISO 4217 code`);
  return ctx.currency;
}

/** An amount's problem when it is finer than its currency's minor unit. */
export function checkMinorUnit(column: string, amount: string | null, currency: string, problems: string[]): void {
  const finer = amount === null ? null : minorUnitError(column, amount, currency);
  if (finer) problems.push(finer);
}

/** A bank or card transaction (STMTTRN; an investment statement's INVBANKTRAN holds one) as a transaction row. */
export function bankRow(trn: OfxNode, n: number, ctx: RowContext): ParsedRow {
  const { fields } = trn;
  const problems: string[] = [];
  const { date, ...rawDate } = rowDate(fields.DTPOSTED, 'DTPOSTED', ctx, problems);
  const currency = rowCurrency(trn, ctx, problems);
  const type = fields.TRNTYPE?.toUpperCase() ?? '';
  const trnamt = ofxAmount(fields.TRNAMT);
  if (trnamt === null) problems.push(`amount '${shownValue(fields.TRNAMT ?? '')}' (TRNAMT) is missing or not a number`);
  // OFX signs TRNAMT as money into the account; rows, as money out.
  const amount = trnamt === null ? null : ctx.magnitudesOnly && OUTFLOW_TYPES.has(type) ? trnamt : negateDecimal(trnamt);
  checkMinorUnit('amount (TRNAMT)', amount, currency, problems);
  if (fields.CORRECTACTION) problems.push(`it ${fields.CORRECTACTION.toUpperCase() === 'DELETE' ? 'deletes' : 'replaces'} transaction '${shownValue(fields.CORRECTFITID ?? '')}' (CORRECTACTION), which an import cannot do: leave it out and edit that transaction`);
  const payee = fields.NAME || childNamed(trn, 'PAYEE')?.fields.NAME || '';
  const memo = fields.MEMO ?? '';
  const name = payee || memo || (type === 'CHECK' && fields.CHECKNUM ? `Check ${fields.CHECKNUM}` : TRNTYPE_NAMES[type]) || 'Imported item';
  const long = lengthError('name', name, MAX_CHARS.entryName, 'transaction names');
  if (long) problems.push(long);
  const notes = [payee && memo !== payee ? memo : '', fields.CHECKNUM ? `Check number ${fields.CHECKNUM}` : ''].filter(Boolean).join(' — ') || null;
  const external_id = externalId(fields.FITID, ctx, problems);
  return {
    sourceRowNumber: n,
    errors: rowErrors(n, trn, ctx, problems),
    values: { date, ...rawDate, currency, account: null, row_kind: 'transaction', amount, name, category: null, tags: [], notes, external_id, transfer_account: null },
  };
}

