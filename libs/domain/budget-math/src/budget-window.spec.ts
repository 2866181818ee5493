import { budgetPeriodFor } from './budget-period';
import { budgetWindow, isWithinBudgetWindow } from './budget-window';

describe('budgetWindow', () => {
  it('reaches two years back from the first of the month and two years ahead of the current period', () => {
    expect(budgetWindow('2025-06-18', 1, null)).toEqual({ earliestStart: '2023-06-01', latestStart: '2027-06-01' });
  });

  it('reaches further back when the oldest entry is older', () => {
    expect(budgetWindow('2025-06-18', 1, '2019-03-27')).toEqual({ earliestStart: '2019-03-01', latestStart: '2027-06-01' });
  });

  it('keeps two years back when the oldest entry is recent', () => {
    expect(budgetWindow('2025-06-18', 1, '2025-01-05').earliestStart).toBe('2023-06-01');
  });

  it('counts ahead from the custom period that contains today', () => {
    expect(budgetWindow('2025-06-10', 15, null).latestStart).toBe('2027-05-15');
  });

  it('admits the periods at both edges and refuses the ones beyond', () => {
    const window = budgetWindow('2025-06-18', 1, null);
    const admits = (date: string) => isWithinBudgetWindow(budgetPeriodFor(date, 1), window);
    expect(admits('2023-06-30')).toBe(true);
    expect(admits('2027-06-30')).toBe(true);
    expect(admits('2023-05-31')).toBe(false);
    expect(admits('2027-07-01')).toBe(false);
  });
});
