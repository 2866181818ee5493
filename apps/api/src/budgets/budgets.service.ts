import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';
import {
  budgetPeriodFor,
  budgetWindow,
  familyToday,
  isWithinBudgetWindow,
  parentBudgetAfterSubcategoryChange,
  parseIsoDate,
  summarizeBudget,
} from '@hearth/domain/budget-math';
import type { BudgetSummary, CategoryActivity, IsoDate } from '@hearth/domain/budget-math';
import { convertedSumToMinorUnits, formatDecimal, LARGEST_CENTS } from '@hearth/domain/money';
import type { Principal } from '../auth/principal';
import { ApiError } from '../common/api-error';
import { assertUsableFamilyCurrency } from '../common/currency-field';
import { amountField } from '../common/money-fields';
import { LOGGER } from '../common/logger';
import { pageWindow } from '../common/paging';
import { uuidParam } from '../common/query-params';
import { requestLocale } from '../common/request-locale';
import type { WithUnconverted } from '../common/unconverted-entries';
import { RepeatedWarning } from '../common/repeated-warning';
import { FamiliesRepository } from '../finance/families.repository';
import type {
  BudgetCategoryDto,
  BudgetCategoryListDto,
  BudgetDto,
  BudgetListDto,
  CreateBudgetDto,
  ListBudgetCategoriesQuery,
  ListBudgetsQuery,
  UpdateBudgetCategoryDto,
  UpdateBudgetDto,
} from './budget.dto';
import {
  presentBudget,
  presentBudgetCategory,
  presentBudgetCategorySummary,
  presentBudgetSummary,
  Presentation,
} from './budget.presenter';
import { BudgetRecord, BudgetsRepository, BudgetViewer, DateFilter } from './budgets.repository';

/** A computed budget, plus how many foreign-currency entries had no rate on their date and were left out. */
export interface ComputedBudget {
  budget: BudgetRecord;
  summary: BudgetSummary;
  unconvertedEntries: number;
}

/** Computed budgets kept per process; each is checked against the database's version on every read. */
const COMPUTED_CACHE_SIZE = 500;

/**
 * What a budget's figures depend on, as read with the budget row on each request: its own amounts and update time, and
 * the family's data version (moved by triggers with every write to entries, transactions, accounts, categories,
 * budget categories or rates). The version is read before computing, so a cached result is never older than its key,
 * whichever process (HEARTH_ROLE api, several of them) wrote or computed.
 */
const inputsKey = (budget: BudgetRecord) =>
  [budget.dataVersion, budget.updatedAt.getTime(), budget.startDate, budget.endDate, budget.currency, budget.budgetedSpending, budget.expectedIncome, budget.userId].join('|');

const viewerOf = (principal: Principal): BudgetViewer => ({ familyId: principal.familyId, userId: principal.userId });

/** A strict ISO 8601 calendar date, "2024-03-01" or "20240301"; undefined when absent. */
function isoDateParam(name: string, value: unknown): IsoDate | undefined {
  if (value === undefined) return undefined;
  const compact = typeof value === 'string' ? /^(\d{4})(\d{2})(\d{2})$/.exec(value) : null;
  const text = compact ? `${compact[1]}-${compact[2]}-${compact[3]}` : value;
  try {
    if (typeof text !== 'string') throw new RangeError();
    parseIsoDate(text);
    return text;
  } catch {
    throw ApiError.validation([`${name} must be an ISO 8601 date`]);
  }
}

@Injectable()
export class BudgetsService {
  /** Budget id -> its computation under one inputs key; concurrent readers of the same version share one query. */
  private readonly computed = new Map<string, { key: string; value: Promise<ComputedBudget> }>();

  private readonly missingRateWarning = new RepeatedWarning();

