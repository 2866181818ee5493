import type { MinorUnits } from '@hearth/domain/money';
import { CategoryTree } from './category-tree';
import type { CategoryNode } from './category-tree';

/** Expense and income of one category's own transactions (not its subcategories'), family-currency minor units. */
export interface CategoryActivity {
  /** null = uncategorized. Rows may repeat a category (e.g. one row per classification); they add up. */
  categoryId: string | null;
  /** Magnitudes, both >= 0 (see budgetContribution). */
  expense: MinorUnits;
  income: MinorUnits;
}

export interface BudgetCategoryRow {
  categoryId: string;
  /** 0 on a subcategory means "no own limit: share the parent's budget". */
  budgetedSpending: MinorUnits;
}

export interface BudgetMathInput {
  /** null = budget not initialized. */
  budgetedSpending: MinorUnits | null;
  expectedIncome: MinorUnits | null;
  categories: readonly CategoryNode[];
  budgetCategories: readonly BudgetCategoryRow[];
  activity: readonly CategoryActivity[];
}

/** Budget-level amounts (docs/api/budgets.md#amounts); the derived ones may be negative. */
export interface BudgetAmounts {
  budgetedSpending: MinorUnits | null;
  expectedIncome: MinorUnits | null;
  allocatedSpending: MinorUnits;
  actualSpending: MinorUnits;
  actualIncome: MinorUnits;
  availableToSpend: MinorUnits;
  availableToAllocate: MinorUnits;
}

export interface BudgetCategoryAmounts {
  categoryId: string;
  subcategory: boolean;
  inheritsParentBudget: boolean;
  budgetedSpending: MinorUnits;
  /** The parent's budget for an inheriting subcategory, else its own. */
  displayBudgetedSpending: MinorUnits;
  actualSpending: MinorUnits;
  availableToSpend: MinorUnits;
}

export interface BudgetSummary {
  budget: BudgetAmounts;
  /** In the order of `budgetCategories`. */
  categories: BudgetCategoryAmounts[];
}

interface Flow {
  expense: MinorUnits;
  income: MinorUnits;
}

const UNCATEGORIZED = Symbol('uncategorized');
type TopLevelKey = string | typeof UNCATEGORIZED;

const sum = (values: Iterable<MinorUnits>): MinorUnits => {
  let total = 0n;
  for (const value of values) total += value;
  return total;
};

/** What a category (with its subcategories) cost net of refunds, never below zero. */
const netSpending = (flow: Flow | undefined): MinorUnits =>
  flow && flow.expense > flow.income ? flow.expense - flow.income : 0n;

function addFlow<K>(flows: Map<K, Flow>, key: K, row: CategoryActivity): void {
  const flow = flows.get(key) ?? { expense: 0n, income: 0n };
  flows.set(key, { expense: flow.expense + row.expense, income: flow.income + row.income });
}

function assertMagnitudes(activity: readonly CategoryActivity[]): void {
  const negative = activity.find((row) => row.expense < 0n || row.income < 0n);
  if (negative) throw new RangeError(`activity totals must be >= 0 (category ${negative.categoryId ?? 'none'})`);
}

/** Flows of each category including its descendants, and of each top-level category (or uncategorized). */
function aggregate(tree: CategoryTree, activity: readonly CategoryActivity[]) {
  const byCategory = new Map<string, Flow>();
  const byTopLevel = new Map<TopLevelKey, Flow>();
  for (const row of activity) {
    if (row.categoryId === null) {
      addFlow(byTopLevel, UNCATEGORIZED, row);
      continue;
    }
    const lineage = tree.lineage(row.categoryId);
    for (const id of lineage) addFlow(byCategory, id, row);
    addFlow(byTopLevel, lineage[lineage.length - 1], row);
  }
  return { byCategory, byTopLevel };
}

function budgetAmounts(input: BudgetMathInput, tree: CategoryTree, byTopLevel: Map<TopLevelKey, Flow>): BudgetAmounts {
  // Subcategory limits are ring-fenced inside their parent's budget, so only top-level rows are allocations.
  const topLevelRows = input.budgetCategories.filter((row) => !tree.isSubcategory(row.categoryId));
  const allocatedSpending = sum(topLevelRows.map((row) => row.budgetedSpending));
  // Refunds net against spending within each top-level category; income stays gross, refunds included.
  const actualSpending = sum([...byTopLevel.values()].map(netSpending));
  const actualIncome = sum(input.activity.map((row) => row.income));
  const budgeted = input.budgetedSpending ?? 0n;
  return {
    budgetedSpending: input.budgetedSpending,
    expectedIncome: input.expectedIncome,
    allocatedSpending,
    actualSpending,
    actualIncome,
    availableToSpend: budgeted - actualSpending,
    availableToAllocate: budgeted - allocatedSpending,
  };
}

