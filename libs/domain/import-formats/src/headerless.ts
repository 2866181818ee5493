import type { NumberFormat } from '@hearth/contracts';
import { parseDate, parseNumber } from './cells';

// A bank export that starts with its first booking (Raiffeisen Austria writes no header line) read by an import that
// names no columns: which column holds what is told from the values. Used only when the first line has none of the
// names the import needs and reads as a booking itself, so a file with a header is never read this way.

/** Zero-based columns of a headerless file, told from their values. */
export interface InferredColumns {
  date: number;
  amount: number;
  name: number | null;
  currency: number | null;
}

/** Rows looked at to tell a column's kind: enough to see every kind a statement column holds, few enough to be cheap. */
const SAMPLE_ROWS = 200;
const CURRENCY_CODE = /^[A-Z]{3}$/;

type ColumnKind = 'date' | 'number' | 'currency' | 'text';

/** Whether a record reads as a booking: one cell a date in the import's format and another a number. */
export function looksLikeData(record: string[], dateFormat: string, numberFormat: NumberFormat): boolean {
  const dateAt = record.findIndex((cell) => parseDate(cell, dateFormat) !== null);
  return dateAt >= 0 && record.some((cell, i) => i !== dateAt && cell.trim() !== '' && parseDate(cell, dateFormat) === null && parseNumber(cell, numberFormat) !== null);
}

/**
 * The 1-based lines of a headerless file with no date and no number in any cell: a remark between bookings (a bank's
 * "null transaction" line), left out like the title lines above a header rather than read as a row that fails.
 */
export function remarkLines(records: string[][], dateFormat: string, numberFormat: NumberFormat): number[] {
  const figure = (cell: string) => cell.trim() !== '' && (parseDate(cell, dateFormat) !== null || parseNumber(cell, numberFormat) !== null);
  return records.flatMap((record, i) => (record.some(figure) ? [] : [i + 1]));
}

/**
 * The booking date is the first date column (banks put it before the value date); the amount the first number
 * column with a negative value (a balance column rarely has one), else the first number column; the name the text
 * column with the most distinct values; the currency a column of ISO codes; remark lines left out. Null without a
 * date and an amount.
 */
export function inferColumns(records: string[][], dateFormat: string, numberFormat: NumberFormat): InferredColumns | null {
  const remarks = new Set(remarkLines(records, dateFormat, numberFormat));
  const sample = records.filter((_, i) => !remarks.has(i + 1)).slice(0, SAMPLE_ROWS);
  const width = sample.reduce((most, record) => Math.max(most, record.length), 0);
  const columns = Array.from({ length: width }, (_, i) => sample.map((record) => (record[i] ?? '').trim()).filter(Boolean));
  const kinds = columns.map((values) => kindOf(values, dateFormat, numberFormat));
  const date = kinds.indexOf('date');
  const numbers = kinds.flatMap((kind, i) => (kind === 'number' ? [i] : []));
  const signed = numbers.find((i) => columns[i].some((value) => parseNumber(value, numberFormat)?.startsWith('-')));
  const amount = signed ?? numbers[0];
  if (date < 0 || amount === undefined) return null;
  const texts = kinds.flatMap((kind, i) => (kind === 'text' ? [i] : []));
  const distinct = (i: number) => new Set(columns[i]).size;
  const name = texts.length ? texts.reduce((best, i) => (distinct(i) > distinct(best) ? i : best)) : null;
  const currency = kinds.indexOf('currency');
  return { date, amount, name, currency: currency < 0 ? null : currency };
}

/** What every filled cell of a column is; an empty column is null. */
function kindOf(values: string[], dateFormat: string, numberFormat: NumberFormat): ColumnKind | null {
  if (!values.length) return null;
  if (values.every((value) => parseDate(value, dateFormat) !== null)) return 'date';
  if (values.every((value) => parseNumber(value, numberFormat) !== null)) return 'number';
  if (values.every((value) => CURRENCY_CODE.test(value))) return 'currency';
  return 'text';
}
