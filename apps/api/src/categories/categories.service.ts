import { Injectable } from '@nestjs/common';
import { kinshipOf, mergeBudgetLimits, newParentOfSubcategories, parentProblem } from '@hearth/domain/budget-math';
import type { PlacedCategory } from '@hearth/domain/budget-math';
import { LARGEST_CENTS } from '@hearth/domain/money';
import type { Principal } from '../auth/principal';
import { AuditService, RequestOrigin } from '../audit/audit.service';
import { ApiError } from '../common/api-error';
import type { FamilyScope } from '../common/family-scope';
import { familyScopeOf } from '../common/family-scope';
import { pageWindow } from '../common/paging';
import { Transaction, Transactions } from '../database/transactions';
import { CategoriesRepository, CategoryFields, CategoryRecord } from '../ledger/categories.repository';
import type {
  CategoryDeletionDto,
  CategoryDto,
  CategoryListDto,
  CategoryTreeDto,
  CreateCategoryDto,
  DeleteCategoryQuery,
  ListCategoriesQuery,
  UpdateCategoryDto,
} from './category.dto';
import { presentCategory, presentTree } from './category.presenter';

const placed = (category: CategoryRecord): PlacedCategory => ({ id: category.id, parentId: category.parent?.id ?? null });

/**
 * The household's categories: listed as Sure lists them and as a tree, created, renamed, recoloured, moved, and
 * deleted or merged into another with everything that pointed at them. Every change runs under the family's tree lock
 * (CategoriesRepository.lockTree), so that its checks hold until it commits.
 */
@Injectable()
export class CategoriesService {
  constructor(
    private readonly categories: CategoriesRepository,
    private readonly transactions: Transactions,
    private readonly audit: AuditService,
  ) {}

  async list(principal: Principal, query: ListCategoriesQuery): Promise<CategoryListDto> {
    const scope = familyScopeOf(principal);
    const filter = { rootsOnly: query.roots_only === 'true' || query.roots_only === '1', parentId: query.parent_id };
    const { window, pagination } = pageWindow(query, await this.categories.count(scope, filter));
    const rows = await this.categories.list(scope, filter, window);
    return { categories: rows.map(presentCategory), pagination };
  }

  async tree(principal: Principal): Promise<CategoryTreeDto> {
    return presentTree(await this.categories.list(familyScopeOf(principal), {}));
  }

  async show(principal: Principal, id: string): Promise<CategoryDto> {
    const found = await this.categories.find(familyScopeOf(principal), id);
    if (!found) throw ApiError.notFound();
    return presentCategory(found);
  }

  async create(principal: Principal, body: CreateCategoryDto): Promise<CategoryDto> {
    const scope = familyScopeOf(principal);
    const id = await this.transactions.run(async (tx) => {
      await this.categories.lockTree(scope, tx);
      await this.assertNameFree(scope, body.name, null, tx);
      const parent = await this.parentFor(scope, { id: null, hasSubcategories: false }, body.parent_id ?? null, tx);
      if (parent && body.color !== undefined) throw ApiError.validation([SUBCATEGORY_COLOR]);
      return this.categories.insert(
        scope,
        { name: body.name, color: body.color ?? DEFAULT_COLOR, icon: body.icon ?? 'shapes', classification: body.classification ?? 'expense', parentId: parent?.id ?? null },
        tx,
      );
    });
    return this.show(principal, id);
  }

  async update(principal: Principal, id: string, body: UpdateCategoryDto): Promise<CategoryDto> {
    const scope = familyScopeOf(principal);
    await this.transactions.run(async (tx) => {
      await this.categories.lockTree(scope, tx);
      const category = await this.findOrFail(scope, id, tx);
      if (body.name !== undefined && body.name !== category.name) await this.assertNameFree(scope, body.name, id, tx);
      const moves = body.parent_id !== undefined && body.parent_id !== (category.parent?.id ?? null);
      const parentId = moves ? (await this.parentFor(scope, { id, hasSubcategories: category.subcategoriesCount > 0 }, body.parent_id!, tx))?.id ?? null : category.parent?.id ?? null;
      if (parentId !== null && body.color !== undefined) throw ApiError.validation([SUBCATEGORY_COLOR]);
      const fields: CategoryFields = { name: body.name, color: body.color, icon: body.icon, classification: body.classification };
      if (moves) fields.parentId = parentId;
      await this.categories.update(scope, id, fields, tx);
    });
    return this.show(principal, id);
  }

