export { MoneyError } from './money-error';
export type { MoneyErrorCode } from './money-error';
export { assertCurrencyCode, isCurrencyCode, minorUnitDigits } from './currency';
export { divideRoundingHalfAwayFromZero, parseDecimal } from './decimal';
export { convertAmount, formatDecimal, LARGEST_CENTS, parseAmount, toCents } from './amounts';
export { convertedSumToMinorUnits } from './converted-sum';
export type { MinorUnits } from './amounts';
export { DEFAULT_MONEY_LOCALE, formatMoney } from './format-money';
