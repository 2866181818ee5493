import type { BalanceStart, CurrencyFlows } from './roll-forward';
import { rollForward } from './roll-forward';
import { anchorReaching, bankSigned, statedBalanceDisagreement } from './stated-balance';

const checking: BalanceStart = { currency: 'EUR', classification: 'asset', accountableType: 'Depository', anchor: 0n, cashBase: 0n };
const card: BalanceStart = { ...checking, classification: 'liability', accountableType: 'CreditCard' };
const eur = (valueOut: string): CurrencyFlows => ({ currency: 'EUR', valueOut, cashOut: valueOut, unconverted: 0 });

describe('bankSigned', () => {
  it("keeps an asset's balance and flips a liability's: a card's debt of 679.57 is -679.57 to the bank", () => {
    expect(bankSigned(150000n, 'asset')).toBe(150000n);
    expect(bankSigned(67957n, 'liability')).toBe(-67957n);
    expect(bankSigned(bankSigned(-67957n, 'liability'), 'liability')).toBe(-67957n);
  });
});

describe('anchorReaching', () => {
  it('gives the opening balance from which the flows reach the closing one: a bank account, net 500.00 in', () => {
    const flows = [eur('-70000'), eur('20000')];
    const anchor = anchorReaching(150000n, checking, flows);
    expect(anchor).toBe(100000n);
    expect(rollForward({ ...checking, anchor }, flows).balance).toBe(150000n);
  });

  it('whatever the balance the account was created with, and for a card (purchases raise what is owed)', () => {
    expect(anchorReaching(150000n, { ...checking, anchor: 99999n }, [eur('-50000')])).toBe(100000n);
    const flows = [eur('31993'), eur('-10000')];
    const anchor = anchorReaching(67957n, card, flows);
    expect(anchor).toBe(45964n);
    expect(rollForward({ ...card, anchor }, flows).balance).toBe(67957n);
  });
});

describe('statedBalanceDisagreement', () => {
  it('is null when the account agrees with the bank', () => {
    expect(statedBalanceDisagreement({ stated: 150000n, account: 150000n, currency: 'EUR', date: '2026-10-31' })).toBeNull();
  });

  it('names both figures in the currency, the day and how far apart they are', () => {
    expect(statedBalanceDisagreement({ stated: 150000n, account: 148000n, currency: 'EUR', date: '2026-10-31' })).toBe(
      "The bank states a balance of 1,500.00 EUR on 2026-10-31; the account's balance that day is 1,480.00 EUR (20.00 EUR apart)",
    );
    expect(statedBalanceDisagreement({ stated: -67957n, account: -60000n, currency: 'USD', date: '2024-11-30' })).toBe(
      "The bank states a balance of -679.57 USD on 2024-11-30; the account's balance that day is -600.00 USD (79.57 USD apart)",
    );
  });
});
