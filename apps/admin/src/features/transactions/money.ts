import { formatDecimal, formatMoney } from '@hearth/domain/money';
import type { Transaction } from './api/useTransactions';

/**
 * The register writes every amount one way: as Intl writes money in the browser's language, money in as a plain
 * amount and money out with its minus sign ("-$12.34"), the opposite of the API's `amount` string (Sure's sign).
 */
export const shownAmount = (t: Pick<Transaction, 'signed_amount_cents' | 'currency'>): string =>
  formatMoney(BigInt(t.signed_amount_cents), t.currency, navigator.language);

/** Minor units as Intl writes them in `currency`. */
export const shownMinorUnits = (cents: bigint, currency: string): string => formatMoney(cents, currency, navigator.language);

/** The transaction's amount as the API takes it back: a plain decimal with Sure's sign (money out positive). */
export const apiAmountOf = (t: Pick<Transaction, 'signed_amount_cents' | 'currency'>): string => formatDecimal(BigInt(-t.signed_amount_cents), t.currency);
