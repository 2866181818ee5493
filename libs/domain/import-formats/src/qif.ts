import type { BankStatementOptions } from './bank-statement';
import {
  detectDateLayout,
  feeBeyondTrade,
  lengthError,
  MAX_CHARS,
  minorUnitError,
  negateDecimal,
  negativeError,
  parseDate,
  parseStatementAmount,
  productOf,
  sameNumber,
  sumOf,
  shownValue,
  tradeSizeError,
} from './cells';
import { outsideDateRange, type ParsedImport, type ParsedRow } from './csv-import';

// QIF (Quicken Interchange Format): sections headed `!Type:<name>`, records of one-letter-coded lines ended by `^`.
// Rows come out in the service's conventions, like the CSV types: ISO dates, decimal strings with positive = money
// leaving the account. A row's `row_kind` says what it publishes as: transaction, trade or opening_balance.


/** Sections holding transactions; lists (Cat, Class, Tag, Memorized, Prices) are skipped and Security maps names to tickers. */
const TRANSACTION_SECTIONS = new Map(['Bank', 'Cash', 'CCard', 'Oth A', 'Oth L', 'Invst'].map((name) => [name.toLowerCase(), name]));

/** Numeric date layouts tried on every D field; the one parsing the most samples wins, US first on a tie. */
const DATE_LAYOUTS = ['%m/%d/%Y', '%d/%m/%Y', '%d.%m.%Y', '%Y-%m-%d', '%m-%d-%Y', '%d-%m-%Y', '%Y/%m/%d'];

const BUY_ACTIONS = new Set(['buy', 'buyx', 'reinvdiv', 'reinvint', 'reinvlg', 'reinvmd', 'reinvsh', 'cover', 'coverx']);
/**
 * Income reinvested in the security it came from, by the cash action it is: a buy paid by the income, so no cash
 * moves. Each record becomes the buy and the income (a transaction), whose amounts cancel out in the account's cash.
 */
const REINVESTED: Record<string, string> = { reinvdiv: 'div', reinvint: 'intinc', reinvlg: 'cglong', reinvmd: 'cgmid', reinvsh: 'cgshort' };
const SELL_ACTIONS = new Set(['sell', 'sellx', 'shtsell', 'shtsellx']);
/** Shares moved into or out of the account without cash (from or to another broker): a trade of no amount. */
const SHARE_TRANSFERS: Record<string, { sign: '' | '-'; name: string }> = { shrsin: { sign: '', name: 'Shares in' }, shrsout: { sign: '-', name: 'Shares out' } };
/** Cash actions of an investment account: name and whether money comes in. */
const CASH_ACTIONS: Record<string, { name: (security: string) => string; inflow: boolean }> = {
  div: { name: (s) => (s ? `Dividend: ${s}` : 'Dividend'), inflow: true },
  intinc: { name: () => 'Interest', inflow: true },
  xin: { name: () => 'Cash Transfer In', inflow: true },
  cglong: { name: (s) => (s ? `Capital Gain (Long): ${s}` : 'Capital Gain (Long)'), inflow: true },
  cgmid: { name: (s) => (s ? `Capital Gain (Mid): ${s}` : 'Capital Gain (Mid)'), inflow: true },
  cgshort: { name: (s) => (s ? `Capital Gain (Short): ${s}` : 'Capital Gain (Short)'), inflow: true },
  rtrncap: { name: (s) => (s ? `Return of Capital: ${s}` : 'Return of Capital'), inflow: true },
  miscinc: { name: () => 'Miscellaneous Income', inflow: true },
  xout: { name: () => 'Cash Transfer Out', inflow: false },
  margint: { name: () => 'Margin Interest', inflow: false },
  miscexp: { name: () => 'Miscellaneous Expense', inflow: false },
};
// The X forms (DivX, MargIntX, ...) are the same income or expense, paid from or to another account: see xTransferRow.
for (const action of ['div', 'intinc', 'cglong', 'cgmid', 'cgshort', 'rtrncap', 'miscinc', 'margint', 'miscexp']) CASH_ACTIONS[`${action}x`] = CASH_ACTIONS[action];