  constructor(
    private readonly budgets: BudgetsRepository,
    private readonly families: FamiliesRepository,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  presentation(locale: string | undefined, acceptLanguage: string | undefined): Presentation {
    return { locale: requestLocale(locale, acceptLanguage), now: new Date() };
  }

  async show(principal: Principal, id: string, view: Presentation): Promise<WithUnconverted<BudgetDto>> {
    const budget = await this.findBudget(principal, id);
    const computed = await this.computeCached(budget);
    return { dto: presentBudget(budget, computed.summary.budget, view), unconvertedEntries: computed.unconvertedEntries };
  }

  /** compute(), reused while the budget's inputs are unchanged (inputsKey). */
  private computeCached(budget: BudgetRecord): Promise<ComputedBudget> {
    const key = inputsKey(budget);
    const hit = this.computed.get(budget.id);
    if (hit?.key === key) return hit.value;
    const value = this.compute(budget);
    this.computed.delete(budget.id); // re-inserted last: the map's order is least recently computed first
    this.computed.set(budget.id, { key, value });
    if (this.computed.size > COMPUTED_CACHE_SIZE) this.computed.delete(this.computed.keys().next().value!);
    value.catch(() => {
      if (this.computed.get(budget.id)?.value === value) this.computed.delete(budget.id);
    });
    return value;
  }

  async list(principal: Principal, query: ListBudgetsQuery, view: Presentation): Promise<BudgetListDto> {
    const viewer = viewerOf(principal);
    const filter = this.dateFilter(query);
    const { window, pagination } = pageWindow(query, await this.budgets.countVisible(viewer, filter));
    const rows = await this.budgets.listVisible(viewer, filter, window);
    return { budgets: rows.map((row) => presentBudgetSummary(row, row.allocatedSpending, view)), pagination };
  }

  /** Finds or creates the household budget of the month containing `start_date`, with a row per category. */
  async create(principal: Principal, body: CreateBudgetDto): Promise<{ id: string; created: boolean }> {
    const date = isoDateParam('start_date', body.start_date);
    if (!date) throw ApiError.validation(['start_date is required']);
    const family = await this.families.findById(principal.familyId);
    if (!family) throw ApiError.notFound();
    assertUsableFamilyCurrency(family.currency); // a new budget takes it
    const period = budgetPeriodFor(date, family.monthStartDay);
    const today = familyToday(family.timezone);
    const window = budgetWindow(today, family.monthStartDay, await this.budgets.oldestEntryDate(family.id));
    if (!isWithinBudgetWindow(period, window)) {
      throw new ApiError(
        422,
        'budget_out_of_range',
        `Budgets can start from ${window.earliestStart} to ${window.latestStart}; ${date} is in the month starting ${period.startDate}`,
      );
    }
    return this.budgets.findOrCreateHousehold(family.id, period);
  }

  async update(principal: Principal, id: string, body: UpdateBudgetDto): Promise<void> {
    const budget = await this.findBudget(principal, id);
    const nullableAmount = (name: string, value: unknown) =>
      value === undefined || value === null ? value : amountField(name, value, budget.currency, { atLeastZero: true });
    await this.budgets.updateAmounts(budget.id, {
      budgetedSpending: nullableAmount('budgeted_spending', body.budgeted_spending),
      expectedIncome: nullableAmount('expected_income', body.expected_income),
    });
  }

  async listCategories(principal: Principal, query: ListBudgetCategoriesQuery, view: Presentation): Promise<BudgetCategoryListDto> {
    const viewer = viewerOf(principal);
    const filter = {
      ...this.dateFilter(query),
      budgetId: uuidParam('budget_id', query.budget_id),
      categoryId: uuidParam('category_id', query.category_id),
      // Income and transfer categories are not spending rows: the listed rows add up to actual spending.
      leftOut: await this.budgets.nonSpendingCategories(principal.familyId),
    };
    // Every category of the family is in every budget, whenever it was made (its spending is in the totals).
    await this.budgets.addMissingCategories(viewer, filter);
    const { window, pagination } = pageWindow(query, await this.budgets.countVisibleCategories(viewer, filter));
    const rows = await this.budgets.listVisibleCategories(viewer, filter, window);
    return { budget_categories: rows.map((row) => presentBudgetCategorySummary(row, view)), pagination };
  }

  async showCategory(principal: Principal, id: string, view: Presentation): Promise<WithUnconverted<BudgetCategoryDto>> {
    const row = await this.budgets.findVisibleCategory(viewerOf(principal), id);
    if (!row) throw ApiError.notFound();
    const computed = await this.computeCached(await this.findBudget(principal, row.budgetId));
    const amounts = computed.summary.categories.find((category) => category.categoryId === row.category.id);
    if (!amounts) throw ApiError.notFound(); // the category was deleted meanwhile
    return { dto: presentBudgetCategory(row, amounts, view), unconvertedEntries: computed.unconvertedEntries };
  }

  /**
   * Sets one category's limit. A subcategory's limit is ring-fenced inside its parent, so the parent row moves with
   * it (parentBudgetAfterSubcategoryChange); setting a parent leaves its subcategories alone.
   */
  async updateCategory(principal: Principal, id: string, body: UpdateBudgetCategoryDto): Promise<void> {
    const viewer = viewerOf(principal);
    await this.budgets.transaction(async (tx) => {
      const row = await this.budgets.findVisibleCategory(viewer, id, tx);
      if (!row) throw ApiError.notFound();
      const amount = amountField('budgeted_spending', body.budgeted_spending ?? '0', row.currency, { atLeastZero: true });
      const parentId = row.parentBudgetedSpending === null ? null : row.category.parentId;
      const group = await this.budgets.lockCategoryGroup(tx, row.budgetId, parentId ?? row.category.id);
      await this.budgets.setCategoryBudget(tx, row.id, amount);
      const parent = parentId === null ? undefined : group.find((member) => member.categoryId === parentId);
      if (parent) {
        const own = group.find((member) => member.id === row.id);
        const siblings = group.filter((member) => member !== parent && member !== own);
        const parentBudget = parentBudgetAfterSubcategoryChange({
          parentBudget: parent.budgetedSpending,
          siblingBudgets: siblings.map((sibling) => sibling.budgetedSpending),
          previous: own?.budgetedSpending ?? 0n,
          next: amount,
        });
        if (parentBudget > LARGEST_CENTS) {
          throw ApiError.validation([`budgeted_spending would raise the parent category above ${formatDecimal(LARGEST_CENTS, row.currency)}`]);
        }
        if (parentBudget !== parent.budgetedSpending) await this.budgets.setCategoryBudget(tx, parent.id, parentBudget);
      }
      // Top-level limits add up to allocated_spending, which must stay a JSON-safe _cents integer too.
      if ((await this.budgets.lockAllocatedSpending(tx, row.budgetId)) > LARGEST_CENTS) {
        throw ApiError.validation([`budgeted_spending would raise the budget's allocated spending above ${formatDecimal(LARGEST_CENTS, row.currency)}`]);
      }
    });
  }

  /** Every amount of one budget: the category tree and the period's activity, then the pure budget math. */
  async compute(budget: BudgetRecord): Promise<ComputedBudget> {
    const [categories, groups] = await Promise.all([
      this.budgets.categoryBudgets(budget.familyId, budget.id),
      this.budgets.activity(budget.familyId, budget, budget.currency, budget.userId),
    ]);
    const activity: CategoryActivity[] = groups.map((group) => {
      const amount = convertedSumToMinorUnits(group.product, group.currency, budget.currency);
      return { categoryId: group.categoryId, expense: group.isExpense ? amount : 0n, income: group.isExpense ? 0n : amount };
    });
    const unconverted = groups.filter((group) => group.missingRates > 0);
    const unconvertedEntries = unconverted.reduce((total, group) => total + group.missingRates, 0);
    if (unconvertedEntries) {
      // Never counted 1:1: a budget without the rate leaves the entry out and says so here and in a response header;
      // the log says it once per distinct shortfall, not once per read.
      const missingRates = Object.fromEntries(unconverted.map((group) => [group.currency, group.missingRates]));
      const said = this.missingRateWarning.shouldSay(budget.id, JSON.stringify(missingRates));
      if (said.say) {
        this.logger.warn(
          { budgetId: budget.id, familyId: budget.familyId, budgetCurrency: budget.currency, missingRates, repeatsSinceLastSaid: said.repeats },
          'budget left out entries without an exchange rate on their date',
        );
      }
    }
    const summary = summarizeBudget({
      budgetedSpending: budget.budgetedSpending,
      expectedIncome: budget.expectedIncome,
      categories: categories.map((row) => ({ id: row.categoryId, parentId: row.parentId })),
      budgetCategories: categories.flatMap((row) =>
        row.budgetedSpending === null ? [] : [{ categoryId: row.categoryId, budgetedSpending: row.budgetedSpending }],
      ),
      activity,
    });
    return { budget, summary, unconvertedEntries };
  }

  private async findBudget(principal: Principal, id: string): Promise<BudgetRecord> {
    const budget = await this.budgets.findVisible(viewerOf(principal), id);
    if (!budget) throw ApiError.notFound();
    return budget;
  }

  private dateFilter(query: { start_date?: string; end_date?: string }): DateFilter {
    return { startDate: isoDateParam('start_date', query.start_date), endDate: isoDateParam('end_date', query.end_date) };
  }
}
