import { formatMoney, LARGEST_CENTS, MoneyError, toCents } from '@hearth/domain/money';
import type { MinorUnits } from '@hearth/domain/money';
import { ApiError } from './api-error';

// How responses give an amount: a string formatted in its currency and the request locale, and `_cents`, an integer
// of the currency's minor unit (JPY has none, KWD three).

/** The formatted amount, or null for no amount. */
export const formattedOrNull = (amount: MinorUnits | null, currency: string, locale: string): string | null =>
  amount === null ? null : formatMoney(amount, currency, locale);

/** The `_cents` of an amount kept within an exact JSON integer when it was set, or null for no amount. */
export const centsOrNull = (amount: MinorUnits | null): number | null => (amount === null ? null : toCents(amount));

/**
 * The `_cents` of an amount nothing bounded when it was stored or summed. One beyond what a JSON integer carries
 * exactly is refused by name (422 amount_out_of_range) rather than sent rounded.
 */
export function exactCents(field: string, amount: MinorUnits, currency: string, locale: string): number {
  try {
    return toCents(amount);
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
    const [value, largest] = [formatMoney(amount, currency, locale), formatMoney(LARGEST_CENTS, currency, locale)];
    throw new ApiError(422, 'amount_out_of_range', `${field} (${value}) is beyond the largest amount the _cents fields carry exactly (${largest})`);
  }
}
