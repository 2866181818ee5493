import { localeDecimal, readLocaleAmount } from './locale-amount';

describe('readLocaleAmount', () => {
  it.each([
    ['1,000', 'USD', 'en-US', '1000'],
    ['1,000.50', 'USD', 'en-US', '1000.50'],
    ['1000.5', 'USD', 'en-US', '1000.5'],
    [' 12,345,678.90 ', 'USD', 'en-US', '12345678.90'],
    ['12.340', 'USD', 'en-US', '12.340'],
    ['0', 'USD', 'en-US', '0'],
    ['1.000,50', 'EUR', 'de', '1000.50'],
    ['12.345', 'EUR', 'de', '12345'],
    ['1 000,5', 'EUR', 'fr', '1000.5'],
    ['1\u202f000,5', 'EUR', 'fr', '1000.5'],
    ['1,00,000', 'INR', 'en-IN', '100000'],
    ['1,234', 'JPY', 'ja', '1234'],
    ['1.234', 'KWD', 'en-US', '1.234'],
  ])('reads %p in %s (%s) as %p', (text, currency, locale, decimal) => {
    expect(readLocaleAmount(text, currency, locale)).toEqual({ ok: true, decimal });
  });

  it.each([
    ['12.345', 'USD', 'en-US', 'too_many_decimals', 2],
    ['12.5', 'JPY', 'ja', 'too_many_decimals', 0],
    ['1,2345', 'KWD', 'de', 'too_many_decimals', 3],
    ['-5', 'USD', 'en-US', 'negative', 2],
    ['1,00', 'USD', 'en-US', 'not_an_amount', 2],
    ['1,0000', 'USD', 'en-US', 'not_an_amount', 2],
    ['12,50', 'USD', 'en-US', 'not_an_amount', 2],
    ['1.000,50', 'USD', 'en-US', 'not_an_amount', 2],
    ['$5', 'USD', 'en-US', 'not_an_amount', 2],
    ['1e3', 'USD', 'en-US', 'not_an_amount', 2],
    ['', 'USD', 'en-US', 'not_an_amount', 2],
    ['.5', 'USD', 'en-US', 'not_an_amount', 2],
  ])('refuses %p in %s (%s): %s', (text, currency, locale, problem, digits) => {
    expect(readLocaleAmount(text, currency, locale)).toMatchObject({ ok: false, problem, digits });
  });

  it('gives an example in the locale and the currency digits', () => {
    expect(readLocaleAmount('x', 'USD', 'en-US')).toMatchObject({ example: '1,234.50' });
    expect(readLocaleAmount('x', 'EUR', 'de')).toMatchObject({ example: '1.234,50' });
    expect(readLocaleAmount('x', 'JPY', 'en-US')).toMatchObject({ example: '1,235' });
  });
});

describe('localeDecimal', () => {
  it('writes the decimal mark of the locale, which readLocaleAmount reads back', () => {
    expect(localeDecimal('1234.50', 'de')).toBe('1234,50');
    expect(localeDecimal('1234.50', 'en-US')).toBe('1234.50');
    expect(localeDecimal('1234', 'de')).toBe('1234');
    expect(readLocaleAmount(localeDecimal('90071992547409.91', 'fr'), 'EUR', 'fr')).toEqual({ ok: true, decimal: '90071992547409.91' });
  });
});
