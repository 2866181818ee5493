import { minorUnitDigits } from '@hearth/domain/money';

/** 10^(minor-unit digits) as a decimal string (USD "100", JPY "1", KWD "1000"): SQL multiplies amounts by it. */
export const minorUnitScale = (currency: string): string => String(10 ** minorUnitDigits(currency));

let scales: string | undefined;
/** Every supported currency's scale as one JSON object ({"USD": "100", ...}), for SQL that converts many rows. */
export const minorUnitScales = (): string =>
  (scales ??= JSON.stringify(Object.fromEntries(Intl.supportedValuesOf('currency').map((code) => [code, minorUnitScale(code)]))));