  /**
   * Deletes a category in one transaction. With a replacement (a merge) its transactions, its budget limits (merged
   * into the replacement's, budget by budget: mergeBudgetLimits) and its subcategories go to the replacement; without
   * one, its transactions become uncategorised, its budget rows go and its subcategories become top-level.
   */
  async remove(principal: Principal, id: string, query: DeleteCategoryQuery, origin: RequestOrigin): Promise<CategoryDeletionDto> {
    const scope = familyScopeOf(principal);
    return this.transactions.run(async (tx) => {
      await this.categories.lockTree(scope, tx);
      const deleted = await this.findOrFail(scope, id, tx);
      const replacement = query.replacement_id === undefined ? null : await this.replacementFor(scope, deleted, query.replacement_id, tx);
      const subcategoriesTo = newParentOfSubcategories(placed(deleted), replacement && placed(replacement));
      let merged = 0;
      if (replacement) {
        const kinship = kinshipOf(placed(deleted), placed(replacement));
        // The replacement's parent once the delete is done: none when it was the deleted category's subcategory.
        const replacementParent = kinship === 'child' ? null : (replacement.parent?.id ?? null);
        if (kinship === 'child') await this.categories.update(scope, replacement.id, { parentId: null }, tx);
        const amounts = mergeBudgetLimits(kinship, await this.categories.budgetRowsOfMerge(scope, deleted.id, replacement.id, replacementParent, tx));
        const largest = amounts.flatMap((a) => [a.replacement, a.replacementParent ?? 0n]).reduce((max, a) => (a > max ? a : max), 0n);
        if (largest > LARGEST_CENTS) throw ApiError.validation(['replacement_id cannot take this category: a merged budget limit would be above the largest amount kept']);
        await this.categories.writeMergedBudgetLimits(scope, replacement.id, replacementParent, amounts, tx);
        merged = amounts.length;
      }
      const transactionsMoved = await this.categories.moveTransactions(scope, deleted.id, replacement?.id ?? null, tx);
      const subcategoriesMoved = await this.categories.moveSubcategories(scope, deleted.id, subcategoriesTo, tx);
      const budgetRowsRemoved = await this.categories.remove(scope, deleted.id, tx);
      const { id: _id, ...outcome }: CategoryDeletionDto = {
        id: deleted.id,
        replacement_id: replacement?.id ?? null,
        transactions_moved: transactionsMoved,
        budget_limits_merged: merged,
        budget_rows_removed: budgetRowsRemoved,
        subcategories_moved: subcategoriesMoved,
      };
      await this.audit.record('category_deleted', { userId: principal.userId, familyId: principal.familyId, origin, details: { category_id: deleted.id, name: deleted.name, ...outcome } }, tx);
      return { id: deleted.id, ...outcome };
    });
  }

  private async findOrFail(scope: FamilyScope, id: string, tx: Transaction): Promise<CategoryRecord> {
    const found = await this.categories.find(scope, id, tx);
    if (!found) throw ApiError.notFound();
    return found;
  }

  private async assertNameFree(scope: FamilyScope, name: string, exceptId: string | null, tx: Transaction): Promise<void> {
    if (await this.categories.nameTaken(scope, name, exceptId, tx)) throw ApiError.validation([`name is already used by another category of this household: ${name}`]);
  }

  /** The parent a category may go under; another family's id is answered as an unknown one. */
  private async parentFor(scope: FamilyScope, category: { id: string | null; hasSubcategories: boolean }, parentId: string | null, tx: Transaction): Promise<CategoryRecord | null> {
    if (parentId === null) return null;
    const parent = await this.categories.find(scope, parentId, tx);
    if (!parent) throw ApiError.validation(['parent_id is not a category of this household']);
    const problem = parentProblem({ id: category.id ?? '', parentId: null, hasSubcategories: category.hasSubcategories }, placed(parent));
    if (problem) throw ApiError.validation([problem]);
    return parent;
  }

  private async replacementFor(scope: FamilyScope, deleted: CategoryRecord, replacementId: string, tx: Transaction): Promise<CategoryRecord> {
    if (replacementId.toLowerCase() === deleted.id.toLowerCase()) throw ApiError.validation(['replacement_id must be another category than the one deleted']);
    const replacement = await this.categories.find(scope, replacementId, tx);
    if (!replacement) throw ApiError.validation(['replacement_id is not a category of this household']);
    return replacement;
  }
}

/** Sure's default category colour (the column's default). */
const DEFAULT_COLOR = '#6172F3';
const SUBCATEGORY_COLOR = "color cannot be given to a subcategory: it takes its parent's colour";
