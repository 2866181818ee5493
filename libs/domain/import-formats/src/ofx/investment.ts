import { feeBeyondTrade, lengthError, MAX_CHARS, negateDecimal, negativeError, shownValue, sumOf, tradeSizeError } from '../cells';
import type { ParsedRow } from '../csv-import';
import { childNamed, findAll, type OfxNode } from './ofx-tree';
import { bankRow, checkMinorUnit, externalId, ofxAmount, type RowContext, rowCurrency, rowDate, rowErrors } from './rows';

// An investment statement's INVTRANLIST as rows, in QIF's conventions for investment accounts: buys and sells are
// trades (qty signed, price, fee, amount = the cash they moved, positive out), income and expenses transactions, a
// reinvestment the buy and the income that paid for it, cash moves (INVBANKTRAN) bank transactions.

/** Securities by their id (CUSIP, ISIN: SECID/UNIQUEID) -> ticker, from the file's SECLIST; the id when no ticker. */
export function securityTickers(ofx: OfxNode): Map<string, string> {
  const tickers = new Map<string, string>();
  for (const info of findAll(ofx, 'SECINFO')) {
    const id = childNamed(info, 'SECID')?.fields.UNIQUEID;
    if (id && info.fields.TICKER) tickers.set(id, info.fields.TICKER.trim().toUpperCase());
  }
  return tickers;
}

/** Buys and sells of every kind of security: their INVBUY/INVSELL holds the trade. */
const BUYS = new Set(['BUYSTOCK', 'BUYMF', 'BUYDEBT', 'BUYOPT', 'BUYOTHER']);
const SELLS = new Set(['SELLSTOCK', 'SELLMF', 'SELLDEBT', 'SELLOPT', 'SELLOTHER']);
/** Income by INCOMETYPE, named as QIF's cash actions are. */
const INCOME_NAMES: Record<string, (ticker: string) => string> = {
  DIV: (t) => (t ? `Dividend: ${t}` : 'Dividend'),
  INTEREST: () => 'Interest',
  CGLONG: (t) => (t ? `Capital Gain (Long): ${t}` : 'Capital Gain (Long)'),
  CGSHORT: (t) => (t ? `Capital Gain (Short): ${t}` : 'Capital Gain (Short)'),
  MISC: () => 'Miscellaneous Income',
};
/** Cash actions that are not income: whether money comes in, and their name. */
const CASH_ACTIONS: Record<string, { inflow: boolean; name: (ticker: string) => string }> = {
  INVEXPENSE: { inflow: false, name: () => 'Miscellaneous Expense' },
  MARGININTEREST: { inflow: false, name: () => 'Margin Interest' },
  RETOFCAP: { inflow: true, name: (t) => (t ? `Return of Capital: ${t}` : 'Return of Capital') },
};
/** What a trade's fee is made of: every cost OFX states beside the price (the markup is in the price). */
const FEE_FIELDS = ['COMMISSION', 'FEES', 'TAXES', 'LOAD', 'WITHHOLDING'];

/** The rows an investment transaction becomes: a reinvestment is two. */
export const investmentRowCount = (transaction: OfxNode): number => (transaction.name === 'REINVEST' ? 2 : 1);

const magnitude = (decimal: string) => decimal.replace(/^-/, '');

/** What every row of an investment transaction holds: its trade date, currency, FITID and memo. */
function rowBase(holder: OfxNode, ctx: RowContext, problems: string[]) {
  const invtran = childNamed(holder, 'INVTRAN');
  const { date, ...rawDate } = rowDate(invtran?.fields.DTTRADE, 'DTTRADE', ctx, problems);
  const currency = rowCurrency(holder, ctx, problems);
  return {
    base: { date, ...rawDate, currency, account: null },
    fitid: invtran?.fields.FITID,
    notes: invtran?.fields.MEMO || null,
  };
}

/** The ticker of the security the transaction names (SECID), with the problem when it names none or too long a one. */
function tickerOf(holder: OfxNode, ctx: RowContext, problems: string[], required: boolean): string {
  const id = childNamed(holder, 'SECID')?.fields.UNIQUEID ?? '';
  const ticker = (ctx.securities.get(id) ?? id).toUpperCase();
  if (!ticker && required) problems.push('it names no security (SECID)');
  const long = lengthError('security', ticker, MAX_CHARS.ticker, 'tickers');
  if (long) problems.push(`${long}; the file's SECLIST gives no ticker for it`);
  return ticker;
}

/** A number field, with the problem when it is missing (if required) or not a number. */
function numberField(node: OfxNode, field: string, problems: string[], required = true): string | null {
  const raw = node.fields[field];
  const value = ofxAmount(raw);
  if (value === null && (required || raw !== undefined)) problems.push(`${field} '${shownValue(raw ?? '')}' is missing or not a number`);
  return value;
}

