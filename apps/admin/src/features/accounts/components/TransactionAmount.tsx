import { formatDecimal, isCurrencyCode } from '@hearth/domain/money';
import { Money } from '../../../components/Money';
import { formatAmount } from '../../../lib/format';
import type { Transaction } from '../api/useAccounts';

/**
 * A transaction as money in or out of its account: income positive, spending negative (in red), which is the
 * opposite of the API's `amount` (Sure's sign) and the sign of its `signed_amount_cents`.
 */
export function TransactionAmount({ transaction }: { transaction: Transaction }) {
  const { signed_amount_cents: cents, currency } = transaction;
  const formatted = isCurrencyCode(currency) ? formatAmount(formatDecimal(BigInt(cents), currency), currency) : String(cents);
  return <Money value={{ cents, formatted }} />;
}
