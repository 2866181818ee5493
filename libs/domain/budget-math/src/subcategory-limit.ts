import type { MinorUnits } from '@hearth/domain/money';

export interface SubcategoryLimitChange {
  /** The parent row's stored budget before the change. */
  parentBudget: MinorUnits;
  /** Stored budgets of the parent's other subcategories. */
  siblingBudgets: readonly MinorUnits[];
  previous: MinorUnits;
  next: MinorUnits;
}

/**
 * The parent's new budget when one subcategory's limit changes. Subcategory limits are ring-fenced inside the
 * parent, so the parent grows or shrinks with them and keeps whatever it held beyond them (its unassigned reserve,
 * never below zero). Example: parent 1000, siblings [300], previous 0, next 200 -> 1200.
 */
export function parentBudgetAfterSubcategoryChange(change: SubcategoryLimitChange): MinorUnits {
  const siblings = change.siblingBudgets.reduce((total, budget) => total + budget, 0n);
  const reserve = change.parentBudget - siblings - change.previous;
  return siblings + change.next + (reserve > 0n ? reserve : 0n);
}
