import { formatMoney, formatMoneyWithCode } from './format-money';

const NBSP = '\u00a0';

describe('formatMoney', () => {
  it.each([
    [123456n, 'USD', 'en', '$1,234.56'],
    [-123456n, 'USD', 'en', '-$1,234.56'],
    [0n, 'USD', 'en', '$0.00'],
    [212000n, 'USD', 'en', '$2,120.00'],
    [500n, 'CAD', 'en', 'CA$5.00'],
    [1235n, 'JPY', 'en', '¥1,235'],
    [100012n, 'EUR', 'en', '€1,000.12'],
    [123456n, 'EUR', 'de', `1.234,56${NBSP}€`],
    [100012n, 'USD', 'de', `1.000,12${NBSP}$`],
    [1235n, 'KWD', 'en', `KWD${NBSP}1.235`],
  ])('%p %s %s -> %s', (amount, currency, locale, expected) => {
    expect(formatMoney(amount, currency, locale)).toBe(expected);
  });

  it('uses en when no locale is given', () => {
    expect(formatMoney(-5n, 'USD')).toBe('-$0.05');
  });

  it('formats amounts beyond 2^53 without float error', () => {
    expect(formatMoney(9007199254740993n, 'USD')).toBe('$90,071,992,547,409.93');
  });

  it('rejects a malformed locale tag', () => {
    expect(() => formatMoney(1n, 'USD', 'en_US!!')).toThrow(expect.objectContaining({ code: 'invalid_locale' }));
  });

  it('rejects an unsupported currency', () => {
    expect(() => formatMoney(1n, 'XYZ', 'en')).toThrow(expect.objectContaining({ code: 'invalid_currency' }));
  });
});

describe('formatMoneyWithCode', () => {
  it.each([
    [150000n, 'EUR', 'en', '1,500.00 EUR'],
    [-2000n, 'USD', 'en', '-20.00 USD'],
    [1235n, 'JPY', 'en', '1,235 JPY'],
    [1235n, 'KWD', 'en', '1.235 KWD'],
    [123456n, 'EUR', 'de', '1.234,56 EUR'],
  ])('%p %s %s -> %s', (amount, currency, locale, expected) => {
    expect(formatMoneyWithCode(amount, currency, locale)).toBe(expected);
  });

  it('formats amounts beyond 2^53 without float error, and refuses an unsupported currency', () => {
    expect(formatMoneyWithCode(9007199254740993n, 'USD')).toBe('90,071,992,547,409.93 USD');
    expect(() => formatMoneyWithCode(1n, 'XYZ')).toThrow(expect.objectContaining({ code: 'invalid_currency' }));
  });
});
