import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { MergedBudgetAmounts, MergedBudgetRows } from '@hearth/domain/budget-math';
import type { FamilyScope } from '../common/family-scope';
import type { PageWindow } from '../common/paging';
import { ADVISORY_LOCKS } from '../database/advisory-locks';
import { managerOf, Transaction } from '../database/transactions';

export type CategoryClassification = 'income' | 'expense';

/** A category as the categories API shows it. */
export interface CategoryRecord {
  id: string;
  name: string;
  color: string;
  icon: string;
  classification: CategoryClassification;
  parent: { id: string; name: string; color: string } | null;
  subcategoriesCount: number;
  transactionsCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** Which categories a list reads: only top-level ones, or only the subcategories of one. */
export interface CategoryFilter {
  rootsOnly?: boolean;
  parentId?: string;
}

/** What a write sets; a field left out keeps its value. */
export interface CategoryFields {
  name?: string;
  color?: string;
  icon?: string;
  classification?: CategoryClassification;
  parentId?: string | null;
}

const where = (filter: CategoryFilter, params: unknown[]) =>
  ['c.family_id = $1', filter.rootsOnly ? 'c.parent_id IS NULL' : null, filter.parentId ? `c.parent_id = $${params.push(filter.parentId)}::uuid` : null]
    .filter(Boolean)
    .join(' AND ');

/**
 * The family's ($1) categories selected by `condition` with their parent, subcategory and transaction counts. The
 * transactions are counted for the selected categories only, along the (category_id, kind) index.
 */
const DETAILS = (condition: string, tail = '') => `
  WITH chosen AS (SELECT c.* FROM categories c WHERE ${condition} ${tail}),
       used AS (SELECT t.category_id, count(*)::int AS n FROM transactions t WHERE t.category_id IN (SELECT id FROM chosen) GROUP BY 1)
  SELECT c.id, c.name, c.color, c.lucide_icon AS icon, c.classification,
         CASE WHEN p.id IS NULL THEN NULL ELSE json_build_object('id', p.id, 'name', p.name, 'color', p.color) END AS parent,
         (SELECT count(*)::int FROM categories s WHERE s.parent_id = c.id AND s.family_id = $1) AS "subcategoriesCount",
         coalesce(used.n, 0) AS "transactionsCount", c.created_at AS "createdAt", c.updated_at AS "updatedAt"
    FROM chosen c
    LEFT JOIN categories p ON p.id = c.parent_id AND p.family_id = $1
    LEFT JOIN used ON used.category_id = c.id
   ORDER BY c.name, c.id`;

/** The statements of the ledger on a family's categories as the household edits them (imports write them through TaxonomyRepository). */
@Injectable()
export class CategoriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Serialises changes to the family's category tree with each other and with imports creating categories, until
   * the transaction ends: the checks a change makes (name free, one level of nesting) stay true until it commits.
   */
  async lockTree(scope: FamilyScope, tx: Transaction): Promise<void> {
    await managerOf(tx, this.dataSource).query(`SELECT pg_advisory_xact_lock($1, hashtext($2))`, [ADVISORY_LOCKS.familyMappings, scope.familyId]);
  }

  async count(scope: FamilyScope, filter: CategoryFilter): Promise<number> {
    const params: unknown[] = [scope.familyId];
    const [row] = await this.dataSource.query(`SELECT count(*)::int AS n FROM categories c WHERE ${where(filter, params)}`, params);
    return row.n;
  }

  /** By name; one page when `page` is given, else all of them. */
  list(scope: FamilyScope, filter: CategoryFilter, page?: PageWindow): Promise<CategoryRecord[]> {
    const params: unknown[] = [scope.familyId];
    const condition = where(filter, params);
    const tail = page ? `ORDER BY c.name, c.id LIMIT $${params.push(page.limit)} OFFSET $${params.push(page.offset)}` : '';
    return this.dataSource.query(DETAILS(condition, tail), params);
  }

  async find(scope: FamilyScope, id: string, tx?: Transaction): Promise<CategoryRecord | undefined> {
    const rows: CategoryRecord[] = await managerOf(tx, this.dataSource).query(DETAILS('c.family_id = $1 AND c.id = $2'), [scope.familyId, id]);
    return rows[0];
  }

