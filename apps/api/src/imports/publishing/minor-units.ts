import { minorUnitDigits } from '@hearth/domain/money';

/** 10^(minor-unit digits) as a decimal string (USD "100", JPY "1", KWD "1000"): SQL multiplies amounts by it. */
export const minorUnitScale = (currency: string): string => String(10 ** minorUnitDigits(currency));
