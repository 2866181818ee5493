import { parseDecimal } from '@hearth/domain/money';
import type { BankStatementOptions } from './bank-statement';
import { detectDateLayout, lengthError, MAX_CHARS, minorUnitError, negateDecimal, parseDate, parseStatementAmount, shownValue } from './cells';
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


type MoneyColumn = 'debit' | 'credit' | 'amount' | 'balance';
type ColumnHint = MoneyColumn | 'date' | 'description';

/**
 * What a header's names say its columns hold. Hints only: a table is also found by its shape, and a money column
 * without a known name is told by whether its figures reconcile as a running balance.
 */
const HEADER_WORDS: Array<[RegExp, ColumnHint]> = [
  [/^(date|posting date|transaction date|booking date|trans\.? date|value date|completion time|datum|buchungstag|buchungsdatum|date d'op[ée]ration|date op[ée]ration|fecha|data)$/, 'date'],
  [/^(description|details|transaction|narrative|particulars|payee|merchant|verwendungszweck|buchungstext|beschreibung|libell[ée]|op[ée]ration|concepto)$/, 'description'],
  [/^(debit|debits|debit amount|withdrawal|withdrawals|withdrawn|money out|paid out|charges?|out|soll|belastung|lastschrift|ausgang|d[ée]bit)$/, 'debit'],
  [/^(credit|credits|credit amount|deposit|deposits|lodgements?|money in|paid in|payments?|in|haben|gutschrift|eingang|cr[ée]dit)$/, 'credit'],
  [/^(amount|sum|betrag|montant|importe|bedrag)$/, 'amount'],
  [/^(balance|running balance|saldo|kontostand|solde)$/, 'balance'],
];

/** The hint of a header cell's name, read without a currency or sign in brackets (`Amount (EUR)`, `Withdrawal (-)`). */
function hintOf(text: string): ColumnHint | undefined {
  const name = text
    .toLowerCase()
    .replace(/\s*\((?:[a-z]{3}|[^\p{L}\p{N}\s]{1,3})\)$/u, '')
    .replace(/[.:]$/, '')
    .trim();
  return HEADER_WORDS.find(([pattern]) => pattern.test(name))?.[1];
}

const DATE_LAYOUTS = ['%m/%d/%Y', '%d/%m/%Y', '%d.%m.%Y', '%Y-%m-%d', '%d-%m-%Y', '%m-%d-%Y', '%d %b %Y', '%b %e, %Y', '%b %e %Y', '%d/%m/%y', '%m/%d/%y', '%d.%m.%y'];
/** A time printed after a date in its cell (`2023-01-15 10:22:33`, as M-Pesa prints its Completion Time), or alone. */
const TIME = /(?:^|[\sT]+)\d{1,2}:\d{2}(?::\d{2})?(?:\s?[ap]\.?m\.?)?$/i;
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

/** A header line found by its names or its shape, with what each of its cells is above. */
interface Header {
  line: Line;
  /** The cell above the dates, whatever its name. */
  date: Cell;
  /** The cell above the descriptions, when the header names one. */
  description: Cell | null;
  /**
   * The other text columns (a receipt number, a status, a value date) when the header names its description column:
   * their cells go to the row's notes under the column's name, not into its name.
   */
  labels: Cell[];
  /** The cells above figures; a kind is null when the name does not say it, until the balance tells it. */
  money: Array<{ cell: Cell; kind: MoneyColumn | null }>;
  /** The lines under it on its page, each within a line step of the one above. */
  block: Line[];
  /** Header lines with the same names head one table, continued on other pages. */
  signature: string;
}

/** A header whose money columns are all known. */
interface Table {
  line: Line;
  date: Cell;
  description: Cell | null;
  labels: Cell[];
  columns: Column[];
  /**
   * Some money column was told by its figures, not its name: money out was told from in by the direction the balance
   * is taken to move (the statement's kind), which the check then keeps.
   */
  toldByBalance: boolean;
}

/** A transaction read from the table, before its cells are checked. */
interface Candidate {
  line: Line;
  /** The transaction's lowest line so far: its first, then each wrapped line joined to it. */
  last: Line;
  table: Table;
  /** The text of its date cell, or of the dated row above it for a row printed without one (null when there is none). */
  date: string | null;
  description: string[];
  /** Its wrapped detail lines, from the first that labels what it holds. */
  details: string[];
  /** Its cells in the header's other text columns, under their column's name. */
  labelled: Array<[string, string]>;
  money: Cell[];
  /** A dated line with nothing in the money columns, whose amount may be printed on a wrapped line below it. */
  awaitingAmount: boolean;
  /** An undated amount under the end of the table, which takes no date from the rows above it. */
  apart: boolean;
}

/** What the table holds, in the order printed: transactions, and lines that print only a balance (opening, totals). */
type Entry = { segment: number } & ({ candidate: Candidate } | { balance: Cell; label: string; table: Table });

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

/** The date printed in a cell, without a time after it. */
const withoutTime = (text: string): string => text.replace(TIME, '').trim();

function looksLikeDate(text: string): boolean {
  const date = withoutTime(text);
  return date !== '' && DATE_LAYOUTS.some((layout) => parseDate(date, layout) !== null);
}

/** A number as amounts are printed: with decimals or a currency sign (a reference number or a count has neither). */
const looksLikeAmount = (text: string): boolean =>
  MONEY.test(text) && /[.,]\d{1,2}\)?(?:\s?(?:CR|DR|-))?$|^\(?[-+]?(?:[$€£¥]|[A-Z]{3})/i.test(text);

/** The header cell a cell sits under: the one its left or right edge or its middle lines up with best. */
function nearest<T extends { left: number; right: number }>(cell: Cell, columns: T[]): T {
  const distance = (c: T) => Math.min(Math.abs(cell.left - c.left), Math.abs(cell.right - c.right), Math.abs((cell.left + cell.right) / 2 - (c.left + c.right) / 2));
  return columns.reduce((best, c) => (distance(c) < distance(best) ? c : best));
}

/** The column a number belongs to (amounts are often right-aligned). */
const columnOf = (cell: Cell, columns: Column[]): Column => nearest(cell, columns);

/**
 * The lines under a header on its page, each within a line step of the one above it; a header often stands a little
 * further from its first row (half a step more).
 */
function blockUnder(lines: Line[], index: number, lineStep: (line: Line) => number): Line[] {
  const block: Line[] = [];
  for (let j = index + 1; j < lines.length; j++) {
    const [above, line] = [lines[j - 1], lines[j]];
    if (line.page !== above.page || above.y - line.y >= lineStep(line) * (j === index + 1 ? 1.5 : 1)) break;
    block.push(line);
  }
  return block;
}

/** Whether a dated line stands right above a line (lines within a line step of each other): the line is in a table. */
function insideTable(lines: Line[], index: number, lineStep: (line: Line) => number): boolean {
  for (let j = index; j > 0; j--) {
    const [above, line] = [lines[j - 1], lines[j]];
    if (line.page !== above.page || above.y - line.y >= lineStep(line)) return false;
    if (above.cells.some((c) => looksLikeDate(c.text))) return true;
  }
  return false;
}

/** A line of two or more short names, without dates or figures: what a header looks like. */
const namesOnly = (line: Line): boolean =>
  line.cells.length >= 2 && line.cells.every((c) => c.text.length <= 40 && /\p{L}/u.test(c.text) && !MONEY.test(c.text) && !looksLikeDate(c.text));

/**
 * The cell above the dates when a line heads a table by its shape, whatever its names: a line of names (no dates, no
 * figures) right above dated lines (the first within three lines) whose dates sit under one of its cells and whose
 * figures sit under its others.
 */
function dateColumnByShape(line: Line, block: Line[]): Cell | null {
  const names = line.cells;
  const dated: Array<{ below: Line; date: Cell }> = [];
  for (const [k, below] of block.entries()) {
    const date = below.cells.find((c) => looksLikeDate(c.text));
    if (date) dated.push({ below, date });
    if (dated.length === 3 || (!dated.length && k >= 3)) break;
  }
  if (!dated.length) return null;
  const column = nearest(dated[0].date, names);
  let figures = 0;
  for (const { below, date } of dated) {
    if (nearest(date, names) !== column) return null;
    for (const cell of below.cells) {
      if (cell === date || cell.left <= date.left || !MONEY.test(cell.text)) continue;
      if (nearest(cell, names) === column) return null;
      figures++;
    }
  }
  return figures ? column : null;
}

/**
 * The statement's table headers: a line that names a date column and a money column, or one found by its shape. Its
 * money columns are the ones named so, and those without a known name that have amounts under them.
 */
function findHeaders(lines: Line[], lineStep: (line: Line) => number): Map<Line, Header> {
  const headers = new Map<Line, Header>();
  lines.forEach((line, i) => {
    // A line with a figure on it is a row, not a header (the test that spares reading every row's names).
    if (line.cells.some((c) => MONEY.test(c.text))) return;
    const hints = line.cells.map((c) => hintOf(c.text));
    const named = hints.includes('date') && hints.some((h) => h === 'debit' || h === 'credit' || h === 'amount');
    if (!named && !namesOnly(line)) return;
    const block = blockUnder(lines, i, lineStep);
    const date = named ? line.cells[hints.indexOf('date')] : insideTable(lines, i, lineStep) ? null : dateColumnByShape(line, block);
    if (!date) return;
    const amounts = new Map<Cell, number>();
    for (const below of block) {
      for (const cell of below.cells) {
        if (cell.left <= date.left || !looksLikeAmount(cell.text)) continue;
        const column = nearest(cell, line.cells);
        amounts.set(column, (amounts.get(column) ?? 0) + 1);
      }
    }
    const money = line.cells.flatMap((cell, k): Header['money'] => {
      const hint = hints[k];
      if (cell === date) return [];
      if (hint === 'debit' || hint === 'credit' || hint === 'amount' || hint === 'balance') return [{ cell, kind: hint }];
      return hint === undefined && amounts.get(cell) ? [{ cell, kind: null }] : [];
    });
    if (!money.length) return;
    const description = line.cells.find((c, k) => hints[k] === 'description' && c !== date) ?? null;
    const labels = description ? line.cells.filter((c) => c !== date && c !== description && !money.some((m) => m.cell === c)) : [];
    headers.set(line, { line, date, description, labels, money, block, signature: line.cells.map((c) => c.text).join('\u0000') });
  });
  return headers;
}

/** A balance as printed, with the CR or DR that some statements print after it. */
interface PrintedBalance {
  value: string;
  marker: 'CR' | 'DR' | null;
}

function printedBalance(cell: Cell | undefined): PrintedBalance | null {
  if (!cell) return null;
  const value = parseStatementAmount(cell.text.replace(/\s?(CR|DR)$/i, ''));
  const marker = /\b(CR|DR)$/i.exec(cell.text)?.[1]?.toUpperCase() as PrintedBalance['marker'] | undefined;
  return value === null ? null : { value, marker: marker ?? null };
}

/**
 * Which way the balance moves: 1 when it falls by what leaves the account (an account's own balance, in credit when
 * marked CR), -1 when it rises by it (a card's balance owed, in the holder's favour when marked CR).
 */
type Polarity = 1 | -1;

/** One line of a table as the balance check reads it: a row's amount (money out positive) and the balance printed. */
interface BalanceStep {
  /** The row's index among the transactions; null for a line that prints only a balance. */
  row: number | null;
  /** The row's amount; null when it has none (the balance it prints starts the check again). */
  change: string | null;
  balance: PrintedBalance | null;
  /** What a balance line says ("Opening balance", "Totals"). */
  label?: string;
}

interface BalanceMismatch {
  /** The row the error goes to: the one that prints the balance, or the last of the rows a balance line sums up. */
  row: number;
  printed: string;
  before: string;
  /** The rows whose amounts lead from the balance before to the printed one. */
  rows: number[];
  change: string;
  expected: string;
  label?: string;
}

interface BalanceCheck {
  newestFirst: boolean;
  polarity: Polarity;
  reconciled: number;
  mismatches: BalanceMismatch[];
}

/** Balance steps with their figures as integers of one scale, read once for every reading tried. */
interface ScaledSteps {
  scale: number;
  steps: Array<{ row: number | null; change: bigint | null; balance: { units: bigint; marker: PrintedBalance['marker'] } | null; label?: string }>;
}

function scaled(steps: BalanceStep[]): ScaledSteps {
  const decimals = (text: string) => text.length - 1 - text.indexOf('.');
  const figures = steps.flatMap((s) => [s.change, s.balance?.value].filter((f): f is string => f != null && f.includes('.')));
  const scale = Math.max(0, ...figures.map(decimals));
  const units = (text: string) => {
    const { unscaled, scale: own } = parseDecimal(text)!;
    return unscaled * 10n ** BigInt(scale - own);
  };
  return {
    scale,
    steps: steps.map(({ row, change, balance, label }) => ({
      row,
      change: change === null ? null : units(change),
      balance: balance && { units: units(balance.value), marker: balance.marker },
      label,
    })),
  };
}

/** An integer of the given scale as a decimal string ("-24599", 2: "-245.99"). */
function unscaledText(units: bigint, scale: number): string {
  const digits = (units < 0n ? -units : units).toString().padStart(scale + 1, '0');
  return `${units < 0n ? '-' : ''}${scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits}`;
}

/**
 * Checks each printed balance against the one printed before it (in time: the line above, or below on a statement
 * printed newest first) and the amounts of the rows between: a row without a printed balance is checked with the next
 * one that has it. After a mismatch the check goes on from the balance printed, so one wrong row is one error.
 */
function checkBalances({ scale, steps }: ScaledSteps, newestFirst: boolean, polarity: Polarity): BalanceCheck {
  let before: bigint | null = null;
  let change = 0n;
  let rows: number[] = [];
  let reconciled = 0;
  const mismatches: BalanceMismatch[] = [];
  const text = (units: bigint) => unscaledText(units, scale);
  for (let k = 0; k < steps.length; k++) {
    const step = steps[newestFirst ? steps.length - 1 - k : k];
    if (step.row !== null && step.change === null) [before, change, rows] = [null, 0n, []];
    else if (step.row !== null && step.change !== null) {
      change += step.change;
      rows.push(step.row);
    }
    if (!step.balance) continue;
    const { units, marker } = step.balance;
    const magnitude = units < 0n ? -units : units;
    // A CR balance is in the account holder's favour: the account's own money, or a card's balance overpaid.
    const printed = !marker ? units : (marker === 'CR') === (polarity === 1) ? magnitude : -magnitude;
    if (before !== null && rows.length) {
      const expected: bigint = before - BigInt(polarity) * change;
      if (expected === printed) reconciled++;
      else mismatches.push({ row: step.row ?? rows[rows.length - 1], printed: text(printed), before: text(before), rows, change: text(change), expected: text(expected), label: step.label });
    }
    [before, change, rows] = [printed, 0n, []];
  }
  return { newestFirst, polarity, reconciled, mismatches };
}

/** The reading under which most balances reconcile (then the fewest do not); ties go to the earlier order and polarity given. */
function bestBalanceCheck(steps: BalanceStep[], orders: boolean[], polarities: Polarity[]): BalanceCheck {
  const figures = scaled(steps);
  const checks = orders.flatMap((newestFirst) => polarities.map((polarity) => checkBalances(figures, newestFirst, polarity)));
  return checks.reduce((best, c) => (betterCheck(c, best) ? c : best));
}

const betterCheck = (a: BalanceCheck, b: BalanceCheck): boolean =>
  a.reconciled > b.reconciled || (a.reconciled === b.reconciled && a.mismatches.length < b.mismatches.length);

/**
 * A row's amount (positive = money leaving the account) from its figures and their columns. Debit/credit columns say
 * the direction; a single amount column is signed as printed (or by a CR or DR after it), except on credit card
 * statements, where a positive amount is a charge.
 */
function amountOf(figures: Array<{ cell: Cell; kind: MoneyColumn }>, creditCard: boolean): string | null {
  let amount: string | null = null;
  for (const { cell, kind } of figures) {
    if (kind === 'balance') continue;
    const marker = /\b(CR|DR)$/i.exec(cell.text)?.[1]?.toUpperCase();
    const value = parseStatementAmount(cell.text.replace(/\s?(CR|DR)$/i, ''));
    if (value === null) continue;
    const magnitude = value.replace(/^-/, '');
    if (kind === 'debit') amount = magnitude;
    else if (kind === 'credit') amount = negateDecimal(magnitude);
    else if (marker) amount = marker === 'CR' ? negateDecimal(magnitude) : magnitude;
    else amount = creditCard ? value : negateDecimal(value);
  }
  return amount;
}

const MONEY_KINDS: MoneyColumn[] = ['debit', 'credit', 'amount', 'balance'];
const KIND_SAMPLE_LINES = 300;

/**
 * The kinds a header's money columns can have: the named ones as named, the others any that makes a table (one amount
 * column, or debit and credit columns, and at most one balance).
 */
function possibleKinds(named: Array<MoneyColumn | null>): MoneyColumn[][] {
  let readings: MoneyColumn[][] = [[]];
  for (const kind of named) readings = readings.flatMap((prefix) => (kind ? [kind] : MONEY_KINDS).map((k) => [...prefix, k]));
  return readings.filter((kinds) => {
    const count = (kind: MoneyColumn) => kinds.filter((k) => k === kind).length;
    if (MONEY_KINDS.some((kind) => count(kind) > 1) || (count('amount') && (count('debit') || count('credit')))) return false;
    if (!kinds.some((k) => k !== 'balance')) return false;
    // An unnamed column is read as money out or in only beside the other one.
    return kinds.every((k, i) => named[i] !== null || (k !== 'debit' && k !== 'credit') || (count('debit') && count('credit')));
  });
}

/**
 * The kinds of a table's money columns (every header with its names, on any page), or why they cannot be told. A
 * column without a known name is told by the figures: the reading under which a column reconciles as a running
 * balance (each balance is the one before it less money out plus money in) for most of the rows, and no other reading
 * does as well. Money out and in are told apart by the direction the balance moves, which is the account's own
 * (falling by money out) unless the statement is a credit card's.
 */
function tellKinds(headers: Header[], creditCard: boolean): MoneyColumn[] | string {
  const named = headers[0].money.map((m) => m.kind);
  const readings = possibleKinds(named);
  if (!named.includes(null)) return named as MoneyColumn[];
  if (readings.length === 1) return readings[0];
  const unknown = headers[0].money.filter((m) => m.kind === null).map((m) => `'${m.cell.text}'`);
  const refusal = `The statement's columns ${unknown.join(', ')} could not be told apart: their names are not ones Hearth reads as money out, money in, amount or balance, and no reading of them makes a balance column reconcile row by row. Export a CSV or QIF from your bank instead.`;
  if (named.filter((k) => k === null).length > 4) return refusal;
  const lines = headers.flatMap((header) => {
    const moneyLeft = Math.min(...header.money.map((m) => m.cell.left)) - 10;
    const columns = header.money.map((m, column) => ({ column, left: m.cell.left, right: m.cell.right }));
    return header.block.flatMap((line) => {
      const { money, description } = splitMoney(line.cells.filter((c) => !looksLikeDate(c.text)), moneyLeft);
      const figures = money.map((cell) => ({ cell, column: nearest(cell, columns).column }));
      return figures.length ? [{ figures, summary: SUMMARY.test(description.map((c) => c.text).join(' ')) }] : [];
    });
  });
  const polarity: Polarity = creditCard ? -1 : 1;
  // A few hundred rows tell the columns as surely as all of them; every row is checked once the kinds are known.
  const sample = lines.slice(0, KIND_SAMPLE_LINES);
  const scored = readings
    .filter((kinds) => kinds.includes('balance'))
    .map((kinds) => {
      const steps = sample.flatMap(({ figures, summary }, k): BalanceStep[] => {
        const balance = figures.find((f) => kinds[f.column] === 'balance');
        const others = figures.filter((f) => kinds[f.column] !== 'balance').map((f) => ({ cell: f.cell, kind: kinds[f.column] }));
        if (!others.length) return balance ? [{ row: null, change: null, balance: printedBalance(balance.cell) }] : [];
        return summary ? [] : [{ row: k, change: amountOf(others, creditCard), balance: printedBalance(balance?.cell) }];
      });
      return { kinds, check: bestBalanceCheck(steps, [false, true], [polarity]) };
    });
  const best = scored.reduce<(typeof scored)[number] | null>((b, s) => (!b || betterCheck(s.check, b.check) ? s : b), null);
  if (!best || best.check.reconciled <= best.check.mismatches.length) return refusal;
  const tied = scored.filter((s) => !betterCheck(best.check, s.check));
  return tied.length === 1 ? best.kinds : refusal;
}

/** The date cell of a line: a date under the header's date column (or first on the line, when that column is first). */
function dateCellOf(line: Line, table: Table): Cell | null {
  const names = table.line.cells;
  const under = line.cells.find((c) => nearest(c, names) === table.date && looksLikeDate(c.text));
  if (under) return under;
  return names[0] === table.date && looksLikeDate(line.cells[0].text) ? line.cells[0] : null;
}

/** A time printed on its own under the date column (the date's): no part of the description. */
const isTimeOfDate = (cell: Cell, table: Table): boolean => TIME.test(cell.text) && withoutTime(cell.text) === '' && nearest(cell, table.line.cells) === table.date;

/**
 * A line's text cells split into the row's name and, when the header names its description column beside other text
 * columns, the cells under those others with their column's name (a cell belongs to the column it starts under).
 */
function splitText(cells: Cell[], table: Table): { name: Cell[]; labelled: Array<[string, string]> } {
  const description = table.description;
  if (!description || !table.labels.length) return { name: cells, labelled: [] };
  const columns = [description, ...table.labels].sort((a, b) => b.left - a.left);
  const name: Cell[] = [];
  const labelled: Array<[string, string]> = [];
  for (const cell of cells) {
    const column: Cell = columns.find((c) => c.left <= cell.left + 4) ?? description;
    if (column === description) name.push(cell);
    else labelled.push([column.text, cell.text]);
  }
  return { name, labelled };
}

/** What a balance mismatch says: the balance printed, the one before it, the amount between and what they give. */
function mismatchMessage(m: BalanceMismatch, polarity: Polarity): string {
  const falls = (m.change.startsWith('-') ? -1 : 1) * polarity > 0;
  const amounts = m.rows.length === 1 ? (m.label ? `the amount of row ${m.rows[0] + 1}` : "the row's amount") : `the amounts of rows ${Math.min(...m.rows) + 1} to ${Math.max(...m.rows) + 1}`;
  const where = m.label ? `the balance printed on the line '${shownValue(m.label)}' after it` : 'the balance printed on it';
  return `${where}, ${m.printed}, does not reconcile: the balance before it, ${m.before}, ${falls ? 'minus' : 'plus'} ${m.change.replace(/^-/, '')} (${amounts}) is ${m.expected}`;
}

/**
 * Reads the transaction table of a text-based statement into transaction rows (positive = money leaving the
 * account). When the table prints a running balance, every row is checked against it.
 */
export function parsePdfStatement(items: PositionedText[], opts: BankStatementOptions): ParsedImport {
  const refuse = (message: string): ParsedImport => ({ rows: [], fileErrors: [message], errorCode: 'unsupported_pdf' });
  if (!items.some((i) => i.text.trim())) {
    return refuse('The PDF has no text layer (a scanned statement?). Only text-based statements can be read; export a CSV or QIF from your bank instead.');
  }
  const lines = readLines(items);
  const steps = lineSteps(lines);
  const lineStep = (line: Line) => steps.get(line.page) ?? LINE_STEP;
  const headers = findHeaders(lines, lineStep);
  // The statement's title and details, printed before its first table, say it is a card's; a transaction ("Credit
  // card payment") or an advert under the table ("Apply for our credit card") does not.
  const firstHeader = lines.findIndex((line) => headers.has(line));
  const preamble = firstHeader === -1 ? lines : lines.slice(0, firstHeader);
  const creditCard = preamble.some((l) => l.cells.some((c) => /credit card/i.test(c.text)));
  const tables = new Map<Line, Table>();
  const bySignature = new Map<string, Header[]>();
  for (const header of headers.values()) {
    const group = bySignature.get(header.signature);
    if (group) group.push(header);
    else bySignature.set(header.signature, [header]);
  }
  for (const group of bySignature.values()) {
    const kinds = tellKinds(group, creditCard);
    if (typeof kinds === 'string') return refuse(kinds);
    for (const { line, date, description, labels, money } of group) {
      const columns = money.map((m, k) => ({ kind: kinds[k], left: m.cell.left, right: m.cell.right }));
      tables.set(line, { line, date, description, labels, columns, toldByBalance: money.some((m) => m.kind === null) });
    }
  }
  const candidates: Candidate[] = [];
  const entries: Entry[] = [];
  let table: Table | null = null;
  let headerLine: Line | null = null;
  // A header with other columns starts another table, whose balances do not follow this one's.
  let segment = 0;
  // Many statements print the date on a day's first row only: the later rows of the day take it. A header with other
  // columns starts another table, which takes no date from this one; a header repeated on the next page does not.
  let dayDate: string | null = null;
  // The table's lowest line so far: its header, a dated line or a row's. A summary line is not the table's.
  let tableBottom: Line | null = null;
  for (const line of lines) {
    const header = tables.get(line);
    if (header) {
      if (!table || header.columns.map((c) => c.kind).join() !== table.columns.map((c) => c.kind).join()) {
        dayDate = null;
        segment++;
      }
      table = header;
      headerLine = line;
      tableBottom = line;
      continue;
    }
    if (!table) continue;
    const current = table;
    const moneyLeft = Math.min(...current.columns.map((c) => c.left)) - 10;
    const dateCell = dateCellOf(line, current);
    const dated = dateCell !== null;
    const others = line.cells.filter((c) => c !== dateCell && !isTimeOfDate(c, current));
    const { money: moneyCells, description: textCells } = splitMoney(others, moneyLeft);
    const hasAmount = moneyCells.some((c) => columnOf(c, current.columns).kind !== 'balance');
    const { name, labelled } = splitText(textCells, current);
    const description = name.map((c) => c.text);
    const summary = SUMMARY.test(textCells.map((c) => c.text).join(' '));
    const previous = candidates[candidates.length - 1];
    // The line a wrapped description continues from: the transaction's lowest line on this page or, when the
    // transaction ended the page before, this page's repeated header (the page's title lines above it are not the
    // description's). Measured from the line above, not the first: a description wrapped over three lines or more
    // is as far from its first line as the next row is.
    const above =
      previous?.last.page === line.page ? previous.last : previous?.last.page === line.page - 1 && headerLine?.page === line.page ? headerLine : null;
    const wrapped = !dated && above !== null && above.y - line.y < lineStep(line);
    if (wrapped && !moneyCells.length) {
      const text = description.join(' ');
      if (text && (previous.details.length || DETAIL_LINE.test(text))) previous.details.push(text);
      else previous.description.push(...description);
      previous.labelled.push(...labelled);
      previous.last = line;
      if (!previous.apart) tableBottom = line;
      continue;
    }
    if (wrapped && previous.awaitingAmount && hasAmount && !summary) {
      // The amount of a dated line printed on its wrapped line below it: one row, described by both.
      previous.description.push(...description);
      previous.labelled.push(...labelled);
      previous.money = moneyCells;
      previous.table = current;
      previous.last = line;
      previous.awaitingAmount = false;
      tableBottom = line;
      continue;
    }
    const inMoneyColumns = others.some((c) => c.left > moneyLeft);
    // Under the end of the table (a gap: more than a line step under its lowest line on the page; a total line,
    // skipped, leaves one), statements print fees, interest or a summary box.
    const apart = tableBottom?.page === line.page && tableBottom !== headerLine && tableBottom.y - line.y > lineStep(line);
    // A line that prints only a balance (opening, brought forward, totals) is no transaction, but its balance is
    // one the rows around it are checked against; under the end of the table it may be a summary box's.
    const balanceLine = () => {
      const balance = moneyCells.find((c) => columnOf(c, current.columns).kind === 'balance');
      if (balance) entries.push({ segment, balance, label: textCells.map((c) => c.text).join(' '), table: current });
    };
    if (dated && summary && !hasAmount) {
      // A dated balance line (brought forward, opening balance) is no transaction, but its date heads the day's rows,
      // and like any dated line it is the table's: the rows under it are no summary under the table's end.
      dayDate = withoutTime(dateCell.text);
      tableBottom = line;
      balanceLine();
    } else if (dated && (inMoneyColumns || (others.length && headerLine?.page === line.page))) {
      // A dated line with anything in the money columns is a row, reported when it holds no amount. One with a
      // description only, under the header, waits for its amount on a wrapped line below it.
      dayDate = withoutTime(dateCell.text);
      const candidate = { line, last: line, table: current, date: dayDate, description, details: [], labelled, money: moneyCells, awaitingAmount: !inMoneyColumns, apart: false };
      candidates.push(candidate);
      entries.push({ segment, candidate });
      tableBottom = line;
    } else if (dated && !others.length && headerLine?.page === line.page) {
      // A date on a line of its own, under the header, heads the day's rows.
      dayDate = withoutTime(dateCell.text);
      tableBottom = line;
    } else if (!dated && hasAmount && !summary) {
      // An amount without a date is a row of the day above it, or a row error when no row above it has a date: never
      // dropped. A line with only a balance (brought forward, carried over) is no transaction. Under the end of the
      // table, a transaction may be one whose date was left out: such an amount takes no date from the rows above it.
      // It is skipped when it says it sums up the period, and is a row error otherwise, since inventing or dropping a
      // transaction is worse than a statement to check. A dated line or a header starts the table again.
      if (!apart || !PERIOD_SUMMARY.test(description.join(' '))) {
        const candidate = { line, last: line, table: current, date: apart ? null : dayDate, description, details: [], labelled, money: moneyCells, awaitingAmount: false, apart };
        candidates.push(candidate);
        entries.push({ segment, candidate });
        if (!apart) tableBottom = line;
      }
    } else if (!dated && !apart) balanceLine();
  }
  // A dated line whose wrapped lines hold no amount either is a note (a day heading, a message), not a transaction.
  // No money is lost with it: an amount on any line of the table is a row.
  const transactions = candidates.filter((c) => !c.awaitingAmount);
  if (!transactions.length) {
    return refuse(
      'No transaction table was found: the statement needs a table of dated rows with one or two money columns (an Amount, or Debit and Credit columns, with a Balance or not) under a header row.',
    );
  }
  if (transactions.length > opts.maxRows) {
    return { rows: [], fileErrors: [`The statement has ${transactions.length} transactions; at most ${opts.maxRows} can be stored for one import`], errorCode: 'too_many_rows' };
  }
  const layout = detectDateLayout(transactions.flatMap((c) => (c.date === null ? [] : [c.date])), DATE_LAYOUTS);
  const wheres = transactions.map(({ line }, i) => `Row ${i + 1} (page ${line.page})`);
  const rows: ParsedRow[] = transactions.map(({ table: { columns: cols }, date: dateText, description, details, labelled, money, apart }, i) => {
    const rowNumber = i + 1;
    const errors: string[] = [];
    const where = wheres[i];
    const date = dateText === null ? null : parseDate(dateText, layout);
    const outside = date && outsideDateRange(date, opts.today);
    if (apart) errors.push(`${where}: the row has an amount but no date, and stands under the end of the table (after a gap or a total line), so it takes no date from the rows above it`);
    else if (dateText === null) errors.push(`${where}: the row has an amount but no date, and no row above it in its table has one`);
    else if (!date) errors.push(`${where}: date '${dateText}' does not match ${layout}`);
    else if (outside) errors.push(`${where}: date ${outside}`);
    const amount = amountOf(
      money.map((cell) => ({ cell, kind: columnOf(cell, cols).kind })),
      creditCard,
    );
    if (amount === null) errors.push(`${where}: no amount was found in the debit, credit or amount columns`);
    const finer = amount === null ? null : minorUnitError('amount', amount.replace(/^-/, ''), opts.defaultCurrency);
    if (finer) errors.push(`${where}: ${finer}`);
    const name = description.join(' ').replace(/\s+/g, ' ').trim() || 'Imported item';
    const long = lengthError('description', name, MAX_CHARS.entryName, 'transaction names');
    if (long) errors.push(`${where}: ${long}`);
    const labels = [...new Set(labelled.map(([label]) => label))].map((label) => `${label}: ${labelled.filter(([l]) => l === label).map(([, text]) => text).join(' ')}`);
    const notes = [...labels, ...details];
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
        notes: notes.length ? notes.join('; ') : null,
        account: null,
        transfer_account: null,
      },
    };
  });
  checkRunningBalance(entries, transactions, rows, wheres, creditCard);
  return { rows, fileErrors: [] };
}

