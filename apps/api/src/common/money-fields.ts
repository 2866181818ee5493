import { finerThanMinorUnit, formatDecimal, formatMoney, LARGEST_CENTS, minorUnitDigits, MoneyError, parseAmount, parseDecimal, toCents } from '@hearth/domain/money';
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

/** The decimal text of an amount sent as a JSON string or number; undefined when it is neither. */
const amountText = (value: unknown): string | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value.trim() : undefined;

/**
 * Refuses by name a body amount that is no plain decimal (a word, an exponent, grouping), before its currency is
 * known; amountField then reads it in the currency.
 */
export function assertDecimalField(name: string, value: unknown): void {
  const text = amountText(value);
  if (text === undefined || !parseDecimal(text)) {
    const got = typeof value === 'string' ? ` (got "${value.slice(0, 40)}")` : '';
    throw ApiError.validation([`${name} must be a decimal amount written without grouping such as -1000.50${got}`]);
  }
}

/**
 * A body amount in `currency` from a JSON string or number (at least 0 when `atLeastZero`), refused (as imports
 * refuse it) when it has more decimals than the currency stores: rounding 12.345 to 12.35 would save something other
 * than what was sent. Within what a `_cents` field carries exactly, so that it can always be shown.
 */
export function amountField(name: string, value: unknown, currency: string, { atLeastZero = false } = {}): MinorUnits {
  const text = amountText(value);
  let amount: MinorUnits | undefined;
  try {
    if (text !== undefined) amount = parseAmount(text, currency);
  } catch (error) {
    if (!(error instanceof MoneyError)) throw error;
  }
  if (amount === undefined || (atLeastZero && amount < 0n)) {
    const got = typeof value === 'string' ? ` (got "${value.slice(0, 40)}")` : '';
    const example = atLeastZero ? 'of at least 0 ' : '';
    throw ApiError.validation([`${name} must be a decimal amount ${example}in ${currency}, written without grouping such as 1000.50${got}`]);
  }
  if (finerThanMinorUnit(text!, currency)) {
    const digits = minorUnitDigits(currency);
    const allowed = digits === 0 ? `${currency} amounts have no decimals` : `${currency} amounts have ${digits} decimals`;
    throw ApiError.validation([`${name} has more decimals than ${currency} stores: ${allowed} (got ${text})`]);
  }
  if (amount > LARGEST_CENTS || amount < -LARGEST_CENTS) {
    const largest = formatDecimal(LARGEST_CENTS, currency);
    throw ApiError.validation([atLeastZero ? `${name} must be at most ${largest}` : `${name} must be from -${largest} to ${largest}`]);
  }
  return amount;
}
