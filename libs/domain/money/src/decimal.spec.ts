import { divideRoundingHalfAwayFromZero, parseDecimal, rescale } from './decimal';

describe('parseDecimal', () => {
  it.each([
    ['0', 0n, 0],
    ['-1234.5', -12345n, 1],
    ['+7.250', 7250n, 3],
    ['00012', 12n, 0],
    ['123456789012345678901234567890.01', 12345678901234567890123456789001n, 2],
  ])('reads %s exactly', (text, unscaled, scale) => {
    expect(parseDecimal(text)).toEqual({ unscaled, scale });
  });

  it.each(['', ' 1', '1 ', '1,234.56', '1e3', '.5', '5.', '--1', '+-1', '0x10', 'NaN', 'Infinity', '1.2.3', '١٢'])(
    'rejects %p',
    (text) => {
      expect(parseDecimal(text)).toBeUndefined();
    },
  );
});

describe('divideRoundingHalfAwayFromZero', () => {
  it.each([
    [5n, 2n, 3n],
    [-5n, 2n, -3n],
    [4n, 3n, 1n],
    [5n, 3n, 2n],
    [-4n, 3n, -1n],
    [-1n, 3n, 0n],
    [0n, 7n, 0n],
    [14n, 7n, 2n],
  ])('%p / %p = %p', (numerator, denominator, expected) => {
    expect(divideRoundingHalfAwayFromZero(numerator, denominator)).toBe(expected);
  });

  it('refuses a non-positive denominator', () => {
    expect(() => divideRoundingHalfAwayFromZero(1n, 0n)).toThrow(RangeError);
    expect(() => divideRoundingHalfAwayFromZero(1n, -2n)).toThrow(RangeError);
  });
});

describe('rescale', () => {
  it('adds zeros when the target scale is larger', () => {
    expect(rescale({ unscaled: -12345n, scale: 1 }, 2)).toBe(-123450n);
  });

  it('rounds half away from zero when dropping digits', () => {
    expect(rescale({ unscaled: 125n, scale: 3 }, 2)).toBe(13n);
    expect(rescale({ unscaled: -125n, scale: 3 }, 2)).toBe(-13n);
    expect(rescale({ unscaled: 124n, scale: 3 }, 2)).toBe(12n);
  });
});