/** BuyX, SellX, DivX, MargIntX and the like: an action whose cash came from or went to the account L names. */
const isXForm = (action: string) =>
  action.endsWith('x') && (BUY_ACTIONS.has(action) || SELL_ACTIONS.has(action) || Object.hasOwn(CASH_ACTIONS, action));

interface QifRecord {
  section: string;
  /** The account the record belongs to: the last one an `!Account` block named before it, if any. */
  account: string | null;
  line: number;
  fields: Map<string, string>;
  splits: Array<{ category: string; memo: string; amount: string }>;
  /** Fields given twice with different values: only the first is read, so each is a problem of the record's rows. */
  repeats: string[];
}

/** What the one-letter codes of a transaction record hold, to name a field given twice. */
const FIELD_NAMES: Record<string, string> = {
  D: 'date', T: 'amount', U: 'amount', P: 'payee', N: 'number or action', L: 'category', C: 'cleared status',
  Y: 'security', Q: 'quantity', I: 'price', O: 'commission', $: 'amount transferred',
};

/** Memo lines (M, and E of a split part) and address lines (A, up to six) go on over several lines: a repeat is the next line. */
const joinLines = (first: string, next: string) => (first && next ? `${first}\n${next}` : first || next);

/** What every row of a record holds: its date, the import's currency (the account's, else the family's) and no account column. */
interface RowBase {
  date: string | null;
  /** The D field as written, when it gave no date (shown with the row's error). */
  raw_date?: string;
  currency: string;
  account: null;
}

/** Splits the text into records of their section; `!Option`/`!Clear` lines and list sections are kept apart. */
function readRecords(text: string): { records: QifRecord[]; securities: Map<string, string>; sawHeader: boolean } {
  const records: QifRecord[] = [];
  const securities = new Map<string, string>();
  let section = '';
  let account: string | null = null;
  let sawHeader = false;
  let current: QifRecord | null = null;
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  lines.forEach((raw, index) => {
    const line = raw.trim();
    if (!line) return;
    if (line.startsWith('!')) {
      const header = /^!Type:(.*)$/i.exec(line);
      if (header) {
        section = header[1].trim().toLowerCase();
        sawHeader = true;
      } else if (/^!Account$/i.test(line)) section = 'account';
      current = null;
      return;
    }
    // The record ends at a line whose code is ^, whatever follows it: Quicken-era files end records with `^^`.
    if (line.startsWith('^')) {
      if (current && section === 'account' && current.fields.get('N')) account = current.fields.get('N')!;
      else if (current && section === 'security' && current.fields.get('N')) {
        securities.set(current.fields.get('N')!, current.fields.get('S') || current.fields.get('N')!);
      } else if (current && TRANSACTION_SECTIONS.has(section)) records.push(current);
      current = null;
      return;
    }
    current ??= { section, account, line: index + 1, fields: new Map(), splits: [], repeats: [] };
    // Quicken's invoice extensions are two-letter codes (XA, XI, ...), each its own field.
    const code = line[0] === 'X' ? line.slice(0, 2) : line[0];
    const value = line.slice(code.length).trim();
    const inTransactions = TRANSACTION_SECTIONS.has(section); // in the Security list, S is the ticker
    const part = current.splits.at(-1);
    if (code === 'S' && inTransactions) current.splits.push({ category: value, memo: '', amount: '' });
    else if (code === 'E' && inTransactions && part) part.memo = joinLines(part.memo, value);
    else if (code === '$' && inTransactions && part) {
      if (part.amount && part.amount !== value) {
        current.repeats.push(`split ${current.splits.length} gives its amount ($) twice, '${shownValue(part.amount)}' and '${shownValue(value)}' (line ${index + 1})`);
      } else part.amount = value;
    } else if (code === 'M' || code === 'A') current.fields.set(code, joinLines(current.fields.get(code) ?? '', value));
    else if (!current.fields.has(code)) current.fields.set(code, value);
    else if (current.fields.get(code) !== value) {
      // Most often two records run together because the ^ between them is missing or unreadable.
      const field = FIELD_NAMES[code] ? `the ${FIELD_NAMES[code]} (${code})` : `field ${code}`;
      current.repeats.push(`the record gives ${field} twice, '${shownValue(current.fields.get(code)!)}' and '${shownValue(value)}' (line ${index + 1}): is the ^ ending a record missing?`);
    }
  });
  if (current && TRANSACTION_SECTIONS.has(section)) records.push(current);
  return { records, securities, sawHeader };
}

