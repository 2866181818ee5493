import { MoneyError } from './money-error';

const ISO_CODE_SHAPE = /^[A-Z]{3}$/;

let supportedCodes: ReadonlySet<string> | undefined;
const digitsByCurrency = new Map<string, number>();

function supportedCurrencyCodes(): ReadonlySet<string> {
  supportedCodes ??= new Set(Intl.supportedValuesOf('currency'));
  return supportedCodes;
}

/** Every code isCurrencyCode accepts, sorted: for pickers and for set-based checks in SQL. */
export function currencyCodes(): readonly string[] {
  return [...supportedCurrencyCodes()].sort();
}

/** True for an upper-case ISO 4217 code that this runtime's Intl knows ("usd" and "ABC" are not). */
export function isCurrencyCode(code: unknown): code is string {
  return typeof code === 'string' && ISO_CODE_SHAPE.test(code) && supportedCurrencyCodes().has(code);
}

export function assertCurrencyCode(code: unknown): asserts code is string {
  if (!isCurrencyCode(code)) {
    throw new MoneyError('invalid_currency', `${JSON.stringify(code)} is not a supported ISO 4217 currency code`);
  }
}

/** Digits after the decimal mark for `currency` (JPY 0, USD 2, KWD 3), as Intl's currency data says. */
export function minorUnitDigits(currency: string): number {
  const cached = digitsByCurrency.get(currency);
  if (cached !== undefined) return cached;
  assertCurrencyCode(currency);
  const { maximumFractionDigits } = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions();
  // Intl always resolves it for style 'currency'; the lib typing merely allows undefined.
  const digits = maximumFractionDigits ?? 2;
  digitsByCurrency.set(currency, digits);
  return digits;
}
