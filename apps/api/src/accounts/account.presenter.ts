import type { AccountableType } from '@hearth/contracts';
import type { RolledBalance } from '@hearth/domain/account-balance';
import { formatMoney } from '@hearth/domain/money';
import { exactCents } from '../common/money-fields';
import type { AccountDto } from './account.dto';
import type { AccountRecord } from './accounts.repository';

/** The reference API's snake_case account_type of each accountable type. */
export const ACCOUNT_TYPES: Record<AccountableType, string> = {
  Depository: 'depository',
  Investment: 'investment',
  Crypto: 'crypto',
  Property: 'property',
  Vehicle: 'vehicle',
  OtherAsset: 'other_asset',
  CreditCard: 'credit_card',
  Loan: 'loan',
  OtherLiability: 'other_liability',
};

/** The Account object with its rolled-forward balance: amounts formatted in its own currency for `locale`, and in its minor units. */
export function presentAccount(account: AccountRecord, { balance, cashBalance }: RolledBalance, locale: string): AccountDto {
  const { currency, classification } = account.start;
  return {
    id: account.id,
    name: account.name,
    balance: formatMoney(balance, currency, locale),
    balance_cents: exactCents('balance', balance, currency, locale),
    cash_balance: formatMoney(cashBalance, currency, locale),
    cash_balance_cents: exactCents('cash_balance', cashBalance, currency, locale),
    currency,
    classification,
    account_type: ACCOUNT_TYPES[account.accountableType],
    subtype: account.subtype,
    status: account.status,
    institution_name: account.institutionName,
    created_at: account.createdAt.toISOString(),
    updated_at: account.updatedAt.toISOString(),
    closed_at: account.closedAt?.toISOString() ?? null,
  };
}
