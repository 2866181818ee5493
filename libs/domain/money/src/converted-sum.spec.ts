import { convertedSumToMinorUnits } from './converted-sum';

describe('convertedSumToMinorUnits', () => {
  it.each([
    ['123450', 'USD', 'USD', 123450n],
    ['123450.000000000000', 'USD', 'USD', 123450n],
    // 100.00 EUR at 1.0855 USD per EUR = 108.55 USD
    ['10855.0000', 'EUR', 'USD', 10855n],
    // 1,000 JPY at 0.0064 USD per JPY = 6.40 USD (JPY has no minor digits)
    ['6.4000', 'JPY', 'USD', 640n],
    // 10.00 USD at 155.5 JPY per USD = 1,555 JPY
    ['155500.0', 'USD', 'JPY', 1555n],
    // 1.000 KWD at 3.25 USD per KWD = 3.25 USD
    ['3250.00', 'KWD', 'USD', 325n],
    ['0.5', 'USD', 'USD', 1n],
    ['-0.5', 'USD', 'USD', -1n],
    ['0.49', 'USD', 'USD', 0n],
    ['0', 'EUR', 'USD', 0n],
  ])('%s %s -> %s = %p', (product, from, to, expected) => {
    expect(convertedSumToMinorUnits(product, from, to)).toBe(expected);
  });

  it('rejects what is not a plain decimal', () => {
    expect(() => convertedSumToMinorUnits('1e3', 'USD', 'USD')).toThrow(expect.objectContaining({ code: 'invalid_amount' }));
  });
});
