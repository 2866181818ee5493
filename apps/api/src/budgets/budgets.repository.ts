import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { ALWAYS_EXPENSE_KINDS, BUDGET_COUNTED_KINDS } from '@hearth/domain/budget-math';
import type { BudgetPeriod, IsoDate } from '@hearth/domain/budget-math';
import type { PageWindow } from '../common/paging';
import { countedEntriesSql } from '../ledger/counted-entries';

/** Who asks: budgets are visible when they are the household's (user_id NULL) or the caller's own. */
export interface BudgetViewer {
  familyId: string;
  userId: string;
}

export interface BudgetRecord {
  id: string;
  familyId: string;
  userId: string | null;
  startDate: IsoDate;
  endDate: IsoDate;
  currency: string;
  budgetedSpending: bigint | null;
  expectedIncome: bigint | null;
  createdAt: Date;
  updatedAt: Date;
  /** Family settings that decide `current`. */
  timezone: string | null;
  monthStartDay: number;
  /**
   * families.data_version, read with the budget: database triggers move it in the same transaction as any write to
   * what the budget is computed from (entries, transactions, accounts, categories, budget categories, rates).
   */
  dataVersion: string;
}

export interface BudgetListRecord extends BudgetRecord {
  allocatedSpending: bigint;
}

/** A family category with the budget's row for it, when there is one. */
export interface CategoryBudgetRow {
  categoryId: string;
  parentId: string | null;
  budgetedSpending: bigint | null;
}

/** Σ|amount × rate| of one (category, entry currency, classification) group; `product` is in `currency` minor units × rate. */
export interface ActivityGroup {
  categoryId: string | null;
  currency: string;
  isExpense: boolean;
  product: string;
  /** Entries of a foreign currency with no exchange rate on their date: left out of `product`. */
  missingRates: number;
}

export interface BudgetCategoryRecord {
  id: string;
  budgetId: string;
  currency: string;
  budgetedSpending: bigint;
  /** Stored budget of the parent category's row in the same budget; null when there is none. */
  parentBudgetedSpending: bigint | null;
  category: { id: string; name: string; color: string; lucideIcon: string; parentId: string | null };
  createdAt: Date;
  updatedAt: Date;
}

export interface DateFilter {
  startDate?: IsoDate;
  endDate?: IsoDate;
}

export interface BudgetCategoryFilter extends DateFilter {
  budgetId?: string;
  categoryId?: string;
  /** Categories whose rows are left out while nothing is planned for them (nonSpendingCategories). */
  leftOut?: string[];
}

const big = (value: string | null): bigint | null => (value === null ? null : BigInt(value));

const BUDGET_COLUMNS = `
  b.id, b.family_id AS "familyId", b.user_id AS "userId",
  to_char(b.start_date, 'YYYY-MM-DD') AS "startDate", to_char(b.end_date, 'YYYY-MM-DD') AS "endDate",
  b.currency, b.budgeted_spending_minor::text AS "budgetedSpending", b.expected_income_minor::text AS "expectedIncome",
  b.created_at AS "createdAt", b.updated_at AS "updatedAt", f.timezone, f.month_start_day AS "monthStartDay",
  f.data_version::text AS "dataVersion"`;

/** $1 = family id, $2 = user id. */
const VISIBLE_BUDGET = `b.family_id = $1 AND (b.user_id IS NULL OR b.user_id = $2)`;

type RawBudget = Omit<BudgetRecord, 'budgetedSpending' | 'expectedIncome'> & {
  budgetedSpending: string | null;
  expectedIncome: string | null;
};

const toBudget = (row: RawBudget): BudgetRecord => ({
  ...row,
  budgetedSpending: big(row.budgetedSpending),
  expectedIncome: big(row.expectedIncome),
});

type RawBudgetCategory = {
  id: string;
  budgetId: string;
  currency: string;
  budgetedSpending: string;
  parentBudgetedSpending: string | null;
  categoryId: string;
  name: string;
  color: string;
  lucideIcon: string;
  parentId: string | null;
  createdAt: Date;
  updatedAt: Date;
};

