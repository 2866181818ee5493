import type { TransactionKind } from '@hearth/contracts';
import { formatMoney, toCents } from '@hearth/domain/money';
import type { CategoryActivity } from './budget-amounts';
import { summarizeBudget, topLevelSpending } from './budget-amounts';
import { budgetContribution } from './inclusion-rules';

const dollars = (value: number): bigint => BigInt(Math.round(value * 100));

interface TestEntry {
  categoryId: string | null;
  amount: number;
  kind?: TransactionKind;
  excluded?: boolean;
}

/** Does what the SQL layer does: drop excluded entries, classify the rest, total per category. */
function activityFrom(entries: TestEntry[]): CategoryActivity[] {
  return entries
    .filter((entry) => !entry.excluded)
    .flatMap((entry) => {
      const contribution = budgetContribution({ kind: entry.kind ?? 'standard', amount: dollars(entry.amount) });
      if (!contribution) return [];
      const isExpense = contribution.classification === 'expense';
      return [
        {
          categoryId: entry.categoryId,
          expense: isExpense ? contribution.amount : 0n,
          income: isExpense ? 0n : contribution.amount,
        },
      ];
    });
}

describe('summarizeBudget: worked example (USD, January 2025)', () => {
  const categories = [
    { id: 'food', parentId: null },
    { id: 'restaurants', parentId: 'food' },
    { id: 'groceries', parentId: 'food' },
    { id: 'housing', parentId: null },
    { id: 'income', parentId: null },
    { id: 'loan-payments', parentId: null },
    { id: 'healthcare', parentId: null },
  ];
  const budgetCategories = [
    { categoryId: 'food', budgetedSpending: dollars(700) },
    { categoryId: 'restaurants', budgetedSpending: dollars(200) },
    { categoryId: 'groceries', budgetedSpending: 0n },
    { categoryId: 'housing', budgetedSpending: dollars(1500) },
    { categoryId: 'income', budgetedSpending: 0n },
    { categoryId: 'loan-payments', budgetedSpending: 0n },
    { categoryId: 'healthcare', budgetedSpending: 0n },
  ];
  const activity = activityFrom([
    { categoryId: 'restaurants', amount: 120 },
    { categoryId: 'groceries', amount: 80 },
    { categoryId: 'food', amount: -30 },
    { categoryId: 'housing', amount: 1500 },
    { categoryId: null, amount: 50 },
    { categoryId: 'income', amount: -5000 },
    { categoryId: 'loan-payments', amount: 400, kind: 'loan_payment' },
    { categoryId: null, amount: -1000, kind: 'funds_movement' },
    { categoryId: null, amount: 1000, kind: 'funds_movement' },
    { categoryId: null, amount: 700, kind: 'one_time' },
    { categoryId: 'food', amount: 99, excluded: true },
    { categoryId: null, amount: 300, kind: 'cc_payment' },
  ]);
  const sut = summarizeBudget({
    budgetedSpending: dollars(3000),
    expectedIncome: dollars(5000),
    categories,
    budgetCategories,
    activity,
  });
  const row = (categoryId: string) => sut.categories.find((category) => category.categoryId === categoryId);

  it('computes the budget-level amounts', () => {
    expect(sut.budget).toEqual({
      budgetedSpending: 300000n,
      expectedIncome: 500000n,
      allocatedSpending: 220000n,
      actualSpending: 212000n,
      actualIncome: 503000n,
      availableToSpend: 88000n,
      availableToAllocate: 80000n,
    });
  });

  it('presents actual spending as "$2,120.00" and 212000 cents', () => {
    expect(formatMoney(sut.budget.actualSpending, 'USD', 'en')).toBe('$2,120.00');
    expect(toCents(sut.budget.actualSpending)).toBe(212000);
  });

  it('gives the parent its shared pool minus shared spending', () => {
    expect(row('food')).toEqual({
      categoryId: 'food',
      subcategory: false,
      inheritsParentBudget: false,
      budgetedSpending: 70000n,
      displayBudgetedSpending: 70000n,
      actualSpending: 17000n,
      availableToSpend: 45000n,
    });
  });

  it('ring-fences a subcategory with its own limit', () => {
    expect(row('restaurants')).toMatchObject({
      subcategory: true,
      inheritsParentBudget: false,
      displayBudgetedSpending: 20000n,
      actualSpending: 12000n,
      availableToSpend: 8000n,
    });
  });

  it('lets a subcategory without a limit mirror its parent', () => {
    expect(row('groceries')).toMatchObject({
      subcategory: true,
      inheritsParentBudget: true,
      budgetedSpending: 0n,
      displayBudgetedSpending: 70000n,
      actualSpending: 8000n,
      availableToSpend: 45000n,
    });
  });

  it('reports a fully spent category as zero available', () => {
    expect(row('housing')).toMatchObject({ actualSpending: 150000n, availableToSpend: 0n });
  });

  it('counts a loan payment as spending and an income category as no spending', () => {
    expect(row('loan-payments')).toMatchObject({ actualSpending: 40000n, availableToSpend: -40000n });
    expect(row('income')).toMatchObject({ actualSpending: 0n, availableToSpend: 0n });
  });

  it('returns the categories in input order', () => {
    expect(sut.categories.map((category) => category.categoryId)).toEqual(budgetCategories.map((c) => c.categoryId));
  });
});

