import { budgetPeriodFor } from './budget-period';
import type { BudgetPeriod } from './budget-period';
import { parseIsoDate, plainDate, toIsoDate } from './plain-date';
import type { IsoDate } from './plain-date';

/** The first and last budget-period starts a family may have a budget for. */
export interface BudgetWindow {
  earliestStart: IsoDate;
  latestStart: IsoDate;
}

const YEARS = 2;

function firstOfMonth(date: IsoDate, yearsBack = 0): IsoDate {
  const day = parseIsoDate(date);
  return toIsoDate(plainDate(day.year - yearsBack, day.month, 1));
}

/**
 * Budgets reach back to the earlier of two years ago and the family's oldest entry (both from the first of that
 * month), and forward to two years after today's period start. `today` is the date in the family's time zone.
 */
export function budgetWindow(today: IsoDate, monthStartDay: number, oldestEntryDate: IsoDate | null): BudgetWindow {
  const twoYearsAgo = firstOfMonth(today, YEARS);
  const oldest = firstOfMonth(oldestEntryDate ?? today);
  const current = parseIsoDate(budgetPeriodFor(today, monthStartDay).startDate);
  return {
    earliestStart: oldest < twoYearsAgo ? oldest : twoYearsAgo,
    latestStart: toIsoDate(plainDate(current.year + YEARS, current.month, current.day)),
  };
}

/** ISO dates compare correctly as strings. */
export const isWithinBudgetWindow = (period: BudgetPeriod, window: BudgetWindow): boolean =>
  period.startDate >= window.earliestStart && period.startDate <= window.latestStart;
