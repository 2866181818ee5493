import type { MinorUnits } from '@hearth/domain/money';
import { parentBudgetAfterSubcategoryChange } from './subcategory-limit';

/** A category as a change to the tree sees it. */
export interface PlacedCategory {
  id: string;
  parentId: string | null;
}

/**
 * Why `category` cannot be put under `parent` (null: made top-level), or null when it can. Categories nest one level
 * deep, as the budgets' roll-up of subcategories into parents assumes: a parent must be top-level, and a category with
 * subcategories cannot become one. With that rule no cycle can form, so none is searched for.
 */
export function parentProblem(category: PlacedCategory & { hasSubcategories: boolean }, parent: PlacedCategory | null): string | null {
  if (parent === null) return null;
  if (parent.id === category.id) return 'parent_id cannot be the category itself';
  if (parent.parentId !== null) return 'parent_id must be a top-level category: categories nest one level deep';
  if (category.hasSubcategories) return 'parent_id cannot be given to a category that has subcategories: categories nest one level deep';
  return null;
}

/** How the category kept after a delete stands to the deleted one. */
export type Kinship = 'parent' | 'child' | 'sibling' | 'unrelated';

export function kinshipOf(deleted: PlacedCategory, replacement: PlacedCategory): Kinship {
  if (deleted.parentId === replacement.id) return 'parent';
  if (replacement.parentId === deleted.id) return 'child';
  if (deleted.parentId !== null && deleted.parentId === replacement.parentId) return 'sibling';
  return 'unrelated';
}

/**
 * Where the deleted category's subcategories go: under the replacement when it is (or becomes, being one of them) a
 * top-level category; top-level otherwise (no replacement, or a replacement that is itself a subcategory).
 */
export function newParentOfSubcategories(deleted: PlacedCategory, replacement: PlacedCategory | null): string | null {
  if (replacement === null) return null;
  return replacement.parentId === null || replacement.parentId === deleted.id ? replacement.id : null;
}

/** The rows of one budget a merge touches: stored limits, null where the budget has no row for the category. */
export interface MergedBudgetRows {
  budgetId: string;
  deleted: MinorUnits | null;
  replacement: MinorUnits | null;
  /** The replacement's parent's row, when the replacement stays a subcategory. */
  replacementParent: MinorUnits | null;
  /** The limits of the replacement's parent's other subcategories (neither the replacement nor the deleted one). */
  otherSubcategories: readonly MinorUnits[];
}

/** The limits to store after the merge: the replacement's row, and its parent's when that moves. */
export interface MergedBudgetAmounts {
  budgetId: string;
  replacement: MinorUnits;
  replacementParent: MinorUnits | null;
}

/**
 * A deleted category's limit merged into its replacement's, budget by budget. Limits add up, except between a parent
 * and its subcategory, where the subcategory's limit was already ring-fenced inside the parent's: the larger (the
 * parent's) is kept. When the replacement stays a subcategory, its parent grows with it as when a subcategory's limit
 * is set (parentBudgetAfterSubcategoryChange); a deleted sibling's limit was already inside that parent. A budget
 * without a row for the deleted category has nothing to merge and is left out.
 */
export function mergeBudgetLimits(kinship: Kinship, rows: readonly MergedBudgetRows[]): MergedBudgetAmounts[] {
  return rows.flatMap((row) => {
    if (row.deleted === null) return [];
    const own = row.replacement ?? 0n;
    const merged = kinship === 'parent' || kinship === 'child' ? (own > row.deleted ? own : row.deleted) : own + row.deleted;
    const parent =
      row.replacementParent === null || kinship === 'parent' || kinship === 'child'
        ? null
        : parentBudgetAfterSubcategoryChange({
            parentBudget: row.replacementParent,
            siblingBudgets: row.otherSubcategories,
            previous: kinship === 'sibling' ? own + row.deleted : own,
            next: merged,
          });
    return [{ budgetId: row.budgetId, replacement: merged, replacementParent: parent }];
  });
}