describe('summarizeBudget: refunds', () => {
  const categories = [{ id: 'healthcare', parentId: null }];
  const budgetCategories = [{ categoryId: 'healthcare', budgetedSpending: dollars(400) }];
  const summarize = (entries: TestEntry[]) =>
    summarizeBudget({
      budgetedSpending: dollars(1000),
      expectedIncome: null,
      categories,
      budgetCategories,
      activity: activityFrom(entries),
    });

  it('nets a refund against spending in the same category and still counts it as income', () => {
    const sut = summarize([
      { categoryId: 'healthcare', amount: 500 },
      { categoryId: 'healthcare', amount: -200 },
    ]);
    expect(sut.budget.actualSpending).toBe(30000n);
    expect(sut.budget.actualIncome).toBe(20000n);
    expect(sut.categories[0]).toMatchObject({ actualSpending: 30000n, availableToSpend: 10000n });
  });

  it('never lets a refund-only category go below zero spending', () => {
    const sut = summarize([{ categoryId: 'healthcare', amount: -200 }]);
    expect(sut.budget.actualSpending).toBe(0n);
    expect(sut.categories[0]).toMatchObject({ actualSpending: 0n, availableToSpend: 40000n });
  });

  it('nets uncategorized refunds against uncategorized spending', () => {
    const sut = summarize([
      { categoryId: null, amount: 80 },
      { categoryId: null, amount: -30 },
    ]);
    expect(sut.budget.actualSpending).toBe(5000n);
  });

  it('does not let one category’s refund offset another category’s spending', () => {
    const sut = summarize([
      { categoryId: 'healthcare', amount: -200 },
      { categoryId: null, amount: 50 },
    ]);
    expect(sut.budget.actualSpending).toBe(5000n);
    expect(sut.budget.availableToSpend).toBe(95000n);
  });
});

describe('summarizeBudget: subcategories', () => {
  const categories = [
    { id: 'transport', parentId: null },
    { id: 'fuel', parentId: 'transport' },
    { id: 'parking', parentId: 'transport' },
  ];

  it('rolls subcategory spending into the parent and the budget total', () => {
    const sut = summarizeBudget({
      budgetedSpending: dollars(500),
      expectedIncome: null,
      categories,
      budgetCategories: [
        { categoryId: 'transport', budgetedSpending: dollars(300) },
        { categoryId: 'fuel', budgetedSpending: 0n },
        { categoryId: 'parking', budgetedSpending: 0n },
      ],
      activity: activityFrom([
        { categoryId: 'fuel', amount: 60 },
        { categoryId: 'parking', amount: 15 },
        { categoryId: 'parking', amount: -5 },
      ]),
    });
    expect(sut.budget.actualSpending).toBe(7000n);
    expect(sut.categories.map((c) => [c.categoryId, c.actualSpending, c.availableToSpend])).toEqual([
      ['transport', 7000n, 23000n],
      ['fuel', 6000n, 23000n],
      ['parking', 1000n, 23000n],
    ]);
  });

  it('matches the ring-fencing example: parent 1000/150, limited 300/100, inheriting 0/50', () => {
    const sut = summarizeBudget({
      budgetedSpending: null,
      expectedIncome: null,
      categories,
      budgetCategories: [
        { categoryId: 'transport', budgetedSpending: dollars(1000) },
        { categoryId: 'fuel', budgetedSpending: dollars(300) },
        { categoryId: 'parking', budgetedSpending: 0n },
      ],
      activity: activityFrom([
        { categoryId: 'fuel', amount: 100 },
        { categoryId: 'parking', amount: 50 },
      ]),
    });
    expect(sut.categories.map((c) => [c.categoryId, c.actualSpending, c.availableToSpend])).toEqual([
      ['transport', 15000n, 65000n],
      ['fuel', 10000n, 20000n],
      ['parking', 5000n, 65000n],
    ]);
    expect(sut.budget.allocatedSpending).toBe(100000n);
  });

  it('gives an inheriting subcategory zero when its parent has no budget row', () => {
    const sut = summarizeBudget({
      budgetedSpending: null,
      expectedIncome: null,
      categories,
      budgetCategories: [{ categoryId: 'parking', budgetedSpending: 0n }],
      activity: activityFrom([{ categoryId: 'parking', amount: 12 }]),
    });
    expect(sut.categories[0]).toMatchObject({
      inheritsParentBudget: true,
      displayBudgetedSpending: 0n,
      actualSpending: 1200n,
      availableToSpend: 0n,
    });
  });

  it('rolls a deeper descendant up to its top-level category', () => {
    const sut = summarizeBudget({
      budgetedSpending: null,
      expectedIncome: null,
      categories: [...categories, { id: 'ev-charging', parentId: 'fuel' }],
      budgetCategories: [{ categoryId: 'transport', budgetedSpending: dollars(100) }],
      activity: activityFrom([{ categoryId: 'ev-charging', amount: 30 }]),
    });
    expect(sut.budget.actualSpending).toBe(3000n);
    expect(sut.categories[0]).toMatchObject({ actualSpending: 3000n, availableToSpend: 7000n });
  });

  it('treats a category whose parent is not in the tree as top-level', () => {
    const sut = summarizeBudget({
      budgetedSpending: null,
      expectedIncome: null,
      categories: [{ id: 'orphan', parentId: 'deleted' }],
      budgetCategories: [{ categoryId: 'orphan', budgetedSpending: dollars(10) }],
      activity: activityFrom([{ categoryId: 'orphan', amount: 4 }]),
    });
    expect(sut.categories[0]).toMatchObject({
      subcategory: false,
      inheritsParentBudget: false,
      availableToSpend: 600n,
    });
    expect(sut.budget.allocatedSpending).toBe(1000n);
  });
});

