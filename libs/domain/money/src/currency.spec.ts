import { assertCurrencyCode, isCurrencyCode, minorUnitDigits } from './currency';
import { MoneyError } from './money-error';

describe('isCurrencyCode', () => {
  it.each(['USD', 'EUR', 'JPY', 'KWD', 'CAD'])('accepts %s', (code) => {
    expect(isCurrencyCode(code)).toBe(true);
  });

  it.each(['usd', 'US', 'USDX', 'ABC', '', ' USD', 123, null, undefined])('rejects %p', (code) => {
    expect(isCurrencyCode(code)).toBe(false);
  });
});

describe('assertCurrencyCode', () => {
  it('throws a MoneyError with code invalid_currency', () => {
    expect(() => assertCurrencyCode('usd')).toThrow(expect.objectContaining({ code: 'invalid_currency' }));
    expect(() => assertCurrencyCode('usd')).toThrow(MoneyError);
  });

  it('passes a supported code', () => {
    expect(() => assertCurrencyCode('GBP')).not.toThrow();
  });
});

describe('minorUnitDigits', () => {
  it.each([
    ['JPY', 0],
    ['USD', 2],
    ['EUR', 2],
    ['KWD', 3],
    ['BHD', 3],
  ])('%s has %i digits', (currency, digits) => {
    expect(minorUnitDigits(currency)).toBe(digits);
  });

  it('rejects an unknown currency', () => {
    expect(() => minorUnitDigits('XYZ')).toThrow(expect.objectContaining({ code: 'invalid_currency' }));
  });
});