/** A buy or sell (INVBUY/INVSELL inside BUYSTOCK, SELLMF, ...; a REINVEST is a buy too) as a trade row. */
function tradeRow(transaction: OfxNode, holder: OfxNode, sell: boolean, n: number, ctx: RowContext): ParsedRow {
  const problems: string[] = [];
  const { base, fitid, notes } = rowBase(holder, ctx, problems);
  const ticker = tickerOf(holder, ctx, problems, true);
  const units = numberField(holder, 'UNITS', problems);
  const price = numberField(holder, 'UNITPRICE', problems);
  const total = numberField(holder, 'TOTAL', problems);
  const costs = FEE_FIELDS.filter((f) => holder.fields[f] !== undefined).map((f) => numberField(holder, f, problems));
  const fee = costs.includes(null) ? null : sumOf(['0', ...(costs as string[])]);
  // Brokers sign UNITS and TOTAL either way; the transaction's kind says which way shares and cash moved.
  const qty = units === null ? null : sell ? negateDecimal(magnitude(units)) : magnitude(units);
  const cash = total === null ? null : magnitude(total);
  const amount = cash === null ? null : sell ? negateDecimal(cash) : cash;
  if (price?.startsWith('-')) problems.push(negativeError('UNITPRICE', price));
  else if (price !== null) {
    const tooLarge = tradeSizeError(qty ?? '0', price);
    if (tooLarge) problems.push(tooLarge);
  }
  checkMinorUnit('amount (TOTAL)', amount, base.currency, problems);
  if (fee?.startsWith('-')) problems.push(negativeError('fee', fee));
  else if (fee !== null) {
    checkMinorUnit('fee', fee, base.currency, problems);
    const beyond = feeBeyondTrade(fee, { sell, amount: cash, qty, price: price !== null && !price.startsWith('-') ? price : null });
    if (beyond === 'amount') problems.push(`fee ${fee} (${FEE_FIELDS.join(' + ')}) is more than the total ${cash} (TOTAL), which includes it`);
    if (beyond === 'qty x price') problems.push(`fee ${fee} (${FEE_FIELDS.join(' + ')}) is more than UNITS x UNITPRICE, from which it is taken`);
  }
  const external_id = externalId(fitid, ctx, problems);
  return {
    sourceRowNumber: n,
    errors: rowErrors(n, transaction, ctx, problems),
    values: {
      ...base,
      row_kind: 'trade',
      exchange_operating_mic: null,
      ticker,
      qty,
      price,
      fee,
      amount,
      name: `${sell ? 'Sell' : 'Buy'} ${qty === null ? '' : magnitude(qty)} ${ticker}`.replace(/\s+/g, ' ').trim(),
      category: null,
      tags: [],
      notes,
      external_id,
    },
  };
}

/** Income (INCOME, the income a REINVEST paid with) or a cash action (INVEXPENSE, ...) as a transaction row. */
function cashRow(transaction: OfxNode, n: number, ctx: RowContext, name: (ticker: string) => string, signed: (total: string) => string, extra: Record<string, unknown> = {}): ParsedRow {
  const problems: string[] = [];
  const { base, fitid, notes } = rowBase(transaction, ctx, problems);
  const ticker = tickerOf(transaction, ctx, problems, false);
  const total = numberField(transaction, 'TOTAL', problems);
  const amount = total === null ? null : signed(total);
  checkMinorUnit('amount (TOTAL)', amount, base.currency, problems);
  const external_id = externalId(extra.record_of === undefined ? fitid : fitid && `${fitid}-income`, ctx, problems);
  return {
    sourceRowNumber: n,
    errors: rowErrors(n, transaction, ctx, problems),
    values: { ...base, row_kind: 'transaction', amount, name: name(ticker), category: null, tags: [], notes, external_id, transfer_account: null, ...extra },
  };
}

