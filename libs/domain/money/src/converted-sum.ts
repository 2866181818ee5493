import { minorUnitDigits } from './currency';
import { divideRoundingHalfAwayFromZero, powerOfTen, requireDecimal } from './decimal';
import type { MinorUnits } from './amounts';

/**
 * Minor units of `to` for a sum the database computed as Σ(amount in `from` minor units × rate), e.g. "12345.678900".
 * Rounds half away from zero once, after summing, so many small conversions do not accumulate rounding error.
 */
export function convertedSumToMinorUnits(product: string, from: string, to: string): MinorUnits {
  const exact = requireDecimal(product, 'invalid_amount');
  const numerator = exact.unscaled * powerOfTen(minorUnitDigits(to));
  return divideRoundingHalfAwayFromZero(numerator, powerOfTen(exact.scale + minorUnitDigits(from)));
}
