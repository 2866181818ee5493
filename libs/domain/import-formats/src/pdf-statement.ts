import { detectDateLayout, lengthError, MAX_CHARS, minorUnitError, negateDecimal, parseDate, parseStatementAmount } from './cells';
import { outsideDateRange, type ParsedImport, type ParsedRow } from './csv-import';

// Bank and credit-card statements as positioned text (what a PDF text layer holds): find the transaction table by
// its header row, then read each dated line's description and money columns. No guessing from free text: a
// statement without a recognisable table is refused, so a user never publishes rows we made up.

export interface PositionedText {
  text: string;
  page: number;
  /** Left edge and baseline in PDF units (y grows upwards). */
  x: number;
  y: number;
  width: number;
  /** The font size the item is drawn at, in PDF units (absent in statements read before it was recorded). */
  fontSize?: number;
}

export interface StatementOptions {
  maxRows: number;
  defaultCurrency: string;
  today: Date;
}

type MoneyColumn = 'debit' | 'credit' | 'amount' | 'balance';

const HEADER_WORDS: Array<[RegExp, MoneyColumn | 'date' | 'description']> = [
  [/^(date|posting date|transaction date|booking date|trans\.? date|value date)$/, 'date'],
  [/^(description|details|transaction|narrative|particulars|payee|merchant)$/, 'description'],
  [/^(debit|debits|withdrawal|withdrawals|money out|paid out|charges?|out)$/, 'debit'],
  [/^(credit|credits|deposit|deposits|money in|paid in|payments?|in)$/, 'credit'],
  [/^(amount|amount \(\w{3}\)|sum)$/, 'amount'],
  [/^(balance|running balance)$/, 'balance'],
];

const DATE_LAYOUTS = ['%m/%d/%Y', '%d/%m/%Y', '%d.%m.%Y', '%Y-%m-%d', '%d-%m-%Y', '%m-%d-%Y', '%d %b %Y', '%b %e, %Y', '%b %e %Y', '%d/%m/%y', '%m/%d/%y'];
/**
 * A line that sums up the table (totals, balances brought or carried forward or down, also as B/F, C/F, B/D, C/D, a
 * US "beginning balance" or "balance forward", a "money in / money out" box under it): without a date, not a
 * transaction of the day above it; with one, no transaction either unless it has an amount.
 */
const SUMMARY =
  /^(?:sub-?)?totals?\b|^(?:opening|closing|previous|new|starting|beginning|ending) balance\b|^balance forward\b|^(?:balance )?(?:(?:brought|carried) (?:forward|down)\b|[bc]\/[fd](?![\w/]))|^(?:money|payments?|paid) (?:in|out)\b/i;
/**
 * How a line under the end of the table sums up the period (fees or interest charged, a summary box). Only there: in
 * the table, "Interest charged" is a transaction.
 */
const PERIOD_SUMMARY = /\bsummary\b|^(?:fees?|interest|charges?) charged\b|\b(?:this|the) (?:period|statement)\b/i;
/** Most units from one line of a table to the next (a wrapped line, the next row) on a page printed at 14 or closer. */
const LINE_STEP = 20;
/**
 * A wrapped line that labels what it holds ("From: *8888", "Card: 4242…", "To: ACME, Paris", "Ref.: 0042") gives a
 * detail of the transaction, not more of its name: it goes to the row's notes, and so do the wrapped lines under it.
 */
