import type { MinorUnits } from './amounts';

/** Sure's `nature` of a transaction written through its API: which way the money went, whatever the amount's sign. */
export type TransactionNature = 'income' | 'inflow' | 'expense' | 'outflow';

/**
 * The entry amount (money out positive, money in negative) of an amount sent with a nature: income/inflow is money
 * in, expense/outflow money out, whatever the sign sent; without a nature, the amount as sent.
 */
export function amountWithNature(amount: MinorUnits, nature: TransactionNature | undefined): MinorUnits {
  const magnitude = amount < 0n ? -amount : amount;
  if (nature === 'income' || nature === 'inflow') return -magnitude;
  if (nature === 'expense' || nature === 'outflow') return magnitude;
  return amount;
}
