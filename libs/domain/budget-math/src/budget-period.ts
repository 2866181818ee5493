import type { MinorUnits } from '@hearth/domain/money';
import { parseIsoDate, plainDate, toIsoDate, toUtcDate } from './plain-date';
import type { IsoDate, PlainDate } from './plain-date';

/** Inclusive bounds of one budget month. */
export interface BudgetPeriod {
  startDate: IsoDate;
  endDate: IsoDate;
}

export const MIN_MONTH_START_DAY = 1;
/** Capped at 28 so that every month has the start day. */
export const MAX_MONTH_START_DAY = 28;

export function assertMonthStartDay(monthStartDay: number): void {
  const valid =
    Number.isInteger(monthStartDay) && monthStartDay >= MIN_MONTH_START_DAY && monthStartDay <= MAX_MONTH_START_DAY;
  if (!valid) throw new RangeError(`month_start_day must be an integer 1..28, got ${monthStartDay}`);
}

/**
 * The budget month containing `date`. With month_start_day d, a month runs from day d to day d-1 of the next month
 * (d = 1: the calendar month). Example d = 15: 2025-01-10 -> 2024-12-15..2025-01-14.
 */
export function budgetPeriodFor(date: IsoDate, monthStartDay: number): BudgetPeriod {
  assertMonthStartDay(monthStartDay);
  const day = parseIsoDate(date);
  const startMonth = day.day >= monthStartDay ? day.month : day.month - 1;
  const start = plainDate(day.year, startMonth, monthStartDay);
  // Day d-1 of the following month; for d = 1 that is day 0, i.e. the last day of the start month.
  const end = plainDate(start.year, start.month + 1, monthStartDay - 1);
  return { startDate: toIsoDate(start), endDate: toIsoDate(end) };
}

/** Building an Intl.DateTimeFormat costs far more than using one: they are kept, a bounded number (locales vary). */
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const MAX_DATE_FORMATS = 256;

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    if (dateFormats.size >= MAX_DATE_FORMATS) dateFormats.clear();
    dateFormats.set(key, format);
  }
  return format;
}

/** Gregorian whatever the locale's own calendar (fa: Persian, th: Buddhist): budget months are Gregorian dates. */
function formatDate(date: PlainDate, locale: string, options: Intl.DateTimeFormatOptions): string {
  return dateFormat(locale, { ...options, timeZone: 'UTC', calendar: 'gregory' }).format(toUtcDate(date));
}

/**
 * Display name: a calendar month is "January 2025"; a custom month is "Jan 15 - February 14, 2025"
 * (days zero-padded, "Jan 05 - February 04, 2025"). Words and order come from Intl for `locale`.
 */
export function budgetName(period: BudgetPeriod, locale = 'en'): string {
  const start = parseIsoDate(period.startDate);
  if (start.day === 1) return formatDate(start, locale, { month: 'long', year: 'numeric' });
  const startLabel = formatDate(start, locale, { month: 'short', day: '2-digit' });
  const endLabel = formatDate(parseIsoDate(period.endDate), locale, { month: 'long', day: '2-digit', year: 'numeric' });
  return `${startLabel} - ${endLabel}`;
}

/** The family's IANA time zone, which decides "today"; UTC when unset or unknown to this runtime. */
export function familyTimeZone(timezone: string | null): string {
  if (!timezone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return timezone;
  } catch {
    return 'UTC';
  }
}

/** The calendar date it is at `now` in `timeZone` (IANA name, e.g. "Asia/Tokyo"). */
export function localDateIn(now: Date, timeZone: string): IsoDate {
  const parts = dateFormat('en-US', {
    timeZone,
    calendar: 'gregory',
    numberingSystem: 'latn',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
  }).formatToParts(now);
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value);
  return toIsoDate({ year: part('year'), month: part('month'), day: part('day') });
}

/** The family's today: the date it is now in its time zone (UTC when unset or unknown), a day off UTC's near midnight. */
export const familyToday = (timezone: string | null, now = new Date()): IsoDate => localDateIn(now, familyTimeZone(timezone));

/** A budget is initialized once its total budgeted spending is set, 0 included. */
export function isBudgetInitialized(budgetedSpending: MinorUnits | null): boolean {
  return budgetedSpending !== null;
}

/** Whether `period` is the budget month of today, where "today" is the date at `now` in the family's time zone. */
export function isCurrentBudget(period: BudgetPeriod, monthStartDay: number, now: Date, timeZone: string): boolean {
  const today = budgetPeriodFor(localDateIn(now, timeZone), monthStartDay);
  return today.startDate === period.startDate && today.endDate === period.endDate;
}
