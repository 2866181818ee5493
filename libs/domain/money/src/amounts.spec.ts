import { convertAmount, finerThanMinorUnit, formatDecimal, parseAmount, significantDecimals, toCents } from './amounts';

describe('parseAmount', () => {
  it.each([
    ['-1234.5', 'USD', -123450n],
    ['1234.56', 'USD', 123456n],
    ['0.125', 'USD', 13n],
    ['-0.125', 'USD', -13n],
    ['0.124', 'USD', 12n],
    ['0.005', 'USD', 1n],
    ['-0.004', 'USD', 0n],
    ['1234.5', 'JPY', 1235n],
    ['-1234.5', 'JPY', -1235n],
    ['1.2345', 'KWD', 1235n],
    ['1.2', 'KWD', 1200n],
    ['90071992547409.93', 'USD', 9007199254740993n],
  ])('%s %s -> %p', (text, currency, expected) => {
    expect(parseAmount(text, currency)).toBe(expected);
  });

  it.each(['12,50', '1e2', 'abc', '', '$5', ' 5'])('rejects %p with invalid_amount', (text) => {
    expect(() => parseAmount(text, 'USD')).toThrow(expect.objectContaining({ code: 'invalid_amount' }));
  });

  it('rejects an unknown currency', () => {
    expect(() => parseAmount('1.00', 'usd')).toThrow(expect.objectContaining({ code: 'invalid_currency' }));
  });
});

describe('formatDecimal', () => {
  it.each([
    [-123450n, 'USD', '-1234.50'],
    [5n, 'USD', '0.05'],
    [-5n, 'USD', '-0.05'],
    [0n, 'USD', '0.00'],
    [1235n, 'JPY', '1235'],
    [-7n, 'JPY', '-7'],
    [1235n, 'KWD', '1.235'],
    [9007199254740993n, 'USD', '90071992547409.93'],
  ])('%p %s -> %s', (amount, currency, expected) => {
    expect(formatDecimal(amount, currency)).toBe(expected);
  });

  it('round-trips with parseAmount', () => {
    expect(parseAmount(formatDecimal(-98765n, 'EUR'), 'EUR')).toBe(-98765n);
  });
});

describe('convertAmount', () => {
  it('converts USD to EUR at a decimal rate', () => {
    expect(convertAmount(10000n, 'USD', 'EUR', '0.9123')).toBe(9123n);
  });

  it('rounds half away from zero in both directions', () => {
    // 0.05 USD * 0.5 = 0.025 EUR
    expect(convertAmount(5n, 'USD', 'EUR', '0.5')).toBe(3n);
    expect(convertAmount(-5n, 'USD', 'EUR', '0.5')).toBe(-3n);
  });

  it('handles currencies with different minor-unit digits', () => {
    // 12.34 USD * 151.5 = 1869.51 JPY -> 1870
    expect(convertAmount(1234n, 'USD', 'JPY', '151.5')).toBe(1870n);
    // 1000 JPY * 0.0066 = 6.60 USD
    expect(convertAmount(1000n, 'JPY', 'USD', '0.0066')).toBe(660n);
    // 1.000 KWD * 3.2545 = 3.2545 USD -> 3.25
    expect(convertAmount(1000n, 'KWD', 'USD', '3.2545')).toBe(325n);
  });

  it('keeps the amount at rate 1 within one currency', () => {
    expect(convertAmount(-4242n, 'USD', 'USD', '1')).toBe(-4242n);
  });

  it.each(['0', '-1.1', 'abc', '1e-3', ''])('rejects rate %p', (rate) => {
    expect(() => convertAmount(100n, 'USD', 'EUR', rate)).toThrow(expect.objectContaining({ code: 'invalid_rate' }));
  });
});

describe('toCents', () => {
  it('returns the integer count of minor units', () => {
    expect(toCents(212000n)).toBe(212000);
    expect(toCents(-5n)).toBe(-5);
    expect(toCents(0n)).toBe(0);
  });

  it('accepts the largest safe integer and refuses one more', () => {
    expect(toCents(BigInt(Number.MAX_SAFE_INTEGER))).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => toCents(BigInt(Number.MAX_SAFE_INTEGER) + 1n)).toThrow(
      expect.objectContaining({ code: 'unsafe_amount' }),
    );
  });
});

describe('significantDecimals', () => {
  it.each([
    ['12', 0],
    ['3.000', 0],
    ['1.50', 1],
    ['12.345', 3],
    ['-0.125', 3],
  ])('%s has %i', (decimal, expected) => {
    expect(significantDecimals(decimal)).toBe(expected);
  });
});

describe('finerThanMinorUnit', () => {
  it.each([
    ['12.345', 'USD', true],
    ['12.340', 'USD', false],
    ['12.35', 'USD', false],
    ['12.5', 'JPY', true],
    ['12.0', 'JPY', false],
    ['1.2345', 'KWD', true],
    ['1.234', 'KWD', false],
  ])('%s in %s: %p', (decimal, currency, expected) => {
    expect(finerThanMinorUnit(decimal, currency)).toBe(expected);
  });
});