/**
 * `6/ 4'20` -> `6/4/2020`: Quicken writes the year after an apostrophe, two-digit, and pads with spaces (`1/ 5' 4`
 * is 2004: the padded digit is the year's last).
 */
export function normalizeQifDate(raw: string, today: Date): string {
  let date = raw.replace(/\s+/g, '');
  const apostrophe = /^(\d{1,2})([/.-])(\d{1,2})'(\d{1,4})$/.exec(date);
  if (apostrophe) date = `${apostrophe[1]}${apostrophe[2]}${apostrophe[3]}${apostrophe[2]}${apostrophe[4].padStart(2, '0')}`;
  const shortYear = /^(\d{1,2})([/.-])(\d{1,2})\2(\d{2})$/.exec(date);
  if (shortYear) {
    let year = 2000 + Number(shortYear[4]);
    if (year > today.getUTCFullYear()) year -= 100;
    date = `${shortYear[1]}${shortYear[2]}${shortYear[3]}${shortYear[2]}${year}`;
  }
  return date;
}

/** The layout that parses the most of the file's dates; ties go to the earlier (US) layout. */
export const detectQifDateLayout = (samples: string[]): string => detectDateLayout(samples, DATE_LAYOUTS);

/** `Parent:Child/Tag1:Tag2` -> category and tags; `[Account]` is a transfer and `--Split--` no category. */
function categoryAndTags(raw: string | undefined): { category: string | null; tags: string[]; transferTo: string | null } {
  const value = (raw ?? '').trim();
  if (!value || value === '--Split--') return { category: null, tags: [], transferTo: null };
  const transfer = /^\[(.*)\]$/.exec(value);
  if (transfer) return { category: null, tags: [], transferTo: transfer[1].trim() || null };
  const [category, classes = ''] = value.split('/', 2);
  return { category: category.trim() || null, tags: classes.split(':').map((t) => t.trim()).filter(Boolean), transferTo: null };
}