/** Shares moved in or out of the account (TRANSFER, TFERACTION IN/OUT) at no cash: a trade of amount 0, as QIF's ShrsIn. */
function transferRow(transaction: OfxNode, n: number, ctx: RowContext): ParsedRow {
  const problems: string[] = [];
  const { base, fitid, notes } = rowBase(transaction, ctx, problems);
  const ticker = tickerOf(transaction, ctx, problems, true);
  const units = numberField(transaction, 'UNITS', problems);
  const out = transaction.fields.TFERACTION ? transaction.fields.TFERACTION.toUpperCase() === 'OUT' : !!units?.startsWith('-');
  const qty = units === null ? null : out ? negateDecimal(magnitude(units)) : magnitude(units);
  const stated = numberField(transaction, 'UNITPRICE', problems, false);
  const basis = numberField(transaction, 'AVGCOSTBASIS', problems, false);
  const price = stated ?? (basis !== null && units !== null && Number(units) !== 0 ? (Math.abs(Number(basis)) / Math.abs(Number(units))).toFixed(8).replace(/\.?0+$/, '') : '0');
  if (price.startsWith('-')) problems.push(negativeError('UNITPRICE', price));
  return {
    sourceRowNumber: n,
    errors: rowErrors(n, transaction, ctx, problems),
    values: {
      ...base,
      row_kind: 'trade',
      exchange_operating_mic: null,
      ticker,
      qty,
      price,
      fee: '0',
      amount: '0',
      activity_label: 'Transfer',
      name: `${out ? 'Shares out' : 'Shares in'} ${qty === null ? '' : magnitude(qty)} ${ticker}`.replace(/\s+/g, ' ').trim(),
      category: null,
      tags: [],
      notes,
      external_id: externalId(fitid, ctx, problems),
    },
  };
}

/** A stock split (SPLIT, NUMERATOR new shares for DENOMINATOR old): a split row of that ratio, as QIF's StkSplit. */
function splitRow(transaction: OfxNode, n: number, ctx: RowContext): ParsedRow {
  const problems: string[] = [];
  const { base, fitid, notes } = rowBase(transaction, ctx, problems);
  const ticker = tickerOf(transaction, ctx, problems, true);
  const numerator = numberField(transaction, 'NUMERATOR', problems);
  const denominator = numberField(transaction, 'DENOMINATOR', problems);
  const quotient = numerator !== null && denominator !== null && Number(denominator) !== 0 ? Number(numerator) / Number(denominator) : NaN;
  // From 1 for 1,000 to 1,000 for 1, as for QIF: beyond that a number is misread, and would overflow the holding.
  const valid = quotient >= 0.001 && quotient <= 1000;
  if (!valid && numerator !== null && denominator !== null) problems.push(`split ratio ${numerator}:${denominator} (NUMERATOR:DENOMINATOR) must be from 1:1000 to 1000:1`);
  const ratio = valid ? quotient.toFixed(10).replace(/\.?0+$/, '') : null;
  return {
    sourceRowNumber: n,
    errors: rowErrors(n, transaction, ctx, problems),
    values: { ...base, row_kind: 'split', ticker, exchange_operating_mic: null, ratio, name: `Split ${ratio ?? '?'} for 1 ${ticker}`.trim(), notes, external_id: externalId(fitid, ctx, problems) },
  };
}

/** The rows of one INVTRANLIST transaction, numbered from `n`. */
export function investmentRows(transaction: OfxNode, n: number, ctx: RowContext): ParsedRow[] {
  const kind = transaction.name;
  if (BUYS.has(kind) || SELLS.has(kind)) {
    const holder = childNamed(transaction, SELLS.has(kind) ? 'INVSELL' : 'INVBUY') ?? transaction;
    return [tradeRow(transaction, holder, SELLS.has(kind), n, ctx)];
  }
  const incomeName = (ticker: string) => (INCOME_NAMES[transaction.fields.INCOMETYPE?.toUpperCase() ?? ''] ?? INCOME_NAMES.MISC)(ticker);
  if (kind === 'INCOME') return [cashRow(transaction, n, ctx, incomeName, negateDecimal)];
  if (kind === 'REINVEST') {
    // The income bought the shares: the buy, then the income coming in for the same cash, so the account's cash stays.
    const trade = tradeRow(transaction, transaction, false, n, ctx);
    const income = cashRow(transaction, n + 1, ctx, incomeName, (total) => negateDecimal(magnitude(total)), { record_of: n });
    return [trade, income];
  }
  if (Object.hasOwn(CASH_ACTIONS, kind)) {
    const action = CASH_ACTIONS[kind];
    return [cashRow(transaction, n, ctx, action.name, (total) => (action.inflow ? negateDecimal(magnitude(total)) : magnitude(total)))];
  }
  if (kind === 'TRANSFER') return [transferRow(transaction, n, ctx)];
  if (kind === 'SPLIT') return [splitRow(transaction, n, ctx)];
  if (kind === 'INVBANKTRAN') {
    const trn = childNamed(transaction, 'STMTTRN');
    if (trn) return [bankRow(trn, n, ctx)];
  }
  const problems = [`investment transaction <${kind}> is not supported`];
  const { base, notes } = rowBase(transaction, ctx, problems);
  return [{ sourceRowNumber: n, errors: rowErrors(n, transaction, ctx, problems), values: { ...base, row_kind: 'transaction', amount: null, name: kind, category: null, tags: [], notes, external_id: null, transfer_account: null } }];
}