const DETAIL_LINE = /^\p{L}[\p{L}\p{N} .'/-]{0,30}:(?:\s|$)/u;
const MONEY = /^\(?[-+]?(?:[$€£¥]|[A-Z]{3})?\s?\d{1,3}(?:[,.'\u2019\s\u00a0]?\d{3})*(?:[.,]\d{1,2})?\)?(?:\s?(?:CR|DR|-))?$/i;

interface Cell {
  text: string;
  left: number;
  right: number;
}

interface Line {
  page: number;
  y: number;
  cells: Cell[];
}

interface Column {
  kind: MoneyColumn;
  left: number;
  right: number;
}

/** A transaction read from the table, before its cells are checked. */
interface Candidate {
  line: Line;
  /** The transaction's lowest line so far: its first, then each wrapped line joined to it. */
  last: Line;
  columns: Column[];
  /** The text of its date cell, or of the dated row above it for a row printed without one (null when there is none). */
  date: string | null;
  description: string[];
  /** Its wrapped detail lines, from the first that labels what it holds. */
  details: string[];
  money: Cell[];
  /** A dated line with nothing in the money columns, whose amount may be printed on a wrapped line below it. */
  awaitingAmount: boolean;
  /** An undated amount under the end of the table, which takes no date from the rows above it. */
  apart: boolean;
}

/**
 * The widest gap between two items of one line that is still the space between words: a space is 0.25 to 0.6 em in
 * common fonts (0.6 in monospaced ones), and columns stand further apart. PDFs that draw one item per word (with the
 * spaces as items of their own) leave exactly that gap. Without a font size, 3 units: a space at 9 to 11 points.
 */
const WORD_GAP_EM = 0.7;
const WORD_GAP_UNITS = 3;
/** A smaller gap is kerning or rounding, not a space: the words touch. */
const SPACE_EM = 0.12;
const SPACE_UNITS = 1;

/** Items on one baseline (within 2.5 units) form a line; items a word space apart or closer merge into one cell. */
function readLines(items: PositionedText[]): Line[] {
  const sorted = items.filter((i) => i.text.trim()).sort((a, b) => a.page - b.page || b.y - a.y || a.x - b.x);
  const lines: Line[] = [];
  let previous: PositionedText | null = null;
  for (const item of sorted) {
    let line = lines[lines.length - 1];
    if (!line || line.page !== item.page || Math.abs(line.y - item.y) > 2.5) {
      line = { page: item.page, y: item.y, cells: [] };
      lines.push(line);
      previous = null;
    }
    const last = line.cells[line.cells.length - 1];
    const gap = last ? item.x - last.right : 0;
    // The larger of the two fonts: a word in a smaller font (a currency sign, a superscript) takes the text's spacing.
    const fontSize = Math.max(item.fontSize ?? 0, previous?.fontSize ?? 0);
    const wordGap = fontSize ? WORD_GAP_EM * fontSize : WORD_GAP_UNITS;
    const spaced = gap > (fontSize ? SPACE_EM * fontSize : SPACE_UNITS);
    if (last && gap < wordGap) {
      last.text = `${last.text}${spaced ? ' ' : ''}${item.text.trim()}`;
      last.right = item.x + item.width;
    } else line.cells.push({ text: item.text.trim(), left: item.x, right: item.x + item.width });
    previous = item;
  }
  for (const line of lines) line.cells.sort((a, b) => a.left - b.left);
  return lines;
}

/**
 * Most units from one line of a table to the next on each page (a wrapped line, the next row): further down is a
 * gap. LINE_STEP, or 1.4 times the page's usual line pitch (the median distance between its lines) when that is more:
 * a statement printed large or widely spaced reads like one printed small.
 */
function lineSteps(lines: Line[]): Map<number, number> {
  const gaps = new Map<number, number[]>();
  lines.forEach((line, i) => {
    const above = lines[i - 1];
    if (above?.page !== line.page) return;
    const distances = gaps.get(line.page) ?? [];
    distances.push(above.y - line.y);
    gaps.set(line.page, distances);
  });
  const steps = new Map<number, number>();
  for (const [pageNumber, distances] of gaps) {
    const sorted = distances.sort((a, b) => a - b);
    steps.set(pageNumber, Math.max(LINE_STEP, 1.4 * sorted[Math.floor(sorted.length / 2)]));
  }
  return steps;
}

/** The money columns a header line announces, or null when the line is not a transaction-table header. */
function headerColumns(line: Line): Column[] | null {
  const kinds = line.cells.map((cell) => HEADER_WORDS.find(([pattern]) => pattern.test(cell.text.toLowerCase()))?.[1]);
  if (!kinds.includes('date')) return null;
  const columns = line.cells
    .map((cell, i) => ({ kind: kinds[i], left: cell.left, right: cell.right }))
    .filter((c): c is Column => c.kind === 'debit' || c.kind === 'credit' || c.kind === 'amount' || c.kind === 'balance');
  const hasMoney = columns.some((c) => c.kind !== 'balance');
  return hasMoney ? columns : null;
}

/**
 * A line's money (numbers that start in the money columns) and description (any other text, wherever it ends: a long
 * description runs into an empty money cell, and a reference number stands before the money columns). A CR or DR
 * printed as its own item right after a number marks that number, as in `125.00 CR`; the number's edges still say
 * its column.
 */
function splitMoney(cells: Cell[], moneyLeft: number): { money: Cell[]; description: Cell[] } {
  const money: Cell[] = [];
  const description: Cell[] = [];
  for (const [i, cell] of cells.entries()) {
    const before = money[money.length - 1];
    const marked = before && before === cells[i - 1] && /^(CR|DR)$/i.test(cell.text) ? `${before.text} ${cell.text}` : null;
    if (cell.left > moneyLeft && MONEY.test(cell.text)) money.push(cell);
    else if (marked && MONEY.test(marked)) money[money.length - 1] = { ...before, text: marked };
    else description.push(cell);
  }
  return { money, description };
}

/** The column a number belongs to: the one its left or right edge lines up with best (amounts are often right-aligned). */
function columnOf(cell: Cell, columns: Column[]): Column {
  const distance = (c: Column) => Math.min(Math.abs(cell.left - c.left), Math.abs(cell.right - c.right), Math.abs((cell.left + cell.right) / 2 - (c.left + c.right) / 2));
  return columns.reduce((best, c) => (distance(c) < distance(best) ? c : best));
}

/**
 * Reads the transaction table of a text-based statement into transaction rows (positive = money leaving the
 * account). Debit/credit columns say the direction; a single amount column is signed as printed, except on credit
 * card statements, where a positive amount is a charge.
 */
export function parsePdfStatement(items: PositionedText[], opts: StatementOptions): ParsedImport {
  const refuse = (message: string): ParsedImport => ({ rows: [], fileErrors: [message], errorCode: 'unsupported_pdf' });
  if (!items.some((i) => i.text.trim())) {
    return refuse('The PDF has no text layer (a scanned statement?). Only text-based statements can be read; export a CSV or QIF from your bank instead.');
  }
  const lines = readLines(items);
  const steps = lineSteps(lines);
  const lineStep = (line: Line) => steps.get(line.page) ?? LINE_STEP;
  const candidates: Candidate[] = [];
  let columns: Column[] | null = null;
  let headerLine: Line | null = null;
  // Many statements print the date on a day's first row only: the later rows of the day take it. A header with other
  // columns starts another table, which takes no date from this one; a header repeated on the next page does not.
  let dayDate: string | null = null;
  // What the statement prints before its first table: its title and account details.
  const preamble: Line[] = [];
  // The table's lowest line so far: its header, a dated line or a row's. A summary line is not the table's.
  let tableBottom: Line | null = null;
  for (const line of lines) {
    const header = headerColumns(line);
    if (header) {
      if (!columns || header.map((c) => c.kind).join() !== columns.map((c) => c.kind).join()) dayDate = null;
      columns = header;
      headerLine = line;
      tableBottom = line;
      continue;
    }
    if (!columns) {
      preamble.push(line);
      continue;
    }
    const table = columns;
    const moneyLeft = Math.min(...columns.map((c) => c.left)) - 10;
    const [first, ...rest] = line.cells;
    const dated = looksLikeDate(first.text);
    const { money: moneyCells, description: descriptionCells } = splitMoney(dated ? rest : line.cells, moneyLeft);
    const hasAmount = moneyCells.some((c) => columnOf(c, table).kind !== 'balance');
    const description = descriptionCells.map((c) => c.text);
    const summary = SUMMARY.test(description.join(' '));
    const previous = candidates[candidates.length - 1];
    // The line a wrapped description continues from: the transaction's lowest line on this page or, when the
    // transaction ended the page before, this page's repeated header (the page's title lines above it are not the
    // description's). Measured from the line above, not the first: a description wrapped over three lines or more
    // is as far from its first line as the next row is.
    const above =
      previous?.last.page === line.page ? previous.last : previous?.last.page === line.page - 1 && headerLine?.page === line.page ? headerLine : null;
    const wrapped = !dated && above !== null && above.y - line.y < lineStep(line);
    if (wrapped && !moneyCells.length) {
      const text = line.cells.map((c) => c.text);
      if (previous.details.length || DETAIL_LINE.test(text.join(' '))) previous.details.push(text.join(' '));
      else previous.description.push(...text);
      previous.last = line;
      if (!previous.apart) tableBottom = line;
      continue;
    }
    if (wrapped && previous.awaitingAmount && hasAmount && !summary) {
      // The amount of a dated line printed on its wrapped line below it: one row, described by both.
      previous.description.push(...description);
      previous.money = moneyCells;
      previous.columns = table;
      previous.last = line;
      previous.awaitingAmount = false;
      tableBottom = line;
      continue;
    }
    const inMoneyColumns = rest.some((c) => c.left > moneyLeft);
    if (dated && summary && !hasAmount) {
      // A dated balance line (brought forward, opening balance) is no transaction, but its date heads the day's rows,
      // and like any dated line it is the table's: the rows under it are no summary under the table's end.
      dayDate = first.text;
      tableBottom = line;
    } else if (dated && (inMoneyColumns || (rest.length && headerLine?.page === line.page))) {
      // A dated line with anything in the money columns is a row, reported when it holds no amount. One with a
      // description only, under the header, waits for its amount on a wrapped line below it.
      dayDate = first.text;
      candidates.push({ line, last: line, columns: table, date: dayDate, description, details: [], money: moneyCells, awaitingAmount: !inMoneyColumns, apart: false });
      tableBottom = line;
    } else if (dated && !rest.length && headerLine?.page === line.page) {
      // A date on a line of its own, under the header, heads the day's rows.
      dayDate = first.text;
      tableBottom = line;
    } else if (!dated && hasAmount && !summary) {
      // An amount without a date is a row of the day above it, or a row error when no row above it has a date: never
      // dropped. A line with only a balance (brought forward, carried over) is no transaction. Under the end of the
      // table (a gap: more than a line step under its lowest line on the page; a total line, skipped, leaves one),
      // statements print fees, interest or a summary box, and a transaction there may be one whose date was left out:
      // such an amount takes no date from the rows above it. It is skipped when it says it sums up the period, and is
      // a row error otherwise, since inventing or dropping a transaction is worse than a statement to check. A dated
      // line or a header starts the table again.
      const apart = tableBottom?.page === line.page && tableBottom !== headerLine && tableBottom.y - line.y > lineStep(line);
      if (!apart || !PERIOD_SUMMARY.test(description.join(' '))) {
        candidates.push({ line, last: line, columns: table, date: apart ? null : dayDate, description, details: [], money: moneyCells, awaitingAmount: false, apart });
        if (!apart) tableBottom = line;
      }
    }
  }
  // A dated line whose wrapped lines hold no amount either is a note (a day heading, a message), not a transaction.
  // No money is lost with it: an amount on any line of the table is a row.
  const transactions = candidates.filter((c) => !c.awaitingAmount);
  // The statement's title and details say it is a card's; a transaction ("Credit card payment") or an advert under
  // the table ("Apply for our credit card") does not.
  const creditCard = preamble.some((l) => l.cells.some((c) => /credit card/i.test(c.text)));
  if (!transactions.length) {
    return refuse('No transaction table was found: the statement needs a header row with a Date column and Amount or Debit/Credit columns.');
  }
  if (transactions.length > opts.maxRows) {
    return { rows: [], fileErrors: [`The statement has ${transactions.length} transactions; at most ${opts.maxRows} can be stored for one import`], errorCode: 'too_many_rows' };
  }
  const layout = detectDateLayout(transactions.flatMap((c) => (c.date === null ? [] : [c.date])), DATE_LAYOUTS);
  const rows: ParsedRow[] = transactions.map(({ line, columns: cols, date: dateText, description, details, money, apart }, i) => {
    const rowNumber = i + 1;
    const errors: string[] = [];
    const where = `Row ${rowNumber} (page ${line.page})`;
    const date = dateText === null ? null : parseDate(dateText, layout);
    const outside = date && outsideDateRange(date, opts.today);
    if (apart) errors.push(`${where}: the row has an amount but no date, and stands under the end of the table (after a gap or a total line), so it takes no date from the rows above it`);
    else if (dateText === null) errors.push(`${where}: the row has an amount but no date, and no row above it in its table has one`);
    else if (!date) errors.push(`${where}: date '${dateText}' does not match ${layout}`);
    else if (outside) errors.push(`${where}: date ${outside}`);
    let amount: string | null = null;
    for (const cell of money) {
      const column = columnOf(cell, cols);
      if (column.kind === 'balance') continue;
      const marker = /\b(CR|DR)$/i.exec(cell.text)?.[1]?.toUpperCase();
      const value = parseStatementAmount(cell.text.replace(/\s?(CR|DR)$/i, ''));
      if (value === null) continue;
      const magnitude = value.replace(/^-/, '');
      if (column.kind === 'debit') amount = magnitude;
      else if (column.kind === 'credit') amount = negateDecimal(magnitude);
      else if (marker) amount = marker === 'CR' ? negateDecimal(magnitude) : magnitude;
      else amount = creditCard ? value : negateDecimal(value);
    }
    if (amount === null) errors.push(`${where}: no amount was found in the debit, credit or amount columns`);
    const finer = amount === null ? null : minorUnitError('amount', amount.replace(/^-/, ''), opts.defaultCurrency);
    if (finer) errors.push(`${where}: ${finer}`);
    const name = description.join(' ').replace(/\s+/g, ' ').trim() || 'Imported item';
    const long = lengthError('description', name, MAX_CHARS.entryName, 'transaction names');
    if (long) errors.push(`${where}: ${long}`);
    return {
      sourceRowNumber: rowNumber,
      errors,
      values: {
        row_kind: 'transaction',
        date,
        // The date cell as printed, when it gave no date (shown with the row's error).
        ...(date === null && dateText ? { raw_date: dateText } : {}),
        amount,
        currency: opts.defaultCurrency,
        name,
        category: null,
        tags: [],
        notes: details.length ? details.join('; ') : null,
        account: null,
        transfer_account: null,
      },
    };
  });
  return { rows, fileErrors: [] };
}

function looksLikeDate(text: string): boolean {
  return DATE_LAYOUTS.some((layout) => parseDate(text, layout) !== null);
}