/** Parses a QIF file into rows; records without a valid date or amount become rows with errors, not silent drops. */
export function parseQif(text: string, opts: BankStatementOptions): ParsedImport {
  const { records, securities, sawHeader } = readRecords(text);
  if (!sawHeader) return { rows: [], fileErrors: ['The file is not QIF: it has no !Type: header'], errorCode: 'invalid_qif' };
  if (!records.length) return { rows: [], fileErrors: ['The QIF file has no transactions'], errorCode: 'invalid_qif' };
  // The import publishes into one account: another account's transactions would be filed in it.
  const accounts = [...new Set(records.flatMap((r) => r.account ?? []))];
  if (accounts.length > 1) {
    const named = accounts.slice(0, 5).map((a) => `'${shownValue(a)}'`).join(', ');
    const message = `The QIF file holds transactions of ${accounts.length} accounts (${named}${accounts.length > 5 ? ', …' : ''}); export each account to its own file and import it into its account`;
    return { rows: [], fileErrors: [message], errorCode: 'invalid_qif' };
  }
  // Without !Account blocks, sections of different types (Bank, then Invst) are as surely different accounts.
  const types = [...new Set(records.map((r) => TRANSACTION_SECTIONS.get(r.section)!))];
  if (types.length > 1) {
    const message = `The QIF file holds transactions of ${types.length} account types (${types.join(', ')}); export each account to its own file and import it into its account`;
    return { rows: [], fileErrors: [message], errorCode: 'invalid_qif' };
  }
  // A split record becomes the row of its total and a row per part: counted before any row is built.
  const rowCount = records.reduce((n, r) => n + (r.section === 'invst' ? investmentRowCount(r) : bankRowCount(r)), 0);
  if (rowCount > opts.maxRows) {
    return { rows: [], fileErrors: [`The file has ${rowCount} rows; at most ${opts.maxRows} can be stored for one import`], errorCode: 'too_many_rows' };
  }
  const dates = records.map((r) => normalizeQifDate(r.fields.get('D') ?? '', opts.today));
  const layout = detectQifDateLayout(dates.filter(Boolean).slice(0, 200));
  const rows: ParsedRow[] = [];
  records.forEach((record, i) => {
    const rowNumber = rows.length + 1;
    // The record's problems; a split record's rows each name their own row number.
    const problems: string[] = [...record.repeats];
    const errorsOf = (n: number, extra: string[] = []) => [...problems, ...extra].map((p) => `Row ${n} (line ${record.line}): ${p}`);
    const date = dates[i] ? parseDate(dates[i], layout) : null;
    // Rows may be dated from 30 years ago up to today, as in every import format.
    const outside = date && outsideDateRange(date, opts.today);
    if (!date) problems.push(`date '${record.fields.get('D') ?? ''}' is missing or not a date`);
    else if (outside) problems.push(`date ${outside}`);
    const rawDate = record.fields.get('D');
    const base: RowBase = { date, ...(!date && rawDate ? { raw_date: rawDate } : {}), currency: opts.defaultCurrency, account: null };
    if (record.section === 'invst') {
      const trade = investmentRow(record, rowNumber, base, securities, errorsOf(rowNumber));
      rows.push(trade);
      if (Object.hasOwn(REINVESTED, actionOf(record))) rows.push(reinvestedIncome(record, trade, rows.length + 1, errorsOf));
      const transferAccount = xTransferAccount(record);
      if (transferAccount) rows.push(xTransferRow(record, trade, rows.length + 1, errorsOf, transferAccount));
      return;
    }
    const total = totalOf(record);
    // The total's own problems: on the row of the total (a split's parent), not on its parts.
    const totalProblems = total === null ? [`amount '${record.fields.get('T') ?? ''}' is missing or not a number`] : finer('amount (T)', total, base.currency);
    const payee = record.fields.get('P') ?? '';
    const memo = record.fields.get('M') || null;
    if (payee.toLowerCase() === 'opening balance') {
      // The account's balance on that date: stored as a valuation, not as income.
      rows.push({ sourceRowNumber: rowNumber, errors: errorsOf(rowNumber, totalProblems), values: { ...base, row_kind: 'opening_balance', amount: total, name: 'Opening balance', notes: memo } });
      return;
    }
    const { category, tags, transferTo } = categoryAndTags(record.fields.get('L'));
    const splits = splitsOf(record);
    const split = isSplit(record);
    const name = payee || (transferTo && !split ? `Transfer: ${transferTo}` : 'Imported item');
    const tooLong = nameProblem(name);
    if (tooLong) problems.push(tooLong);
    const transaction = (n: number, errors: string[], amount: string | null, row: Record<string, unknown>): ParsedRow => ({
      sourceRowNumber: n,
      errors: errorsOf(n, errors),
      values: { ...base, row_kind: 'transaction', amount: amount === null ? null : negateDecimal(amount), name, category, tags, notes: memo, transfer_account: transferTo, ...row },
    });
    if (split) {
      // A split transaction becomes the row of its total (published as the parent, excluded from totals) followed by
      // a row per part, so each part lands in its own category: parts that add up to other than T would lose (or
      // invent) the difference.
      const parts = splits.map((s) => parseStatementAmount(s.amount));
      const sum = parts.every((p) => p !== null) ? sumOf(parts as string[]) : null;
      const unequal = sum !== null && total !== null && !sameNumber(sum, total) ? [`the split amounts ($) add up to ${sum}, not the total ${total} (T)`] : [];
      rows.push(transaction(rowNumber, [...totalProblems, ...unequal], total, { split_count: splits.length }));
      splits.forEach((split, k) => {
        const part = categoryAndTags(split.category);
        const amount = parts[k];
        const n = rows.length + 1;
        const errors = amount === null ? [`split ${k + 1} amount '${split.amount}' is not a number`] : finer(`split ${k + 1} amount`, amount, base.currency);
        rows.push(transaction(n, errors, amount, {
          category: part.category,
          tags: part.tags,
          // M is the whole transaction's memo and E the part's: a part keeps both.
          notes: [memo, split.memo].filter(Boolean).join(' — ') || null,
          transfer_account: part.transferTo,
          split_of: rowNumber,
        }));
      });
      return;
    }
    rows.push(transaction(rowNumber, totalProblems, total, {}));
  });
  return { rows, fileErrors: [] };
}