  /** Whether another category of the family (not `exceptId`) has this name. */
  async nameTaken(scope: FamilyScope, name: string, exceptId: string | null, tx: Transaction): Promise<boolean> {
    const rows = await managerOf(tx, this.dataSource).query(
      `SELECT 1 FROM categories WHERE family_id = $1 AND name = $2 AND id IS DISTINCT FROM $3::uuid LIMIT 1`,
      [scope.familyId, name, exceptId],
    );
    return rows.length > 0;
  }

  /** Creates a category; a subcategory takes its parent's colour. */
  async insert(scope: FamilyScope, fields: Required<CategoryFields>, tx: Transaction): Promise<string> {
    const [{ id }] = await managerOf(tx, this.dataSource).query(
      `INSERT INTO categories (family_id, name, color, lucide_icon, classification, parent_id)
       VALUES ($1, $2, COALESCE((SELECT color FROM categories WHERE id = $6::uuid AND family_id = $1), $3), $4, $5, $6::uuid)
       RETURNING id`,
      [scope.familyId, fields.name, fields.color, fields.icon, fields.classification, fields.parentId],
    );
    return id;
  }

  /**
   * Changes the given fields. A subcategory takes its (new) parent's colour, and a parent's new colour goes to its
   * subcategories, so that the tree shows one colour per top-level category as Sure does.
   */
  async update(scope: FamilyScope, id: string, fields: CategoryFields, tx: Transaction): Promise<void> {
    const manager = managerOf(tx, this.dataSource);
    const moves = fields.parentId !== undefined;
    await manager.query(
      `UPDATE categories c
          SET name = COALESCE($3, c.name), lucide_icon = COALESCE($5, c.lucide_icon), classification = COALESCE($6, c.classification),
              parent_id = CASE WHEN $7::boolean THEN $8::uuid ELSE c.parent_id END,
              color = COALESCE((SELECT p.color FROM categories p WHERE p.family_id = $1 AND p.id = CASE WHEN $7::boolean THEN $8::uuid ELSE c.parent_id END), $4, c.color),
              updated_at = now()
        WHERE c.family_id = $1 AND c.id = $2`,
      [scope.familyId, id, fields.name ?? null, fields.color ?? null, fields.icon ?? null, fields.classification ?? null, moves, fields.parentId ?? null],
    );
    if (fields.color !== undefined) {
      await manager.query(`UPDATE categories SET color = $3, updated_at = now() WHERE family_id = $1 AND parent_id = $2 AND color <> $3`, [scope.familyId, id, fields.color]);
    }
  }

  /** Re-categorises the family's transactions of `from` to `to` (null: uncategorised); returns how many. */
  async moveTransactions(scope: FamilyScope, from: string, to: string | null, tx: Transaction): Promise<number> {
    const [{ n }] = await managerOf(tx, this.dataSource).query(
      `WITH moved AS (
         UPDATE transactions t SET category_id = $3::uuid, updated_at = now()
           FROM entries e
          WHERE t.category_id = $2 AND e.id = t.entry_id AND e.family_id = $1
         RETURNING 1)
       SELECT count(*)::int AS n FROM moved`,
      [scope.familyId, from, to],
    );
    return n;
  }

  /** Puts the subcategories of `from` under `to` (null: top-level), in `to`'s colour; returns how many. */
  async moveSubcategories(scope: FamilyScope, from: string, to: string | null, tx: Transaction): Promise<number> {
    const [{ n }] = await managerOf(tx, this.dataSource).query(
      `WITH moved AS (
         UPDATE categories c SET parent_id = $3::uuid, updated_at = now(),
                color = COALESCE((SELECT p.color FROM categories p WHERE p.family_id = $1 AND p.id = $3::uuid), c.color)
          WHERE c.family_id = $1 AND c.parent_id = $2 AND c.id IS DISTINCT FROM $3::uuid
         RETURNING 1)
       SELECT count(*)::int AS n FROM moved`,
      [scope.familyId, from, to],
    );
    return n;
  }

