import { amountWithNature } from './nature';

describe('amountWithNature', () => {
  it.each([
    [1250n, 'income', -1250n],
    [-1250n, 'inflow', -1250n],
    [-1250n, 'expense', 1250n],
    [1250n, 'outflow', 1250n],
    [-1250n, undefined, -1250n],
    [1250n, undefined, 1250n],
    [0n, 'income', 0n],
  ] as const)('%s with nature %s is %s', (amount, nature, expected) => {
    expect(amountWithNature(amount, nature)).toBe(expected);
  });
});