/** A bank record's total: T, else U. */
const totalOf = (record: QifRecord): string | null => parseStatementAmount(record.fields.get('T') ?? record.fields.get('U'));

/** A bank record's split parts: its S lines with an amount ($). */
const splitsOf = (record: QifRecord) => record.splits.filter((s) => s.amount);

/** A record with parts and a total publishes as a split; parts without a total leave the record one row of no amount. */
const isSplit = (record: QifRecord): boolean => splitsOf(record).length > 0 && totalOf(record) !== null;

/** The rows a bank record becomes: a split's total and its parts, else one. */
const bankRowCount = (record: QifRecord): number => (isSplit(record) ? 1 + splitsOf(record).length : 1);

/** The problem, as a list, when an amount has more decimals than the import's currency stores (minor units would round it). */
const finer = (column: string, amount: string, currency: string): string[] => {
  const problem = minorUnitError(column, amount, currency);
  return problem ? [problem] : [];
};

/** Why a name cannot be stored (longer than an entry's name holds), or null. */
const nameProblem = (name: string): string | null => lengthError('name', name, MAX_CHARS.entryName, 'transaction names');

/**
 * Why a commission (O) cannot be part of the trade's total (T), or null: a buy's T is qty x price + O, so O is at most
 * T; a sell's is qty x price - O, so O is at most qty x price, known from a stated I only (a price worked out
 * from T already allows for O).
 */
function commissionError(fee: string, cash: string, sell: boolean, qty: string | null, statedPrice: string | null): string | null {
  const beyond = feeBeyondTrade(fee, { sell, amount: cash, qty, price: statedPrice });
  if (beyond === 'amount') return `commission ${fee} (O) is more than the total ${cash} (T), which includes it`;
  if (beyond === 'qty x price') return `commission ${fee} (O) is more than qty x price (${qty!.replace(/^-/, '')} x ${statedPrice}), from which it is taken to give the total ${cash} (T)`;
  return null;
}

/** An investment record's action (N), lower case. */
const actionOf = (record: QifRecord) => (record.fields.get('N') ?? '').toLowerCase();

type ErrorsOf = (n: number, extra?: string[]) => string[];

/** The cash a row moves (positive = out, as rows are signed): its amount (T), else a trade's qty x price, signed by qty. */
function cashOf(row: ParsedRow): string | null {
  const { qty = null, price = null, amount = null } = row.values as Record<string, string | null | undefined>;
  if (amount !== null) return amount;
  if (qty === null || price === null) return null;
  const traded = productOf([qty, price]);
  return qty.startsWith('-') ? negateDecimal(traded) : traded;
}

/**
 * The transaction, as the row after an investment record's own, that moves the record's cash the other way, so the
 * account's cash stays as it was: `what` names it in the error when that cash is unknown.
 */
