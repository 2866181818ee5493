import { formatMoneyWithCode, type MinorUnits } from '@hearth/domain/money';
import { type BalanceStart, type CurrencyFlows, rollForward } from './roll-forward';

// A bank states a balance positive in the holder's favour (a card's debt is negative); an account's balance, as
// rollForward gives it, is positive when owed for a liability. These turn one into the other and compare them.

/** A balance turned from the bank's sign to the account's, or back (the same turn both ways): liabilities flip. */
export const bankSigned = (balance: MinorUnits, classification: BalanceStart['classification']): MinorUnits =>
  classification === 'liability' ? -balance : balance;

/**
 * The anchor (an opening balance dated before every flow) that makes the account's balance `target` (in the
 * account's sign) once `flows` have moved it: what the roll forward from nothing falls short of the target.
 */
export const anchorReaching = (target: MinorUnits, start: BalanceStart, flows: readonly CurrencyFlows[]): MinorUnits =>
  target - rollForward({ ...start, anchor: 0n }, flows).balance;

/** A balance the bank states and the account's balance on its day, both in the bank's sign and the account's currency. */
export interface BalanceComparison {
  stated: MinorUnits;
  account: MinorUnits;
  currency: string;
  date: string;
}

/** Why the account disagrees with the bank, naming both figures, the day and the difference; null when they agree. */
export function statedBalanceDisagreement({ stated, account, currency, date }: BalanceComparison): string | null {
  if (stated === account) return null;
  const apart = stated > account ? stated - account : account - stated;
  const money = (amount: MinorUnits) => formatMoneyWithCode(amount, currency);
  return `The bank states a balance of ${money(stated)} on ${date}; the account's balance that day is ${money(account)} (${money(apart)} apart)`;
}