const toBudgetCategory = (row: RawBudgetCategory): BudgetCategoryRecord => ({
  id: row.id,
  budgetId: row.budgetId,
  currency: row.currency,
  budgetedSpending: BigInt(row.budgetedSpending),
  parentBudgetedSpending: big(row.parentBudgetedSpending),
  category: { id: row.categoryId, name: row.name, color: row.color, lucideIcon: row.lucideIcon, parentId: row.parentId },
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

const BUDGET_CATEGORY_FROM = `
  FROM budget_categories bc
  JOIN budgets b ON b.id = bc.budget_id
  JOIN categories c ON c.id = bc.category_id
  LEFT JOIN budget_categories pbc ON pbc.budget_id = bc.budget_id AND pbc.category_id = c.parent_id`;

const BUDGET_CATEGORY_COLUMNS = `
  bc.id, bc.budget_id AS "budgetId", bc.currency, bc.budgeted_spending_minor::text AS "budgetedSpending",
  pbc.budgeted_spending_minor::text AS "parentBudgetedSpending", c.id AS "categoryId", c.name, c.color,
  c.lucide_icon AS "lucideIcon", c.parent_id AS "parentId", bc.created_at AS "createdAt", bc.updated_at AS "updatedAt"`;

/** Appends optional `column op $n` conditions, numbering parameters after the ones already in `params`. */
function conditions(params: unknown[], optional: [string, unknown][]): string {
  return optional
    .filter(([, value]) => value !== undefined)
    .map(([condition, value]) => {
      params.push(value);
      return ` AND ${condition.replace('?', `$${params.length}`)}`;
    })
    .join('');
}

const dateConditions = (params: unknown[], filter: DateFilter) =>
  conditions(params, [
    ['b.start_date >= ?::date', filter.startDate],
    ['b.end_date <= ?::date', filter.endDate],
  ]);

const categoryConditions = (params: unknown[], filter: BudgetCategoryFilter) =>
  conditions(params, [
    ['bc.budget_id = ?::uuid', filter.budgetId],
    ['bc.category_id = ?::uuid', filter.categoryId],
    // Rows of categories that are not spending categories, unless something is planned for them.
    ['(bc.category_id <> ALL(?::uuid[]) OR bc.budgeted_spending_minor <> 0)', filter.leftOut],
  ]) + dateConditions(params, filter);

/**
 * Gives each budget `where` selects (over `budgets b`) a row, budget 0, for every family category it lacks: one
 * statement. In a fixed order, so that concurrent callers wait on each other rather than deadlock; the unique index
 * keeps one row per budget and category.
 */
async function addMissingRows(manager: EntityManager, where: string, params: unknown[]): Promise<void> {
  await manager.query(
    `INSERT INTO budget_categories (budget_id, category_id, budgeted_spending_minor, currency)
     SELECT b.id, c.id, 0, b.currency FROM budgets b JOIN categories c ON c.family_id = b.family_id
      WHERE ${where}
        AND NOT EXISTS (SELECT 1 FROM budget_categories bc WHERE bc.budget_id = b.id AND bc.category_id = c.id)
      ORDER BY b.id, c.id
     ON CONFLICT (budget_id, category_id) DO NOTHING`,
    params,
  );
}

@Injectable()
export class BudgetsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async findVisible(viewer: BudgetViewer, id: string): Promise<BudgetRecord | null> {
    const rows: RawBudget[] = await this.dataSource.query(
      `SELECT ${BUDGET_COLUMNS} FROM budgets b JOIN families f ON f.id = b.family_id
        WHERE ${VISIBLE_BUDGET} AND b.id = $3`,
      [viewer.familyId, viewer.userId, id],
    );
    return rows.length ? toBudget(rows[0]) : null;
  }

  countVisible(viewer: BudgetViewer, filter: DateFilter): Promise<number> {
    const params: unknown[] = [viewer.familyId, viewer.userId];
    const where = VISIBLE_BUDGET + dateConditions(params, filter);
    return this.count(`SELECT count(*)::int AS count FROM budgets b WHERE ${where}`, params);
  }

  /** Newest first, each with its allocated spending (the sum of its top-level category rows). */
  async listVisible(viewer: BudgetViewer, filter: DateFilter, page: PageWindow): Promise<BudgetListRecord[]> {
    const params: unknown[] = [viewer.familyId, viewer.userId];
    const where = VISIBLE_BUDGET + dateConditions(params, filter);
    const rows: (RawBudget & { allocatedSpending: string })[] = await this.dataSource.query(
      `SELECT ${BUDGET_COLUMNS},
              (SELECT coalesce(sum(bc.budgeted_spending_minor), 0) FROM budget_categories bc
                 JOIN categories c ON c.id = bc.category_id
                WHERE bc.budget_id = b.id AND c.parent_id IS NULL)::text AS "allocatedSpending"
         FROM budgets b JOIN families f ON f.id = b.family_id
        WHERE ${where}
        ORDER BY b.start_date DESC, b.id
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    );
    return rows.map((row) => ({ ...toBudget(row), allocatedSpending: BigInt(row.allocatedSpending) }));
  }

  /** Every family category (the tree) with this budget's stored amount for it. */
  async categoryBudgets(familyId: string, budgetId: string): Promise<CategoryBudgetRow[]> {
    const rows: { categoryId: string; parentId: string | null; budgetedSpending: string | null }[] = await this.dataSource.query(
      `SELECT c.id AS "categoryId", c.parent_id AS "parentId", bc.budgeted_spending_minor::text AS "budgetedSpending"
         FROM categories c
         LEFT JOIN budget_categories bc ON bc.category_id = c.id AND bc.budget_id = $2
        WHERE c.family_id = $1
        ORDER BY c.name, c.id`,
      [familyId, budgetId],
    );
    return rows.map((row) => ({ ...row, budgetedSpending: big(row.budgetedSpending) }));
  }

  /**
   * The one aggregate behind every actual amount: qualifying transactions of the period (inclusion-rules.ts),
   * grouped by category, currency and classification, each amount converted at the rate of its own date.
   * `ownerId` narrows a personal budget to its owner's accounts; the household budget counts every family account.
   */
  async activity(familyId: string, period: BudgetPeriod, currency: string, ownerId: string | null): Promise<ActivityGroup[]> {
    const params: unknown[] = [familyId, period.startDate, period.endDate, currency, ownerId];
    const counted = countedEntriesSql(params);
    return this.dataSource.query(
      `SELECT t.category_id AS "categoryId", e.currency, ${counted.isExpense} AS "isExpense",
              coalesce(sum(abs(e.amount_minor) * CASE WHEN e.currency = $4 THEN 1 ELSE r.rate END), 0)::text AS product,
              (count(*) FILTER (WHERE e.currency <> $4 AND r.rate IS NULL))::int AS "missingRates"
         FROM entries e
         JOIN transactions t ON t.entry_id = e.id
         JOIN accounts a ON a.id = e.account_id
         LEFT JOIN exchange_rates r
           ON e.currency <> $4 AND r.from_currency = e.currency AND r.to_currency = $4 AND r.date = e.date
        WHERE e.family_id = $1 AND e.date BETWEEN $2::date AND $3::date AND a.family_id = $1
          AND ($5::uuid IS NULL OR a.owner_id = $5::uuid)
          AND ${counted.where}
        GROUP BY 1, 2, 3`,
      params,
    );
  }

  /**
   * The categories of the family's top-level categories none of whose transactions (their subcategories' included)
   * count as spending, by kind and sign as budgetContribution classifies them: money only ever came in (salary,
   * interest), or only moved (transfers). A category nothing was booked to yet is a spending category. Each
   * category's search reads its counted kinds in transactions_category_kind and stops at the first spending.
   */
  async nonSpendingCategories(familyId: string): Promise<string[]> {
    const rows: { id: string }[] = await this.dataSource.query(
      `WITH RECURSIVE tree(id, top) AS (
         SELECT id, id FROM categories WHERE family_id = $1 AND parent_id IS NULL
         UNION ALL
         SELECT c.id, tree.top FROM categories c JOIN tree ON c.parent_id = tree.id WHERE c.family_id = $1
       ), probed AS (
         SELECT tree.top,
                EXISTS (SELECT 1 FROM transactions t WHERE t.category_id = tree.id) AS used,
                EXISTS (SELECT 1 FROM transactions t JOIN entries e ON e.id = t.entry_id
                         WHERE t.category_id = tree.id AND t.kind = ANY($2::text[])
                           AND (t.kind = ANY($3::text[]) OR e.amount_minor >= 0)) AS spent
           FROM tree)
       SELECT tree.id FROM tree
        WHERE tree.top IN (SELECT top FROM probed GROUP BY top HAVING bool_or(used) AND NOT bool_or(spent))`,
      [familyId, BUDGET_COUNTED_KINDS, ALWAYS_EXPENSE_KINDS],
    );
    return rows.map((row) => row.id);
  }

  async oldestEntryDate(familyId: string): Promise<IsoDate | null> {
    const [row] = await this.dataSource.query(
      `SELECT to_char(min(date), 'YYYY-MM-DD') AS oldest FROM entries WHERE family_id = $1`,
      [familyId],
    );
    return row?.oldest ?? null;
  }

  /**
   * Finds or creates the household budget of `period` in the family's currency, then gives it a row (budget 0) for
   * every family category that lacks one. Safe under concurrent calls: the unique index decides who creates.
   */
  async findOrCreateHousehold(familyId: string, period: BudgetPeriod): Promise<{ id: string; created: boolean }> {
    return this.dataSource.transaction(async (tx) => {
      const inserted: { id: string }[] = await tx.query(
        `INSERT INTO budgets (family_id, user_id, start_date, end_date, currency)
         SELECT f.id, NULL, $2::date, $3::date, f.currency FROM families f WHERE f.id = $1
         ON CONFLICT (family_id, start_date, end_date) WHERE user_id IS NULL DO NOTHING
         RETURNING id`,
        [familyId, period.startDate, period.endDate],
      );
      const [{ id }]: { id: string }[] = inserted.length
        ? inserted
        : await tx.query(
            `SELECT id FROM budgets WHERE family_id = $1 AND user_id IS NULL AND start_date = $2::date AND end_date = $3::date`,
            [familyId, period.startDate, period.endDate],
          );
      await addMissingRows(tx, `b.family_id = $1 AND b.id = $2`, [familyId, id]);
      return { id, created: inserted.length > 0 };
    });
  }

  async updateAmounts(
    id: string,
    changes: { budgetedSpending?: bigint | null; expectedIncome?: bigint | null },
  ): Promise<void> {
    const params: unknown[] = [id];
    const sets = [
      ['budgeted_spending_minor', changes.budgetedSpending],
      ['expected_income_minor', changes.expectedIncome],
    ]
      .filter(([, value]) => value !== undefined)
      .map(([column, value]) => {
        params.push(value === null ? null : String(value));
        return `${column} = $${params.length}::bigint`;
      });
    if (!sets.length) return;
    await this.dataSource.query(`UPDATE budgets SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, params);
  }

  /** addMissingRows for the visible budgets the filter selects: categories made after a budget appear in it. */
  async addMissingCategories(viewer: BudgetViewer, filter: DateFilter & { budgetId?: string }): Promise<void> {
    const params: unknown[] = [viewer.familyId, viewer.userId];
    const where = VISIBLE_BUDGET + conditions(params, [['b.id = ?::uuid', filter.budgetId]]) + dateConditions(params, filter);
    await addMissingRows(this.dataSource.manager, where, params);
  }

  countVisibleCategories(viewer: BudgetViewer, filter: BudgetCategoryFilter): Promise<number> {
    const params: unknown[] = [viewer.familyId, viewer.userId];
    const where = VISIBLE_BUDGET + categoryConditions(params, filter);
    return this.count(
      `SELECT count(*)::int AS count FROM budget_categories bc JOIN budgets b ON b.id = bc.budget_id WHERE ${where}`,
      params,
    );
  }

  /** Newest budget first, then by category name. */
  async listVisibleCategories(viewer: BudgetViewer, filter: BudgetCategoryFilter, page: PageWindow): Promise<BudgetCategoryRecord[]> {
    const params: unknown[] = [viewer.familyId, viewer.userId];
    const where = VISIBLE_BUDGET + categoryConditions(params, filter);
    const rows: RawBudgetCategory[] = await this.dataSource.query(
      `SELECT ${BUDGET_CATEGORY_COLUMNS} ${BUDGET_CATEGORY_FROM}
        WHERE ${where}
        ORDER BY b.start_date DESC, c.name, bc.id
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, page.limit, page.offset],
    );
    return rows.map(toBudgetCategory);
  }

  async findVisibleCategory(
    viewer: BudgetViewer,
    id: string,
    manager: EntityManager = this.dataSource.manager,
  ): Promise<BudgetCategoryRecord | null> {
    const rows: RawBudgetCategory[] = await manager.query(
      `SELECT ${BUDGET_CATEGORY_COLUMNS} ${BUDGET_CATEGORY_FROM}
        WHERE ${VISIBLE_BUDGET} AND bc.id = $3`,
      [viewer.familyId, viewer.userId, id],
    );
    return rows.length ? toBudgetCategory(rows[0]) : null;
  }

  /**
   * Locks, in id order so that concurrent edits cannot deadlock, and returns the rows of `topCategoryId` and of its
   * subcategories in one budget: everything a category-limit change may touch.
   */
  async lockCategoryGroup(
    manager: EntityManager,
    budgetId: string,
    topCategoryId: string,
  ): Promise<{ id: string; categoryId: string; budgetedSpending: bigint }[]> {
    const rows: { id: string; categoryId: string; budgetedSpending: string }[] = await manager.query(
      `SELECT bc.id, bc.category_id AS "categoryId", bc.budgeted_spending_minor::text AS "budgetedSpending"
         FROM budget_categories bc JOIN categories c ON c.id = bc.category_id
        WHERE bc.budget_id = $1 AND (c.id = $2 OR c.parent_id = $2)
        ORDER BY bc.id
        FOR UPDATE OF bc`,
      [budgetId, topCategoryId],
    );
    return rows.map((row) => ({ ...row, budgetedSpending: BigInt(row.budgetedSpending) }));
  }

  /**
   * Locks the budget's row, so that concurrent limit changes are totalled one after another, then returns its
   * allocated spending (the sum of its top-level category rows) as this transaction sees it.
   */
  async lockAllocatedSpending(manager: EntityManager, budgetId: string): Promise<bigint> {
    await manager.query(`SELECT id FROM budgets WHERE id = $1 FOR NO KEY UPDATE`, [budgetId]);
    const [{ total }]: { total: string }[] = await manager.query(
      `SELECT coalesce(sum(bc.budgeted_spending_minor), 0)::text AS total
         FROM budget_categories bc JOIN categories c ON c.id = bc.category_id
        WHERE bc.budget_id = $1 AND c.parent_id IS NULL`,
      [budgetId],
    );
    return BigInt(total);
  }

  async setCategoryBudget(manager: EntityManager, id: string, amount: bigint): Promise<void> {
    await manager.query(
      `UPDATE budget_categories SET budgeted_spending_minor = $2::bigint, updated_at = now() WHERE id = $1`,
      [id, String(amount)],
    );
  }

  private async count(sql: string, params: unknown[]): Promise<number> {
    const [{ count }]: { count: number }[] = await this.dataSource.query(sql, params);
    return count;
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
