export {
  ALWAYS_EXPENSE_KINDS,
  BUDGET_COUNTED_KINDS,
  BUDGET_EXCLUDED_KINDS,
  COUNTED_ENTRYABLE_TYPES,
  EXCLUDED_INVESTMENT_ACTIVITY_LABELS,
  INCLUDED_ACCOUNT_STATUSES,
  TAX_ADVANTAGED_DEPOSITORY_SUBTYPES,
  TAX_ADVANTAGED_INVESTMENT_SUBTYPES,
  budgetContribution,
  isTaxAdvantagedAccount,
} from './inclusion-rules';
export type { BudgetContribution } from './inclusion-rules';
export type { IsoDate } from './plain-date';
export { parseIsoDate } from './plain-date';
export {
  MAX_MONTH_START_DAY,
  MIN_MONTH_START_DAY,
  assertMonthStartDay,
  budgetName,
  budgetPeriodFor,
  isBudgetInitialized,
  isCurrentBudget,
  familyTimeZone,
  familyToday,
  localDateIn,
} from './budget-period';
export type { BudgetPeriod } from './budget-period';
export { budgetWindow, isWithinBudgetWindow } from './budget-window';
export type { BudgetWindow } from './budget-window';
export { parentBudgetAfterSubcategoryChange } from './subcategory-limit';
export type { SubcategoryLimitChange } from './subcategory-limit';
export type { CategoryNode } from './category-tree';
export { summarizeBudget } from './budget-amounts';
export type {
  BudgetAmounts,
  BudgetCategoryAmounts,
  BudgetCategoryRow,
  BudgetMathInput,
  BudgetSummary,
  CategoryActivity,
} from './budget-amounts';
export { kinshipOf, mergeBudgetLimits, newParentOfSubcategories, parentProblem } from './category-changes';
export type { Kinship, MergedBudgetAmounts, MergedBudgetRows, PlacedCategory } from './category-changes';