  /**
   * For each of the family's budgets with a row for `deleted`: that row's limit, the replacement's, and (when the
   * replacement is a subcategory of `replacementParent`) that parent's and its other subcategories' limits.
   */
  async budgetRowsOfMerge(scope: FamilyScope, deleted: string, replacement: string, replacementParent: string | null, tx: Transaction): Promise<MergedBudgetRows[]> {
    const rows: Array<{ budgetId: string; deleted: string; replacement: string | null; replacementParent: string | null; otherSubcategories: string[] }> =
      await managerOf(tx, this.dataSource).query(
        `SELECT b.id AS "budgetId", d.budgeted_spending_minor::text AS deleted, r.budgeted_spending_minor::text AS replacement,
                p.budgeted_spending_minor::text AS "replacementParent",
                ARRAY(SELECT o.budgeted_spending_minor::text FROM budget_categories o JOIN categories oc ON oc.id = o.category_id
                       WHERE o.budget_id = b.id AND oc.family_id = $1 AND oc.parent_id = $4::uuid AND oc.id <> $2 AND oc.id <> $3) AS "otherSubcategories"
           FROM budgets b
           JOIN budget_categories d ON d.budget_id = b.id AND d.category_id = $2
           LEFT JOIN budget_categories r ON r.budget_id = b.id AND r.category_id = $3
           LEFT JOIN budget_categories p ON p.budget_id = b.id AND p.category_id = $4::uuid
          WHERE b.family_id = $1
          ORDER BY b.id`,
        [scope.familyId, deleted, replacement, replacementParent],
      );
    const big = (value: string | null) => (value === null ? null : BigInt(value));
    return rows.map((row) => ({
      budgetId: row.budgetId,
      deleted: big(row.deleted),
      replacement: big(row.replacement),
      replacementParent: big(row.replacementParent),
      otherSubcategories: row.otherSubcategories.map(BigInt),
    }));
  }

  /** Stores merged limits: the replacement's row in each budget (made when missing) and its parent's where it moved. */
  async writeMergedBudgetLimits(scope: FamilyScope, replacement: string, replacementParent: string | null, amounts: MergedBudgetAmounts[], tx: Transaction): Promise<void> {
    if (!amounts.length) return;
    const manager = managerOf(tx, this.dataSource);
    const budgetIds = amounts.map((a) => a.budgetId);
    await manager.query(
      `INSERT INTO budget_categories (budget_id, category_id, budgeted_spending_minor, currency)
       SELECT b.id, $2, u.amount, b.currency FROM unnest($3::uuid[], $4::bigint[]) AS u(budget_id, amount) JOIN budgets b ON b.id = u.budget_id AND b.family_id = $1
        ORDER BY b.id
       ON CONFLICT (budget_id, category_id) DO UPDATE SET budgeted_spending_minor = EXCLUDED.budgeted_spending_minor, updated_at = now()`,
      [scope.familyId, replacement, budgetIds, amounts.map((a) => a.replacement.toString())],
    );
    const parents = amounts.filter((a) => a.replacementParent !== null);
    if (replacementParent === null || !parents.length) return;
    await manager.query(
      `UPDATE budget_categories bc SET budgeted_spending_minor = u.amount, updated_at = now()
         FROM unnest($3::uuid[], $4::bigint[]) AS u(budget_id, amount) JOIN budgets b ON b.id = u.budget_id AND b.family_id = $1
        WHERE bc.budget_id = u.budget_id AND bc.category_id = $2 AND bc.budgeted_spending_minor <> u.amount`,
      [scope.familyId, replacementParent, parents.map((a) => a.budgetId), parents.map((a) => a.replacementParent!.toString())],
    );
  }

  /** Deletes the category and its budget rows; returns how many budget rows went with it. */
  async remove(scope: FamilyScope, id: string, tx: Transaction): Promise<number> {
    const manager = managerOf(tx, this.dataSource);
    const [{ n }] = await manager.query(
      `WITH dropped AS (
         DELETE FROM budget_categories bc USING budgets b
          WHERE bc.category_id = $2 AND b.id = bc.budget_id AND b.family_id = $1
         RETURNING 1)
       SELECT count(*)::int AS n FROM dropped`,
      [scope.familyId, id],
    );
    await manager.query(`DELETE FROM categories WHERE family_id = $1 AND id = $2`, [scope.familyId, id]);
    return n;
  }
}