describe('summarizeBudget: negative and uninitialized amounts', () => {
  const categories = [{ id: 'fun', parentId: null }];

  it('lets available amounts go negative when over budget and over-allocated', () => {
    const sut = summarizeBudget({
      budgetedSpending: dollars(100),
      expectedIncome: dollars(0),
      categories,
      budgetCategories: [{ categoryId: 'fun', budgetedSpending: dollars(150) }],
      activity: activityFrom([{ categoryId: 'fun', amount: 180.5 }]),
    });
    expect(sut.budget).toMatchObject({ availableToSpend: -8050n, availableToAllocate: -5000n });
    expect(sut.categories[0].availableToSpend).toBe(-3050n);
  });

  it('keeps null stored amounts and computes the rest from zero', () => {
    const sut = summarizeBudget({
      budgetedSpending: null,
      expectedIncome: null,
      categories,
      budgetCategories: [{ categoryId: 'fun', budgetedSpending: dollars(20) }],
      activity: activityFrom([{ categoryId: 'fun', amount: 5 }]),
    });
    expect(sut.budget).toEqual({
      budgetedSpending: null,
      expectedIncome: null,
      allocatedSpending: 2000n,
      actualSpending: 500n,
      actualIncome: 0n,
      availableToSpend: -500n,
      availableToAllocate: -2000n,
    });
  });

  it('gives all zeros when there is no activity and no rows', () => {
    const sut = summarizeBudget({
      budgetedSpending: 0n,
      expectedIncome: null,
      categories: [],
      budgetCategories: [],
      activity: [],
    });
    expect(sut.budget).toMatchObject({ allocatedSpending: 0n, actualSpending: 0n, availableToSpend: 0n });
    expect(sut.categories).toEqual([]);
  });
});

describe('summarizeBudget: bad input', () => {
  it('rejects negative activity magnitudes', () => {
    const run = () =>
      summarizeBudget({
        budgetedSpending: null,
        expectedIncome: null,
        categories: [],
        budgetCategories: [],
        activity: [{ categoryId: null, expense: -1n, income: 0n }],
      });
    expect(run).toThrow(RangeError);
  });

  it('rejects a category tree with a cycle', () => {
    const run = () =>
      summarizeBudget({
        budgetedSpending: null,
        expectedIncome: null,
        categories: [
          { id: 'a', parentId: 'b' },
          { id: 'b', parentId: 'a' },
        ],
        budgetCategories: [],
        activity: [],
      });
    expect(run).toThrow('category tree has a cycle');
  });
});

describe('topLevelSpending', () => {
  it('rolls subcategories up, nets refunds within each top-level category, never below zero, uncategorized apart', () => {
    const categories = [{ id: 'food', parentId: null }, { id: 'super', parentId: 'food' }, { id: 'pay', parentId: null }];
    const { byCategory, uncategorized } = topLevelSpending(categories, [
      { categoryId: 'super', expense: 10000n, income: 0n },
      { categoryId: 'food', expense: 1200n, income: 1000n },
      { categoryId: 'pay', expense: 0n, income: 150000n },
      { categoryId: null, expense: 450n, income: 0n },
    ]);
    expect(Object.fromEntries(byCategory)).toEqual({ food: 10200n, pay: 0n });
    expect(uncategorized).toBe(450n);
  });
});
