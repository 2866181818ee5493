export { MoneyError } from './money-error';
export type { MoneyErrorCode } from './money-error';
export { assertCurrencyCode, currencyCodes, isCurrencyCode, minorUnitDigits } from './currency';
export { divideRoundingHalfAwayFromZero, parseDecimal } from './decimal';
export { convertAmount, finerThanMinorUnit, formatDecimal, LARGEST_CENTS, parseAmount, significantDecimals, toCents } from './amounts';
export { convertedSumToMinorUnits } from './converted-sum';
export type { MinorUnits } from './amounts';
export { DEFAULT_MONEY_LOCALE, formatMoney } from './format-money';
