import { balanceKindOf, BalanceStart, CurrencyFlows, rollForward } from './roll-forward';

const checking: BalanceStart = { currency: 'USD', classification: 'asset', accountableType: 'Depository', anchor: 100000n, cashBase: 0n };
const usd = (valueOut: string, cashOut = valueOut, unconverted = 0): CurrencyFlows => ({ currency: 'USD', valueOut, cashOut, unconverted });

describe('rollForward', () => {
  it('keeps the anchor when nothing moved', () => {
    expect(rollForward(checking, [])).toEqual({ balance: 100000n, cashBalance: 100000n, unconvertedEntries: 0 });
  });

  it('lowers an asset by money out and raises it by money in (negative amounts)', () => {
    expect(rollForward(checking, [usd('4599')]).balance).toBe(95401n);
    expect(rollForward(checking, [usd('-250000')]).balance).toBe(350000n);
  });

  it('raises a liability by money out: a card purchase adds to what is owed, a payment lowers it', () => {
    const card: BalanceStart = { ...checking, classification: 'liability', accountableType: 'CreditCard', anchor: 50000n };
    expect(rollForward(card, [usd('1999')])).toEqual({ balance: 51999n, cashBalance: 51999n, unconvertedEntries: 0 });
    expect(rollForward(card, [usd('-50000')]).balance).toBe(0n);
  });

  it('converts each currency sum once, rounding half away from zero, and counts what had no rate', () => {
    // 10.005 USD of EUR entries (Σ cents × rate) rounds to 1001 cents; JPY 1000 yen × 0.0067 = 6.70 USD.
    const flows = [usd('100'), { currency: 'EUR', valueOut: '1000.5', cashOut: '1000.5', unconverted: 2 }, { currency: 'JPY', valueOut: '6.7', cashOut: '6.7', unconverted: 0 }];
    expect(rollForward(checking, flows)).toEqual({ balance: 100000n - 100n - 1001n - 670n, cashBalance: 98229n, unconvertedEntries: 2 });
  });

  it("gives an investment account's cash from its own base and whole trades, and its value from the anchor and fees", () => {
    const brokerage: BalanceStart = { ...checking, accountableType: 'Investment', anchor: 500000n, cashBase: 200000n };
    // A 1,000.00 buy with a 5.00 fee, and a 20.00 dividend.
    expect(rollForward(brokerage, [usd('500', '100500'), usd('-2000', '-2000')])).toEqual({ balance: 501500n, cashBalance: 101500n, unconvertedEntries: 0 });
  });

  it('gives an account without cash (a house, a loan) no cash', () => {
    const loan: BalanceStart = { ...checking, classification: 'liability', accountableType: 'Loan', anchor: 2000000n };
    expect(rollForward(loan, [usd('-100000')])).toEqual({ balance: 1900000n, cashBalance: 0n, unconvertedEntries: 0 });
  });
});

describe('balanceKindOf', () => {
  it('knows every accountable type, and treats an unknown one as holding no cash', () => {
    expect(['Depository', 'CreditCard', 'Investment', 'Crypto', 'Property', 'Vehicle', 'OtherAsset', 'Loan', 'OtherLiability', 'Other'].map(balanceKindOf)).toEqual([
      'cash', 'cash', 'investment', 'investment', 'non_cash', 'non_cash', 'non_cash', 'non_cash', 'non_cash', 'non_cash',
    ]);
  });
});
