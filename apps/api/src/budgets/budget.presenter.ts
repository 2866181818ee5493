import { budgetName, familyTimeZone, isBudgetInitialized, isCurrentBudget } from '@hearth/domain/budget-math';
import type { BudgetAmounts, BudgetCategoryAmounts } from '@hearth/domain/budget-math';
import { formatMoney, toCents } from '@hearth/domain/money';
import type { MinorUnits } from '@hearth/domain/money';
import { centsOrNull as cents, exactCents as summedCents, formattedOrNull as formatted } from '../common/money-fields';
import type { BudgetCategoryDto, BudgetCategorySummaryDto, BudgetDto, BudgetSummaryDto } from './budget.dto';
import type { BudgetCategoryRecord, BudgetRecord } from './budgets.repository';

/** How one response renders amounts and dates. */
export interface Presentation {
  locale: string;
  now: Date;
}

const isCurrent = (budget: BudgetRecord, now: Date): boolean =>
  isCurrentBudget(budget, budget.monthStartDay, now, familyTimeZone(budget.timezone));

const header = (budget: BudgetRecord, { locale, now }: Presentation) => ({
  id: budget.id,
  start_date: budget.startDate,
  end_date: budget.endDate,
  name: budgetName(budget, locale),
  currency: budget.currency,
  initialized: isBudgetInitialized(budget.budgetedSpending),
  current: isCurrent(budget, now),
  created_at: budget.createdAt.toISOString(),
  updated_at: budget.updatedAt.toISOString(),
});

export function presentBudgetSummary(budget: BudgetRecord, allocated: MinorUnits, view: Presentation): BudgetSummaryDto {
  const money = (amount: MinorUnits | null) => formatted(amount, budget.currency, view.locale);
  return {
    ...header(budget, view),
    budgeted_spending: money(budget.budgetedSpending),
    expected_income: money(budget.expectedIncome),
    allocated_spending: formatMoney(allocated, budget.currency, view.locale),
    budgeted_spending_cents: cents(budget.budgetedSpending),
    expected_income_cents: cents(budget.expectedIncome),
    allocated_spending_cents: toCents(allocated),
  };
}

/** A budget (docs/api/budgets.md#amounts): the header fields, then the seven formatted amounts, then the same seven in cents. */
export function presentBudget(budget: BudgetRecord, amounts: BudgetAmounts, view: Presentation): BudgetDto {
  const money = (amount: MinorUnits) => formatMoney(amount, budget.currency, view.locale);
  const summed = (field: string, amount: MinorUnits) => summedCents(field, amount, budget.currency, view.locale);
  return {
    ...header(budget, view),
    budgeted_spending: formatted(amounts.budgetedSpending, budget.currency, view.locale),
    expected_income: formatted(amounts.expectedIncome, budget.currency, view.locale),
    allocated_spending: money(amounts.allocatedSpending),
    actual_spending: money(amounts.actualSpending),
    actual_income: money(amounts.actualIncome),
    available_to_spend: money(amounts.availableToSpend),
    available_to_allocate: money(amounts.availableToAllocate),
    budgeted_spending_cents: cents(amounts.budgetedSpending),
    expected_income_cents: cents(amounts.expectedIncome),
    allocated_spending_cents: toCents(amounts.allocatedSpending),
    actual_spending_cents: summed('actual_spending', amounts.actualSpending),
    actual_income_cents: summed('actual_income', amounts.actualIncome),
    available_to_spend_cents: summed('available_to_spend', amounts.availableToSpend),
    available_to_allocate_cents: summed('available_to_allocate', amounts.availableToAllocate),
  };
}

/** The stored part of a row; subcategory facts come from the row's category and its parent's row. */
export function presentBudgetCategorySummary(row: BudgetCategoryRecord, { locale }: Presentation): BudgetCategorySummaryDto {
  const subcategory = row.category.parentId !== null;
  const inherits = subcategory && row.budgetedSpending === 0n;
  const display = inherits ? (row.parentBudgetedSpending ?? 0n) : row.budgetedSpending;
  return {
    id: row.id,
    budget_id: row.budgetId,
    currency: row.currency,
    subcategory,
    inherits_parent_budget: inherits,
    budgeted_spending: formatMoney(row.budgetedSpending, row.currency, locale),
    budgeted_spending_cents: toCents(row.budgetedSpending),
    display_budgeted_spending: formatMoney(display, row.currency, locale),
    display_budgeted_spending_cents: toCents(display),
    category: {
      id: row.category.id,
      name: row.category.name,
      color: row.category.color,
      lucide_icon: row.category.lucideIcon,
      parent_id: row.category.parentId,
    },
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function presentBudgetCategory(
  row: BudgetCategoryRecord,
  amounts: BudgetCategoryAmounts,
  view: Presentation,
): BudgetCategoryDto {
  const { category, created_at, updated_at, ...stored } = presentBudgetCategorySummary(row, view);
  return {
    ...stored,
    actual_spending: formatMoney(amounts.actualSpending, row.currency, view.locale),
    actual_spending_cents: summedCents('actual_spending', amounts.actualSpending, row.currency, view.locale),
    available_to_spend: formatMoney(amounts.availableToSpend, row.currency, view.locale),
    available_to_spend_cents: summedCents('available_to_spend', amounts.availableToSpend, row.currency, view.locale),
    category,
    created_at,
    updated_at,
  };
}
