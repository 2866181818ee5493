import { parentBudgetAfterSubcategoryChange } from './subcategory-limit';

describe('parentBudgetAfterSubcategoryChange', () => {
  it('raises the parent by a new subcategory limit and keeps its reserve', () => {
    expect(
      parentBudgetAfterSubcategoryChange({ parentBudget: 100000n, siblingBudgets: [30000n], previous: 0n, next: 20000n }),
    ).toBe(120000n);
  });

  it('lowers the parent when a limit shrinks', () => {
    expect(
      parentBudgetAfterSubcategoryChange({ parentBudget: 120000n, siblingBudgets: [30000n], previous: 20000n, next: 5000n }),
    ).toBe(105000n);
  });

  it('drops a negative reserve: the parent becomes the sum of its subcategory limits', () => {
    expect(
      parentBudgetAfterSubcategoryChange({ parentBudget: 10000n, siblingBudgets: [30000n], previous: 0n, next: 20000n }),
    ).toBe(50000n);
  });

  it('removing the only limit leaves the reserve', () => {
    expect(parentBudgetAfterSubcategoryChange({ parentBudget: 70000n, siblingBudgets: [], previous: 20000n, next: 0n })).toBe(
      50000n,
    );
  });
});
