import { formatDecimal } from './amounts';
import type { MinorUnits } from './amounts';
import { assertCurrencyCode, minorUnitDigits } from './currency';
import { MoneyError } from './money-error';

export const DEFAULT_MONEY_LOCALE = 'en';

const formatters = new Map<string, Intl.NumberFormat>();

function currencyFormatter(currency: string, locale: string): Intl.NumberFormat {
  const key = `${locale}|${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    assertCurrencyCode(currency);
    try {
      formatter = new Intl.NumberFormat(locale, { style: 'currency', currency });
    } catch {
      throw new MoneyError('invalid_locale', `${JSON.stringify(locale)} is not a valid locale tag`);
    }
    formatters.set(key, formatter);
  }
  return formatter;
}

/**
 * Display string for an amount, e.g. "$1,234.56", "-$1,234.56", "CA$5.00", "¥1,235", "1.234,56 €" (de).
 * The exact decimal string is handed to Intl, so amounts beyond 2^53 format without float error.
 */
export function formatMoney(amount: MinorUnits, currency: string, locale: string = DEFAULT_MONEY_LOCALE): string {
  const decimal = formatDecimal(amount, currency) as `${number}`;
  return currencyFormatter(currency, locale).format(decimal);
}

const codeFormatters = new Map<string, Intl.NumberFormat>();

/**
 * An amount with its currency's code after it, e.g. "1,500.00 EUR", "-20.00 USD", "1,235 JPY": for messages that
 * set two amounts side by side, where a code reads unambiguously and a symbol ("$") may not.
 */
export function formatMoneyWithCode(amount: MinorUnits, currency: string, locale: string = DEFAULT_MONEY_LOCALE): string {
  currencyFormatter(currency, locale); // checks the code and the locale as formatMoney does
  const digits = minorUnitDigits(currency);
  const key = `${locale}|${digits}`;
  let formatter = codeFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { minimumFractionDigits: digits, maximumFractionDigits: digits });
    codeFormatters.set(key, formatter);
  }
  return `${formatter.format(formatDecimal(amount, currency) as `${number}`)} ${currency}`;
}
