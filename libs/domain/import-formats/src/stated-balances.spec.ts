import type { StatementFacts } from './statement';
import { statedBalances } from './stated-balances';

const day = (n: number, opening: string, closing: string): StatementFacts => ({
  currency: 'EUR',
  openingBalance: { amount: opening, date: `2026-10-0${n - 1}`, currency: 'EUR' },
  closingBalance: { amount: closing, date: `2026-10-0${n}`, currency: 'EUR' },
  rows: { first: n, last: n },
});

describe('statedBalances', () => {
  it("keeps a CAMT or MT940 statement's opening and closing balances", () => {
    expect(statedBalances([day(2, '1000.00', '1500.00')])).toEqual({
      closing: { amount: '1500.00', date: '2026-10-02', currency: 'EUR' },
      opening: { amount: '1000.00', currency: 'EUR' },
    });
  });

  it("keeps an OFX statement's ledger balance, in the statement's currency (CURDEF), and no opening", () => {
    const ofx: StatementFacts = { currency: 'USD', closingBalance: { amount: '-679.57', date: '2024-11-30' }, rows: { first: 1, last: 5 } };
    expect(statedBalances([ofx])).toEqual({ closing: { amount: '-679.57', date: '2024-11-30', currency: 'USD' } });
  });

  it('names no currency when the file names none', () => {
    expect(statedBalances([{ closingBalance: { amount: '10.00', date: '2024-11-30' }, rows: null }])).toEqual({ closing: { amount: '10.00', date: '2024-11-30' } });
  });

  it("reads daily statements by date whatever their order in the file: the earliest one's opening, the latest one's closing", () => {
    expect(statedBalances([day(4, '1200.00', '1100.00'), day(2, '1000.00', '1500.00'), day(3, '1500.00', '1200.00')])).toEqual({
      closing: { amount: '1100.00', date: '2026-10-04', currency: 'EUR' },
      opening: { amount: '1000.00', currency: 'EUR' },
    });
  });

  it("gives no opening when the earliest statement states none: a later one's is not the balance before the first row", () => {
    const first: StatementFacts = { periodStart: '2026-10-01', closingBalance: { amount: '1500.00', date: '2026-10-02' }, rows: { first: 1, last: 1 } };
    expect(statedBalances([first, day(3, '1500.00', '1200.00')])).toEqual({ closing: { amount: '1200.00', date: '2026-10-03', currency: 'EUR' } });
  });

  it('is null without a dated closing balance: an investment statement, an unreadable date, no statement', () => {
    expect(statedBalances([{ cashBalance: { amount: '5.00', date: '2024-12-31' }, rows: { first: 1, last: 8 } }])).toBeNull();
    expect(statedBalances([{ openingBalance: { amount: '1.00', date: null }, closingBalance: { amount: '2.00', date: null }, rows: null }])).toBeNull();
    expect(statedBalances([])).toBeNull();
    expect(statedBalances(undefined)).toBeNull();
  });
});
