import { minorUnitDigits } from './currency';
import { divideRoundingHalfAwayFromZero, powerOfTen, requireDecimal, rescale } from './decimal';
import { MoneyError } from './money-error';

/**
 * An amount as an integer count of the currency's minor unit (cents for USD, yen for JPY, fils for KWD).
 * A bigint, like the database column: exact at any size, and pg hands bigint columns back as strings anyway.
 */
export type MinorUnits = bigint;

/** "-1234.5" in USD -> -123450n. Extra digits round half away from zero ("0.125" USD -> 13n). */
export function parseAmount(text: string, currency: string): MinorUnits {
  const digits = minorUnitDigits(currency);
  return rescale(requireDecimal(text, 'invalid_amount'), digits);
}

/** The decimals of a decimal string that are not trailing zeros: "1.50" has 1, "12" and "3.000" none. */
export function significantDecimals(decimal: string): number {
  const point = decimal.indexOf('.');
  if (point === -1) return 0;
  let end = decimal.length;
  while (end > point + 1 && decimal[end - 1] === '0') end--;
  return end - point - 1;
}

/**
 * Whether a decimal string has more significant decimals than `currency` stores (12.345 in USD, 12.5 in JPY): minor
 * units would round it, so input like that is refused rather than stored as something else. Trailing zeros are fine.
 */
export const finerThanMinorUnit = (decimal: string, currency: string): boolean => significantDecimals(decimal) > minorUnitDigits(currency);

/** -123450n in USD -> "-1234.50"; always exactly the currency's digits, no grouping. */
export function formatDecimal(amount: MinorUnits, currency: string): string {
  const digits = minorUnitDigits(currency);
  const magnitude = (amount < 0n ? -amount : amount).toString().padStart(digits + 1, '0');
  const sign = amount < 0n ? '-' : '';
  if (digits === 0) return sign + magnitude;
  return `${sign}${magnitude.slice(0, -digits)}.${magnitude.slice(-digits)}`;
}

/**
 * Converts `amount` (minor units of `from`) into minor units of `to` at `rate` units of `to` per unit of `from`,
 * rounding half away from zero. The rate is a decimal string so that no float ever touches money.
 */
export function convertAmount(amount: MinorUnits, from: string, to: string, rate: string): MinorUnits {
  const exactRate = requireDecimal(rate, 'invalid_rate');
  if (exactRate.unscaled <= 0n) throw new MoneyError('invalid_rate', `exchange rate must be positive, got ${rate}`);
  const numerator = amount * exactRate.unscaled * powerOfTen(minorUnitDigits(to));
  const denominator = powerOfTen(exactRate.scale + minorUnitDigits(from));
  return divideRoundingHalfAwayFromZero(numerator, denominator);
}

/** The largest amount (in minor units, either sign) an API `_cents` field carries as an exact JSON integer. */
export const LARGEST_CENTS: MinorUnits = BigInt(Number.MAX_SAFE_INTEGER);

/** The JSON integer for an API `_cents` field; refuses amounts a JS number cannot hold exactly. */
export function toCents(amount: MinorUnits): number {
  const cents = Number(amount);
  if (amount > LARGEST_CENTS || amount < -LARGEST_CENTS) {
    throw new MoneyError('unsafe_amount', `${amount} minor units exceed the range of a JSON integer`);
  }
  return cents;
}