function offsettingRow(record: QifRecord, own: ParsedRow, rowNumber: number, errorsOf: ErrorsOf, what: string, name: (amount: string | null) => string, transferAccount: string | null): ParsedRow {
  const cash = cashOf(own);
  const amount = cash === null ? null : negateDecimal(cash);
  return {
    sourceRowNumber: rowNumber,
    errors: errorsOf(rowNumber, amount === null ? [`${what} is unknown: it needs T, or Q and I`] : []),
    values: {
      date: own.values.date,
      currency: own.values.currency,
      account: null,
      row_kind: 'transaction',
      amount,
      name: name(amount),
      category: null,
      tags: [],
      notes: record.fields.get('M') || null,
      transfer_account: transferAccount,
      // Published with the record's own row, or not at all (skip_rows).
      record_of: own.sourceRowNumber,
    },
  };
}

/** The income a reinvestment record (ReinvDiv, ...) paid its buy with: the buy's cash, coming in. */
const reinvestedIncome = (record: QifRecord, trade: ParsedRow, rowNumber: number, errorsOf: ErrorsOf): ParsedRow =>
  offsettingRow(record, trade, rowNumber, errorsOf, 'the reinvested income', () => CASH_ACTIONS[REINVESTED[actionOf(record)]].name(String(trade.values.ticker ?? '')), null);

/** The rows an investment record becomes: its action, the income a reinvestment paid with, an X form's transfer. */
const investmentRowCount = (record: QifRecord) => 1 + Number(Object.hasOwn(REINVESTED, actionOf(record))) + Number(xTransferAccount(record) !== null);

/** The account an X form's cash came from or went to (L[Checking]), or null: not an X form, or it names none. */
const xTransferAccount = (record: QifRecord): string | null =>
  isXForm(actionOf(record)) ? categoryAndTags(record.fields.get('L')).transferTo : null;

/**
 * An X form (BuyX, SellX, DivX, MargIntX, ...) leaves the investment account's cash as it was: a buy or an expense
 * was paid from the account L names, a sale or income went to it. The record becomes its action and the cash
 * transfer from or to `account` that brought that money in or took it out again (its bank side is the same
 * transfer, in that account's file).
 */
const xTransferRow = (record: QifRecord, action: ParsedRow, rowNumber: number, errorsOf: ErrorsOf, account: string): ParsedRow =>
  offsettingRow(record, action, rowNumber, errorsOf, 'the cash transferred', (amount) => CASH_ACTIONS[amount?.startsWith('-') ? 'xin' : 'xout'].name(''), account);

/** A trade row: QIF names securities by ticker (or name) only, never by exchange. */
const tradeRow = (rowNumber: number, errors: string[], base: RowBase, trade: Record<string, string | null>): ParsedRow => ({
  sourceRowNumber: rowNumber,
  errors,
  values: { ...base, row_kind: 'trade', exchange_operating_mic: null, ...trade },
});

/** A trade or transfer needs its security (Y); without a !Type:Security list its name stands for the ticker, which holds 30 characters. */
function checkSecurity(ticker: string, what: string, where: string, errors: string[]): void {
  if (!ticker) errors.push(`${where}: the ${what} names no security (Y)`);
  const long = lengthError('security', ticker, MAX_CHARS.ticker, 'tickers');
  if (long) errors.push(`${where}: ${long}; list it with its ticker in a !Type:Security section`);
}