/**
 * Every row of a table that prints a running balance is checked against it: a row whose balance does not follow
 * from the one before it and its amount is a row error naming both. Which way round the statement is printed
 * (oldest or newest first) and which way its balance moves are read from the figures: the reading under which most
 * balances reconcile, the dates' order and the statement's kind breaking a tie. When the balance told a column's
 * kind, its direction was assumed to tell money out from in, and stays so.
 */
function checkRunningBalance(entries: Entry[], transactions: Candidate[], rows: ParsedRow[], wheres: string[], creditCard: boolean): void {
  const index = new Map(transactions.map((c, i) => [c, i]));
  const segments = new Map<number, Entry[]>();
  for (const entry of entries) {
    const segment = segments.get(entry.segment);
    if (segment) segment.push(entry);
    else segments.set(entry.segment, [entry]);
  }
  for (const segment of segments.values()) {
    const steps = segment.flatMap((entry): BalanceStep[] => {
      if (!('candidate' in entry)) return [{ row: null, change: null, balance: printedBalance(entry.balance), label: entry.label }];
      const row = index.get(entry.candidate);
      if (row === undefined) return [];
      const { money, table } = entry.candidate;
      const balance = money.find((cell) => columnOf(cell, table.columns).kind === 'balance');
      return [{ row, change: (rows[row].values.amount as string | null) ?? null, balance: printedBalance(balance) }];
    });
    if (!steps.some((s) => s.balance)) continue;
    const dates = steps.flatMap((s) => (s.row === null || !rows[s.row].values.date ? [] : [rows[s.row].values.date as string]));
    const newestFirst = dates.length > 1 && dates[0] > dates[dates.length - 1];
    const polarity: Polarity = creditCard ? -1 : 1;
    const toldByBalance = segment.some((e) => ('candidate' in e ? e.candidate.table : e.table).toldByBalance);
    const check = bestBalanceCheck(steps, [newestFirst, !newestFirst], toldByBalance ? [polarity] : [polarity, -polarity as Polarity]);
    for (const mismatch of check.mismatches) rows[mismatch.row].errors.push(`${wheres[mismatch.row]}: ${mismatchMessage(mismatch, check.polarity)}`);
  }
}
