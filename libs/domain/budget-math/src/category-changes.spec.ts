import { kinshipOf, mergeBudgetLimits, newParentOfSubcategories, parentProblem } from './category-changes';

const food = { id: 'food', parentId: null };
const groceries = { id: 'groceries', parentId: 'food' };
const restaurants = { id: 'restaurants', parentId: 'food' };
const housing = { id: 'housing', parentId: null };
const rent = { id: 'rent', parentId: 'housing' };

describe('parentProblem', () => {
  it('lets a category without subcategories go under a top-level one, or be made top-level', () => {
    expect(parentProblem({ ...housing, hasSubcategories: false }, food)).toBeNull();
    expect(parentProblem({ ...groceries, hasSubcategories: false }, null)).toBeNull();
    expect(parentProblem({ ...food, hasSubcategories: true }, null)).toBeNull();
  });

  it('refuses a second level, a parent with subcategories made a child, and the category itself', () => {
    expect(parentProblem({ ...housing, hasSubcategories: false }, groceries)).toBe('parent_id must be a top-level category: categories nest one level deep');
    expect(parentProblem({ ...housing, hasSubcategories: true }, food)).toBe(
      'parent_id cannot be given to a category that has subcategories: categories nest one level deep',
    );
    expect(parentProblem({ ...food, hasSubcategories: false }, food)).toBe('parent_id cannot be the category itself');
  });

  it('refuses a cycle: a parent put under its own subcategory', () => {
    expect(parentProblem({ ...food, hasSubcategories: true }, groceries)).not.toBeNull();
  });
});

describe('kinshipOf and newParentOfSubcategories', () => {
  it('tells parent, child, sibling and unrelated apart; two top-level categories are unrelated', () => {
    expect(kinshipOf(groceries, food)).toBe('parent');
    expect(kinshipOf(food, groceries)).toBe('child');
    expect(kinshipOf(groceries, restaurants)).toBe('sibling');
    expect(kinshipOf(groceries, rent)).toBe('unrelated');
    expect(kinshipOf(food, housing)).toBe('unrelated');
  });

  it('puts subcategories under a top-level replacement, or under one of them promoted; else makes them top-level', () => {
    expect(newParentOfSubcategories(food, housing)).toBe('housing');
    expect(newParentOfSubcategories(food, groceries)).toBe('groceries');
    expect(newParentOfSubcategories(food, rent)).toBeNull();
    expect(newParentOfSubcategories(food, null)).toBeNull();
  });
});

describe('mergeBudgetLimits', () => {
  const row = (deleted: bigint | null, replacement: bigint | null, replacementParent: bigint | null = null, otherSubcategories: bigint[] = []) => ({
    budgetId: 'b1',
    deleted,
    replacement,
    replacementParent,
    otherSubcategories,
  });

  it('adds the limits of unrelated top-level categories, and gives a replacement without a row the deleted one\'s', () => {
    expect(mergeBudgetLimits('unrelated', [row(50000n, 150000n)])).toEqual([{ budgetId: 'b1', replacement: 200000n, replacementParent: null }]);
    expect(mergeBudgetLimits('unrelated', [row(50000n, null)])).toEqual([{ budgetId: 'b1', replacement: 50000n, replacementParent: null }]);
  });

  it('leaves out budgets with no row for the deleted category', () => {
    expect(mergeBudgetLimits('unrelated', [row(null, 150000n)])).toEqual([]);
  });

  it('keeps the parent\'s limit when a subcategory merges into its parent or a parent into its subcategory', () => {
    // Food 700 holds Restaurants' 200 ring-fenced: merging either way leaves 700, not 900.
    expect(mergeBudgetLimits('parent', [row(20000n, 70000n)])).toEqual([{ budgetId: 'b1', replacement: 70000n, replacementParent: null }]);
    expect(mergeBudgetLimits('child', [row(70000n, 20000n)])).toEqual([{ budgetId: 'b1', replacement: 70000n, replacementParent: null }]);
  });

  it('raises the replacement\'s parent by what its subcategory gained, keeping the parent\'s reserve', () => {
    // Housing 1500 with Rent 1000 and an other subcategory 200 (reserve 300); Groceries' 80 merges into Rent.
    expect(mergeBudgetLimits('unrelated', [row(8000n, 100000n, 150000n, [20000n])])).toEqual([
      { budgetId: 'b1', replacement: 108000n, replacementParent: 158000n },
    ]);
  });

  it('leaves the parent alone when siblings merge: the deleted limit was already inside it', () => {
    // Food 700: Groceries 100 merges into Restaurants 200.
    expect(mergeBudgetLimits('sibling', [row(10000n, 20000n, 70000n)])).toEqual([{ budgetId: 'b1', replacement: 30000n, replacementParent: 70000n }]);
  });
});
