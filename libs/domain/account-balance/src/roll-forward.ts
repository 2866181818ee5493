import { convertedSumToMinorUnits, type MinorUnits } from '@hearth/domain/money';

/**
 * How an account's cash relates to its balance: all of it is cash (bank accounts, cards), none of it is (a house, a
 * loan), or cash sits beside holdings (investment and crypto accounts).
 */
export type BalanceKind = 'cash' | 'non_cash' | 'investment';

const KINDS: Record<string, BalanceKind> = {
  Depository: 'cash',
  CreditCard: 'cash',
  Investment: 'investment',
  Crypto: 'investment',
  Property: 'non_cash',
  Vehicle: 'non_cash',
  OtherAsset: 'non_cash',
  Loan: 'non_cash',
  OtherLiability: 'non_cash',
};

export const balanceKindOf = (accountableType: string): BalanceKind => KINDS[accountableType] ?? 'non_cash';

/** Where an account's roll-forward starts, in its own currency's minor units. */
export interface BalanceStart {
  currency: string;
  classification: 'asset' | 'liability';
  accountableType: string;
  /** The amount of its latest valuation, else the balance it was created with. */
  anchor: MinorUnits;
  /** The cash it was created with (investment accounts; the others' cash follows from their balance). */
  cashBase: MinorUnits;
}

/**
 * One entry currency's money out of an account, as the database summed it: Σ(amount in that currency's minor units ×
 * the rate to the account's currency on the entry's day), the way budgets sum (`convertedSumToMinorUnits`).
 */
export interface CurrencyFlows {
  currency: string;
  /** What changed the account's value after its anchor: transactions, and the fees of trades (a trade only turns cash into holdings). */
  valueOut: string;
  /** What changed its cash since it was created: transactions and trades, whole. */
  cashOut: string;
  /** Entries of this currency left out of both sums: no exchange rate on their day. */
  unconverted: number;
}

export interface RolledBalance {
  balance: MinorUnits;
  cashBalance: MinorUnits;
  unconvertedEntries: number;
}

/**
 * The balance an account's entries give it, as Sure's sync rolls it forward. Amounts are outflows, so money out lowers
 * an asset and raises a liability (what is owed).
 */
export function rollForward(start: BalanceStart, flows: readonly CurrencyFlows[]): RolledBalance {
  const inAccountCurrency = (product: string, currency: string) => convertedSumToMinorUnits(product, currency, start.currency);
  const valueOut = flows.reduce((sum, f) => sum + inAccountCurrency(f.valueOut, f.currency), 0n);
  const cashOut = flows.reduce((sum, f) => sum + inAccountCurrency(f.cashOut, f.currency), 0n);
  const balance = start.classification === 'liability' ? start.anchor + valueOut : start.anchor - valueOut;
  const kind = balanceKindOf(start.accountableType);
  const cashBalance = kind === 'cash' ? balance : kind === 'investment' ? start.cashBase - cashOut : 0n;
  return { balance, cashBalance, unconvertedEntries: flows.reduce((n, f) => n + f.unconverted, 0) };
}