function investmentRow(record: QifRecord, rowNumber: number, base: RowBase, securities: Map<string, string>, errors: string[]): ParsedRow {
  const action = actionOf(record);
  const securityName = record.fields.get('Y') ?? '';
  const ticker = (securities.get(securityName) ?? securityName).toUpperCase();
  const where = `Row ${rowNumber} (line ${record.line})`;
  if (BUY_ACTIONS.has(action) || SELL_ACTIONS.has(action)) {
    const qty = parseStatementAmount(record.fields.get('Q'));
    const total = parseStatementAmount(record.fields.get('T') ?? record.fields.get('U'));
    const statedPrice = parseStatementAmount(record.fields.get('I'));
    // The commission (O) is already in T; it is kept apart as the trade's fee. A trade without one paid none.
    const commission = record.fields.get('O');
    const fee = commission ? parseStatementAmount(commission) : '0';
    const sell = SELL_ACTIONS.has(action);
    let price = statedPrice;
    if (price === null && qty !== null && total !== null && Number(qty) !== 0) {
      // Without I, the price is what T paid per share before the commission: a buy's T includes it, a sell's lacks it.
      const beforeCommission = Math.abs(Number(total)) + (sell ? 1 : -1) * Math.abs(Number(fee ?? 0));
      price = (Math.max(beforeCommission, 0) / Math.abs(Number(qty))).toFixed(8).replace(/\.?0+$/, '');
    }
    checkSecurity(ticker, 'trade', where, errors);
    if (qty === null) errors.push(`${where}: quantity '${record.fields.get('Q') ?? ''}' is missing or not a number`);
    if (total !== null) errors.push(...finer('amount (T)', total, base.currency).map((p) => `${where}: ${p}`));
    if (price === null) errors.push(`${where}: price '${record.fields.get('I') ?? ''}' is missing or not a number`);
    // Only a stated I can be negative (T / Q is worked out from magnitudes); zero is a trade: shares granted or moved in at no cost.
    else if (price.startsWith('-')) errors.push(`${where}: ${negativeError('price', record.fields.get('I') ?? price)}`);
    // What trades and entries hold, as for CSV trades; with T the entry's amount is T, not qty x price.
    else {
      const tooLarge = tradeSizeError(total === null && qty !== null ? qty : '0', price);
      if (tooLarge) errors.push(`${where}: ${tooLarge}`);
    }
    const cash = total?.replace(/^-/, '') ?? null;
    if (fee === null) errors.push(`${where}: commission '${commission}' is not a number`);
    else if (fee.startsWith('-')) errors.push(`${where}: ${negativeError('commission', commission!)}`);
    else {
      // The fee is stored in minor units of the trade's currency, so a finer commission would be rounded.
      const invalid = minorUnitError('commission', fee, base.currency) ?? (commission && cash !== null ? commissionError(fee, cash, sell, qty, statedPrice) : null);
      if (invalid) errors.push(`${where}: ${invalid}`);
    }
    const magnitude = qty?.replace(/^-/, '') ?? null;
    return tradeRow(rowNumber, errors, base, {
      ticker,
      qty: magnitude === null ? null : sell ? negateDecimal(magnitude) : magnitude,
      price,
      fee,
      // The cash the trade moved (T), commission included: a buy's is an outflow. Without T, qty x price.
      amount: cash === null ? null : sell ? negateDecimal(cash) : cash,
      name: `${sell ? 'Sell' : 'Buy'} ${magnitude ?? ''} ${ticker}`.replace(/\s+/g, ' ').trim(),
    });
  }
  if (Object.hasOwn(SHARE_TRANSFERS, action)) return shareTransferRow(record, SHARE_TRANSFERS[action], ticker, where, rowNumber, base, errors);
  if (action === 'stksplit') return splitRow(record, ticker, where, rowNumber, base, errors);
  const cash = Object.hasOwn(CASH_ACTIONS, action) ? CASH_ACTIONS[action] : undefined;
  const total = parseStatementAmount(record.fields.get('T') ?? record.fields.get('U'));
  if (!cash) errors.push(`${where}: investment action '${record.fields.get('N') ?? ''}' is not supported`);
  // An action not read has no amount to check.
  else if (total === null) errors.push(`${where}: amount '${record.fields.get('T') ?? ''}' is missing or not a number`);
  else errors.push(...finer('amount (T)', total, base.currency).map((p) => `${where}: ${p}`));
  const magnitude = total?.replace(/^-/, '') ?? null;
  const name = cash?.name(ticker) ?? (record.fields.get('P') || 'Imported item');
  const tooLong = nameProblem(name);
  if (tooLong) errors.push(`${where}: ${tooLong}`);
  return {
    sourceRowNumber: rowNumber,
    errors,
    values: {
      ...base,
      row_kind: 'transaction',
      amount: magnitude === null ? null : cash?.inflow ? negateDecimal(magnitude) : magnitude,
      name,
      category: null,
      tags: [],
      notes: record.fields.get('M') || null,
      // Cash moved from or to another account (XIn/XOut L[Checking]) is a transfer, as on the bank side of it; an X
      // form's income or expense is not (its transfer is the row after it).
      transfer_account: isXForm(action) ? null : categoryAndTags(record.fields.get('L')).transferTo,
    },
  };
}

