import {
  BUDGET_COUNTED_KINDS,
  BUDGET_EXCLUDED_KINDS,
  EXCLUDED_INVESTMENT_ACTIVITY_LABELS,
  budgetContribution,
  isTaxAdvantagedAccount,
} from './inclusion-rules';

describe('inclusion rule constants', () => {
  it('exclude transfers, one-offs and card payments', () => {
    expect([...BUDGET_EXCLUDED_KINDS].sort()).toEqual(['cc_payment', 'funds_movement', 'one_time']);
  });

  it('count every other kind', () => {
    expect([...BUDGET_COUNTED_KINDS].sort()).toEqual(['investment_contribution', 'loan_payment', 'standard']);
  });

  it('exclude the investment movement labels', () => {
    expect(EXCLUDED_INVESTMENT_ACTIVITY_LABELS).toEqual(['Transfer', 'Sweep In', 'Sweep Out', 'Exchange']);
  });
});

describe('budgetContribution', () => {
  it.each([
    ['standard', 12000n, 'expense', 12000n],
    ['standard', -3000n, 'income', 3000n],
    ['standard', 0n, 'expense', 0n],
    ['loan_payment', 40000n, 'expense', 40000n],
    ['investment_contribution', -2500n, 'expense', 2500n],
  ] as const)('%s %p -> %s %p', (kind, amount, classification, magnitude) => {
    expect(budgetContribution({ kind, amount })).toEqual({ classification, amount: magnitude });
  });

  it.each(['funds_movement', 'one_time', 'cc_payment'] as const)('leaves out kind %s', (kind) => {
    expect(budgetContribution({ kind, amount: 100n })).toBeNull();
  });

  it('leaves out an excluded investment activity label', () => {
    expect(budgetContribution({ kind: 'standard', amount: 100n, investmentActivityLabel: 'Sweep In' })).toBeNull();
  });

  it('keeps other investment activity labels', () => {
    expect(budgetContribution({ kind: 'standard', amount: -100n, investmentActivityLabel: 'Dividend' })).toEqual({
      classification: 'income',
      amount: 100n,
    });
  });
});

describe('isTaxAdvantagedAccount', () => {
  it.each([
    ['Investment', '401k', true],
    ['Investment', 'roth_ira', true],
    ['Investment', 'isa', true],
    ['Investment', 'brokerage', false],
    ['Investment', null, false],
    ['Investment', 'unknown_subtype', false],
    ['Depository', 'hsa', true],
    ['Depository', 'checking', false],
    ['Crypto', null, false],
    ['CreditCard', '401k', false],
  ] as const)('%s/%p -> %p', (type, subtype, expected) => {
    expect(isTaxAdvantagedAccount(type, subtype)).toBe(expected);
  });
});
