import { formatMoney } from '@hearth/domain/money';
import { ACCOUNT_TYPES } from '../accounts/account.presenter';
import { exactCents } from '../common/money-fields';
import type { TransactionAccountDto, TransactionDto } from './transaction.dto';
import type { TransactionAccountRecord, TransactionRecord } from './transactions.repository';

const presentAccount = (account: TransactionAccountRecord): TransactionAccountDto => ({
  id: account.id,
  name: account.name,
  account_type: ACCOUNT_TYPES[account.accountableType],
});

/**
 * The Transaction object as Sure shows it: `amount` is the entry's own sign (expenses positive), `amount_cents` its
 * absolute value, `signed_amount_cents` the other way round (income positive), and the classification follows the sign.
 */
export function presentTransaction(txn: TransactionRecord, locale: string): TransactionDto {
  const { currency, amount } = txn;
  const absolute = amount < 0n ? -amount : amount;
  return {
    id: txn.id,
    date: txn.date,
    amount: formatMoney(amount, currency, locale),
    amount_cents: exactCents('amount', absolute, currency, locale),
    signed_amount_cents: exactCents('amount', -amount, currency, locale),
    currency,
    name: txn.name,
    notes: txn.notes,
    external_id: txn.externalId,
    source: txn.source,
    classification: amount < 0n ? 'income' : 'expense',
    parent_id: txn.parentId,
    account: presentAccount(txn.account),
    category: txn.category,
    merchant: txn.merchant,
    tags: txn.tags,
    transfer: txn.transfer && {
      id: txn.transfer.id,
      amount: formatMoney(txn.transfer.amount, txn.transfer.currency, locale),
      currency: txn.transfer.currency,
      other_account: presentAccount(txn.transfer.otherAccount),
    },
    created_at: txn.createdAt.toISOString(),
    updated_at: txn.updatedAt.toISOString(),
  };
}
