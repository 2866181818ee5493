import { ACCOUNTABLE_TYPES, AccountableType } from '@hearth/contracts';

/** Common words people use for an account's kind, mapped to our accountable types. */
const SYNONYMS: Record<string, AccountableType> = {
  checking: 'Depository',
  savings: 'Depository',
  depository: 'Depository',
  bank: 'Depository',
  cash: 'Depository',
  current: 'Depository',
  'money market': 'Depository',
  hsa: 'Depository',
  cd: 'Depository',
  investment: 'Investment',
  brokerage: 'Investment',
  '401k': 'Investment',
  ira: 'Investment',
  'roth ira': 'Investment',
  isa: 'Investment',
  retirement: 'Investment',
  crypto: 'Crypto',
  cryptocurrency: 'Crypto',
  wallet: 'Crypto',
  property: 'Property',
  'real estate': 'Property',
  home: 'Property',
  house: 'Property',
  vehicle: 'Vehicle',
  car: 'Vehicle',
  'other asset': 'OtherAsset',
  'credit card': 'CreditCard',
  creditcard: 'CreditCard',
  card: 'CreditCard',
  loan: 'Loan',
  mortgage: 'Loan',
  'student loan': 'Loan',
  'auto loan': 'Loan',
  'other liability': 'OtherLiability',
};

const normalize = (value: string) => value.trim().toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ');

/** The accountable type a label names, or null when it is not recognised (the user then maps it). */
export function guessAccountableType(label: string): AccountableType | null {
  const exact = ACCOUNTABLE_TYPES.find((type) => type.toLowerCase() === label.trim().toLowerCase());
  return exact ?? SYNONYMS[normalize(label)] ?? null;
}

export const isAccountableType = (value: unknown): value is AccountableType =>
  typeof value === 'string' && (ACCOUNTABLE_TYPES as readonly string[]).includes(value);
