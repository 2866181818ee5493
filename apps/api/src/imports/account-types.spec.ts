import { guessAccountableType } from './account-types';

describe('guessAccountableType', () => {
  it.each([
    ['Checking', 'Depository'],
    ['CreditCard', 'CreditCard'],
    ['credit_card', 'CreditCard'],
    ['Credit Card', 'CreditCard'],
    ['  Mortgage ', 'Loan'],
    ['OtherLiability', 'OtherLiability'],
    ['Roth IRA', 'Investment'],
  ])('maps %j to %s', (label, type) => expect(guessAccountableType(label)).toBe(type));

  it.each(['', 'Piggy bank', 'unknown'])('leaves %j unmapped', (label) => expect(guessAccountableType(label)).toBeNull());
});
