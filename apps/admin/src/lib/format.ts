import { formatMoney, isCurrencyCode, MoneyError, minorUnitDigits, parseAmount } from '@hearth/domain/money';

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export const formatDateTime = (iso: string | null | undefined, empty = '—'): string => (iso ? dateTime.format(new Date(iso)) : empty);

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeZone: 'UTC' });

/** A calendar date (YYYY-MM-DD) as the browser's language writes it, the same day wherever the browser is. */
export const formatDate = (isoDate: string): string => day.format(new Date(`${isoDate}T00:00:00Z`));

/**
 * A decimal amount ("-3200.00") in its currency as the browser's language writes money ("-$3,200.00"), negated with
 * `negate`. Without a known currency, or with more decimals than it has, the decimal as it is (signed the same way).
 */
export function formatAmount(decimal: string, currency: string | null, { negate = false } = {}): string {
  const signed = negate ? (decimal.startsWith('-') ? decimal.slice(1) : `-${decimal}`) : decimal;
  // An amount finer than the currency's minor unit is a row error: shown as written, not rounded.
  if (!currency || !isCurrencyCode(currency) || (signed.split('.')[1]?.length ?? 0) > minorUnitDigits(currency)) return signed;
  try {
    return formatMoney(parseAmount(signed, currency), currency, navigator.language);
  } catch (error) {
    if (error instanceof MoneyError) return signed;
    throw error;
  }
}