/** Subcategory rows with a limit of their own, by parent category id. */
function limitedChildrenByParent(
  rows: readonly BudgetCategoryRow[],
  tree: CategoryTree,
  inherits: (row: BudgetCategoryRow) => boolean,
): Map<string, BudgetCategoryRow[]> {
  const byParent = new Map<string, BudgetCategoryRow[]>();
  for (const row of rows) {
    const parentId = tree.parentOf(row.categoryId);
    if (parentId !== null && !inherits(row)) byParent.set(parentId, [...(byParent.get(parentId) ?? []), row]);
  }
  return byParent;
}

function categoryAmounts(
  rows: readonly BudgetCategoryRow[],
  tree: CategoryTree,
  byCategory: Map<string, Flow>,
): BudgetCategoryAmounts[] {
  const rowByCategory = new Map(rows.map((row) => [row.categoryId, row]));
  const actual = (row: BudgetCategoryRow) => netSpending(byCategory.get(row.categoryId));
  const parentRow = (row: BudgetCategoryRow) => {
    const parentId = tree.parentOf(row.categoryId);
    return parentId === null ? undefined : rowByCategory.get(parentId);
  };
  const inherits = (row: BudgetCategoryRow) => tree.isSubcategory(row.categoryId) && row.budgetedSpending === 0n;
  const limitedChildren = limitedChildrenByParent(rows, tree, inherits);

  const available = (row: BudgetCategoryRow): MinorUnits => {
    if (inherits(row)) {
      const parent = parentRow(row);
      return parent ? available(parent) : 0n;
    }
    if (tree.isSubcategory(row.categoryId)) return row.budgetedSpending - actual(row);
    // A parent's pool excludes what its limited subcategories were given and what they spent.
    const limited = limitedChildren.get(row.categoryId) ?? [];
    const sharedPool = row.budgetedSpending - sum(limited.map((child) => child.budgetedSpending));
    const sharedSpending = actual(row) - sum(limited.map(actual));
    return sharedPool - sharedSpending;
  };

  return rows.map((row) => ({
    categoryId: row.categoryId,
    subcategory: tree.isSubcategory(row.categoryId),
    inheritsParentBudget: inherits(row),
    budgetedSpending: row.budgetedSpending,
    displayBudgetedSpending: inherits(row) ? (parentRow(row)?.budgetedSpending ?? 0n) : row.budgetedSpending,
    actualSpending: actual(row),
    availableToSpend: available(row),
  }));
}

/**
 * Every amount of a budget and of its budget categories, from activity already filtered by the inclusion rules and
 * converted to the family currency.
 */
export function summarizeBudget(input: BudgetMathInput): BudgetSummary {
  assertMagnitudes(input.activity);
  const tree = new CategoryTree(input.categories);
  const { byCategory, byTopLevel } = aggregate(tree, input.activity);
  return {
    budget: budgetAmounts(input, tree, byTopLevel),
    categories: categoryAmounts(input.budgetCategories, tree, byCategory),
  };
}

/** What each top-level category (its subcategories rolled up) cost in a period, net of refunds and never below zero, as budgets count it. */
export interface TopLevelSpending {
  /** Top-level category id -> spending, for every top-level category with activity. */
  byCategory: Map<string, MinorUnits>;
  uncategorized: MinorUnits;
}

export function topLevelSpending(categories: readonly CategoryNode[], activity: readonly CategoryActivity[]): TopLevelSpending {
  assertMagnitudes(activity);
  const { byTopLevel } = aggregate(new CategoryTree(categories), activity);
  const byCategory = new Map<string, MinorUnits>();
  let uncategorized = 0n;
  for (const [key, flow] of byTopLevel) {
    if (key === UNCATEGORIZED) uncategorized = netSpending(flow);
    else byCategory.set(key, netSpending(flow));
  }
  return { byCategory, uncategorized };
}
