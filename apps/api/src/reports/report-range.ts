import { parseIsoDate } from '@hearth/domain/budget-math';
import type { IsoDate } from '@hearth/domain/budget-math';
import type { Interval } from './report.dto';

// Date arithmetic of the report ranges, on calendar dates (UTC midnights), pure.

const DAY_MS = 86_400_000;

const utc = (date: IsoDate): Date => {
  const { year, month, day } = parseIsoDate(date);
  const value = new Date(0);
  value.setUTCFullYear(year, month - 1, day);
  return value;
};
const iso = (value: Date): IsoDate => value.toISOString().slice(0, 10);

export const addDays = (date: IsoDate, days: number): IsoDate => iso(new Date(utc(date).getTime() + days * DAY_MS));

/** The same day `months` later (or earlier), the month's last day standing in for a day it lacks (Jan 31 + 1 = Feb 28/29). */
export function addMonths(date: IsoDate, months: number): IsoDate {
  const { year, month, day } = parseIsoDate(date);
  const first = new Date(0);
  first.setUTCFullYear(year, month - 1 + months, 1);
  const last = new Date(0);
  last.setUTCFullYear(first.getUTCFullYear(), first.getUTCMonth() + 1, 0);
  first.setUTCDate(Math.min(day, last.getUTCDate()));
  return iso(first);
}

export const daysBetween = (start: IsoDate, end: IsoDate): number => Math.round((utc(end).getTime() - utc(start).getTime()) / DAY_MS);

/** Whole steps of `interval` from `start` that stay on or before `end` (0 when `end` is within the first step). */
export function stepsWithin(start: IsoDate, end: IsoDate, interval: Interval): number {
  if (interval === 'day') return daysBetween(start, end);
  if (interval === 'week') return Math.floor(daysBetween(start, end) / 7);
  const a = parseIsoDate(start);
  const b = parseIsoDate(end);
  const months = (b.year - a.year) * 12 + b.month - a.month;
  return addMonths(start, months) <= end ? months : months - 1;
}

/** The interval a chart of this range reads best in when none is asked for: days up to about 3 months, weeks up to 3 years. */
export function defaultInterval(start: IsoDate, end: IsoDate): Interval {
  const days = daysBetween(start, end);
  if (days <= 92) return 'day';
  return days <= 3 * 366 ? 'week' : 'month';
}

/** The longest span (in years) each interval may cover: a bound on the points one request computes. */
export const MAX_YEARS: Record<Interval, number> = { day: 10, week: 50, month: 100 };

/** The points' dates: `start`, every step after it on or before `end`, and `end`. */
export function seriesDates(start: IsoDate, end: IsoDate, interval: Interval): IsoDate[] {
  const dates: IsoDate[] = [];
  for (let k = 0, n = stepsWithin(start, end, interval); k <= n; k++) {
    dates.push(interval === 'month' ? addMonths(start, k) : addDays(start, k * (interval === 'week' ? 7 : 1)));
  }
  if (dates[dates.length - 1] !== end) dates.push(end);
  return dates;
}
