import { assertCurrencyCode, currencyCodes, isCurrencyCode, minorUnitDigits } from './currency';
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

describe('currencyCodes', () => {
  it('lists exactly the codes isCurrencyCode accepts, sorted', () => {
    const codes = currencyCodes();
    expect(codes).toEqual([...codes].sort());
    expect(codes).toEqual(expect.arrayContaining(['USD', 'EUR', 'JPY', 'KWD']));
    expect(codes.every((code) => isCurrencyCode(code))).toBe(true);
    expect(codes).not.toContain('XYZ');
  });
});
