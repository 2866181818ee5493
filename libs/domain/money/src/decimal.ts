import { MoneyError } from './money-error';

/** An exact decimal: value = unscaled / 10^scale. */
export interface Decimal {
  unscaled: bigint;
  scale: number;
}

// Plain decimal notation only: no exponent, no grouping, no surrounding spaces, a digit on each side of the point.
const DECIMAL_SHAPE = /^([+-]?)(\d+)(?:\.(\d+))?$/;

/** Parses "-1234.5" exactly; returns undefined for anything that is not plain decimal notation. */
export function parseDecimal(text: string): Decimal | undefined {
  const match = DECIMAL_SHAPE.exec(text);
  if (!match) return undefined;
  const [, sign, integerDigits, fractionDigits = ''] = match;
  const magnitude = BigInt(integerDigits + fractionDigits);
  return { unscaled: sign === '-' ? -magnitude : magnitude, scale: fractionDigits.length };
}

export function powerOfTen(exponent: number): bigint {
  return 10n ** BigInt(exponent);
}

/** numerator / denominator rounded half away from zero (2.5 -> 3, -2.5 -> -3), unlike Math.round. */
export function divideRoundingHalfAwayFromZero(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  const magnitude = numerator < 0n ? -numerator : numerator;
  const rounded = (2n * magnitude + denominator) / (2n * denominator);
  return numerator < 0n ? -rounded : rounded;
}

/** Re-expresses a decimal with `scale` fraction digits, rounding half away from zero when digits are dropped. */
export function rescale(decimal: Decimal, scale: number): bigint {
  const shift = scale - decimal.scale;
  return shift >= 0
    ? decimal.unscaled * powerOfTen(shift)
    : divideRoundingHalfAwayFromZero(decimal.unscaled, powerOfTen(-shift));
}

export function requireDecimal(text: string, code: 'invalid_amount' | 'invalid_rate'): Decimal {
  const decimal = typeof text === 'string' ? parseDecimal(text) : undefined;
  if (!decimal) throw new MoneyError(code, `${JSON.stringify(text)} is not a plain decimal number`);
  return decimal;
}