/**
 * ShrsIn/ShrsOut: the shares (Q) change hands at their cost per share (I, else T / Q, else 0) and no cash moves, so
 * the trade's amount is 0; labelled Transfer, not Buy or Sell.
 */
function shareTransferRow(
  record: QifRecord,
  transfer: (typeof SHARE_TRANSFERS)[string],
  ticker: string,
  where: string,
  rowNumber: number,
  base: RowBase,
  errors: string[],
): ParsedRow {
  const qty = parseStatementAmount(record.fields.get('Q'))?.replace(/^-/, '') ?? null;
  const basis = parseStatementAmount(record.fields.get('T') ?? record.fields.get('U'))?.replace(/^-/, '') ?? null;
  const stated = record.fields.get('I');
  let price = stated === undefined ? null : parseStatementAmount(stated);
  if (stated === undefined) price = basis !== null && qty !== null && Number(qty) !== 0 ? (Number(basis) / Number(qty)).toFixed(8).replace(/\.?0+$/, '') : '0';
  checkSecurity(ticker, 'transfer', where, errors);
  if (qty === null) errors.push(`${where}: quantity '${record.fields.get('Q') ?? ''}' is missing or not a number`);
  if (price === null) errors.push(`${where}: price '${stated}' is not a number`);
  else if (price.startsWith('-')) errors.push(`${where}: ${negativeError('price', stated ?? price)}`);
  else {
    const tooLarge = tradeSizeError(qty ?? '0', price);
    if (tooLarge) errors.push(`${where}: ${tooLarge}`);
  }
  return tradeRow(rowNumber, errors, base, {
    ticker,
    qty: qty === null ? null : `${transfer.sign}${qty}`,
    price,
    fee: '0',
    amount: '0',
    activity_label: 'Transfer',
    name: `${transfer.name} ${qty ?? ''} ${ticker}`.replace(/\s+/g, ' ').trim(),
  });
}

/**
 * StkSplit: Quicken states the split as new shares per 10 old ones (Q20 is 2 for 1, Q5 is 1 for 2). The row keeps
 * the ratio; publishing turns it into a trade of the shares the split adds (or removes) at no cost: the holding as
 * recorded on that day times ratio - 1 (row_kind split).
 */
function splitRow(record: QifRecord, ticker: string, where: string, rowNumber: number, base: RowBase, errors: string[]): ParsedRow {
  const per10 = parseStatementAmount(record.fields.get('Q'));
  checkSecurity(ticker, 'split', where, errors);
  // From 1 for 1,000 to 1,000 for 1: a ratio beyond that is a misread number, and would overflow the holding.
  const valid = per10 !== null && Number(per10) >= 0.01 && Number(per10) <= 10_000;
  if (!valid) errors.push(`${where}: split ratio '${record.fields.get('Q') ?? ''}' (Q, new shares per 10 old) must be a number from 0.01 to 10000`);
  // Exact, as Q is written: a tenth of it.
  const ratio = valid ? productOf([per10, '0.1']) : null;
  return {
    sourceRowNumber: rowNumber,
    errors,
    values: { ...base, row_kind: 'split', ticker, exchange_operating_mic: null, ratio, name: `Split ${ratio ?? '?'} for 1 ${ticker}`.trim(), notes: record.fields.get('M') || null },
  };
}
