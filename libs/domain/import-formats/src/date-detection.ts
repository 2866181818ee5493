import { parseDate } from './cells';

// A CSV import that names no date_format: its format is told from the date column's values. A format is a candidate
// only if it reads every value; when two candidates read some value as different days (every day is 12 or less, so
// 03/04/2026 is 3 April or 4 March), the user is asked rather than one picked.

/** The formats a date column is tried with, in the order they are offered when several fit: ISO first. */
export const DETECTED_DATE_FORMATS = [
  '%Y-%m-%d',
  '%Y/%m/%d',
  '%Y.%m.%d',
  '%d/%m/%Y',
  '%m/%d/%Y',
  '%d.%m.%Y',
  '%d-%m-%Y',
  '%m-%d-%Y',
  '%d/%m/%y',
  '%m/%d/%y',
  '%d.%m.%y',
  '%d-%b-%Y',
  '%d %b %Y',
  '%b %d, %Y',
  '%Y%m%d',
] as const;

/**
 * What a date column's values say of their format: the one format that reads them (or several that read every value
 * as the same day: the first is taken); `ambiguous`, the formats that read them as different days, in the order of
 * DETECTED_DATE_FORMATS, with the first value they disagree on; `none` when no format reads every value, or there are
 * no values.
 */
export type DateDetection = { format: string } | { ambiguous: string[]; sample: string } | { none: true };

/**
 * The format of a date column's non-empty values. One pass narrows the candidates (a candidate is dropped at its first
 * value it cannot read, and the pass stops when none is left); a second, only when several remain, looks for a value
 * they read differently and stops at the first.
 */
export function detectDateFormat(values: readonly string[]): DateDetection {
  let candidates: string[] = [...DETECTED_DATE_FORMATS];
  if (!values.length) return { none: true };
  for (const value of values) {
    candidates = candidates.filter((format) => parseDate(value, format) !== null);
    if (!candidates.length) return { none: true };
  }
  if (candidates.length === 1) return { format: candidates[0] };
  for (const value of values) {
    const readings = candidates.map((format) => parseDate(value, format));
    if (readings.some((reading) => reading !== readings[0])) return { ambiguous: formatsReadingDifferently(candidates, values), sample: value };
  }
  return { format: candidates[0] };
}

/**
 * Of formats that all read every value, those that read some value as a day no earlier one does: one of each group
 * that agrees throughout (the earliest), so the user is asked only between readings that differ.
 */
function formatsReadingDifferently(candidates: string[], values: readonly string[]): string[] {
  const readingsOf = (format: string) => values.map((value) => parseDate(value, format)).join();
  const seen = new Set<string>();
  return candidates.filter((format) => {
    const readings = readingsOf(format);
    if (seen.has(readings)) return false;
    seen.add(readings);
    return true;
  });
}

const HUMAN_PARTS: Record<string, string> = { '%Y': 'yyyy', '%y': 'yy', '%m': 'mm', '%d': 'dd', '%b': 'mmm' };

/** A detected format as people write it: `%d/%m/%Y` is dd/mm/yyyy, `%d %b %Y` dd mmm yyyy. */
export const humanDateFormat = (format: string): string => format.replace(/%[Yymdb]/g, (part) => HUMAN_PARTS[part]);

/** "a", "a and b", "a, b and c". */
const listed = (items: string[]) => (items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : items[0]);

/** Whether two formats differ only in the order of day and month: then no day above 12 is what leaves them open. */
const dayMonthSwapped = (a: string, b: string) => a.replace(/%d|%m/g, (part) => (part === '%d' ? '%m' : '%d')) === b;

/** The file error of an ambiguous date column: which formats fit, why they could not be told apart, and how to choose. */
export function ambiguousDateFormatMessage(formats: string[]): string {
  const swapped = formats.length === 2 && dayMonthSwapped(formats[0], formats[1]);
  const fit = formats.length === 2 ? `both ${listed(formats.map(humanDateFormat))}` : listed(formats.map(humanDateFormat));
  return `The dates fit ${fit}${swapped ? ' (no day is above 12)' : ''}: send date_format to say which`;
}
