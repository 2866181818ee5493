import type { StatementBalance, StatementFacts } from './statement';

/**
 * The balances a bank statement file states for the whole file, as publishing uses them: the closing balance of its
 * latest statement (amount, the day it is as of, its currency when the file names one) and, when that statement
 * states one, the opening balance of its earliest. Amounts are decimal strings, positive in the holder's favour.
 */
export interface StatedBalances {
  closing: { amount: string; date: string; currency?: string };
  opening?: { amount: string; currency?: string };
}

/** The day a statement starts: its opening balance's, else its period's first, else its closing balance's. */
const startOf = (s: StatementFacts) => s.openingBalance?.date ?? s.periodStart ?? s.closingBalance?.date;

/** The currency a balance is stated in: its own, else its statement's; absent when the file names none. */
const currencyOf = (balance: StatementBalance, statement: StatementFacts) => {
  const currency = balance.currency ?? statement.currency;
  return currency ? { currency } : {};
};

/**
 * The file's stated balances, or null when no statement states a dated closing balance (an OFX investment statement,
 * a balance whose date is unreadable). A file of several statements (an MT940 file of daily messages) is read by
 * date, not by its order: the closing balance is the latest-dated one (the last in the file among equal dates), the
 * opening the earliest statement's (the first among equal starts), and only when that statement states one, since a
 * later statement's opening is not the balance before the file's first row.
 */
export function statedBalances(statements: readonly StatementFacts[] | undefined): StatedBalances | null {
  const list = statements ?? [];
  let latest: StatementFacts | null = null;
  for (const s of list) if (s.closingBalance?.date && (!latest || s.closingBalance.date >= latest.closingBalance!.date!)) latest = s;
  if (!latest) return null;
  const closing = latest.closingBalance!;
  // A statement without any date keeps its place in the file.
  const earliest = list.reduce((first, s) => {
    const [start, firstStart] = [startOf(s), startOf(first)];
    return start && firstStart && start < firstStart ? s : first;
  });
  const opening = earliest.openingBalance;
  return {
    closing: { amount: closing.amount, date: closing.date!, ...currencyOf(closing, latest) },
    ...(opening ? { opening: { amount: opening.amount, ...currencyOf(opening, earliest) } } : {}),
  };
}
