import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { budgetPeriodFor, familyToday } from '@hearth/domain/budget-math';
import { api, unwrap } from '../../../lib/api/client';
import type { components } from '../../../lib/api/schema';

export type Budget = components['schemas']['BudgetDto'];
export type BudgetCategory = components['schemas']['BudgetCategoryDto'];
type BudgetCategorySummary = components['schemas']['BudgetCategorySummaryDto'];

/** Money strings come formatted for the browser's language. */
const header = { 'accept-language': navigator.language };

export const budgetKeys = {
  all: ['budgets'] as const,
  month: (month: string) => [...budgetKeys.all, 'month', month] as const,
  detail: (id: string) => [...budgetKeys.all, 'detail', id] as const,
  categories: (id: string) => [...budgetKeys.all, 'categories', id] as const,
  /** A row's figures, under its budget's key so that all of them can be read again at once. */
  categoryDetails: (budgetId: string) => [...budgetKeys.all, 'category', budgetId] as const,
  category: (budgetId: string, id: string) => [...budgetKeys.categoryDetails(budgetId), id] as const,
};

/** The household's settings: its time zone and the day its budget month starts on decide which month is running. */
export const useFamilySettings = () => useQuery({ queryKey: ['family_settings'], queryFn: () => unwrap(api.GET('/api/v1/family_settings')) });

/**
 * The YYYY-MM the month picker means by the budget month running today: the one it started in (with month_start_day
 * 15, on 10 January that is December's). Today is the family's, in its time zone; without one, where the user is
 * (toISOString would give UTC's date, a day off around midnight).
 */
export const runningMonth = ({ timezone, month_start_day }: { timezone: string | null; month_start_day: number }) => {
  const now = new Date();
  const today = timezone
    ? familyToday(timezone, now)
    : `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
  return budgetPeriodFor(today, month_start_day).startDate.slice(0, 7);
};
/** First and last day of a YYYY-MM month. */
export function monthRange(month: string): { start: string; end: string } {
  const [y, m] = month.split('-').map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { start: `${month}-01`, end: `${month}-${String(last).padStart(2, '0')}` };
}

/** The YYYY-MM month after `month`. */
const nextMonth = (month: string): string => {
  const [y, m] = month.split('-').map(Number);
  return new Date(Date.UTC(y, m, 1)).toISOString().slice(0, 7);
};

/**
 * The budget of a month, or null when none has been started: the budget month starting in it, on the family's
 * month_start_day (1 to 28), so it ends by the end of the next month.
 */
export const useMonthBudget = (month: string) =>
  useQuery({
    queryKey: budgetKeys.month(month),
    queryFn: async () => {
      const query = { start_date: monthRange(month).start, end_date: monthRange(nextMonth(month)).end };
      const list = await unwrap(api.GET('/api/v1/budgets', { params: { query, header } }));
      const summary = list.budgets.find((b) => b.start_date.startsWith(`${month}-`)) ?? null;
      return summary ? unwrap(api.GET('/api/v1/budgets/{id}', { params: { path: { id: summary.id }, header } })) : null;
    },
  });

/** The category rows of a budget, every page of them, with their actual spending (one detail call per row). */
export function useBudgetCategories(budgetId: string) {
  const list = useQuery({
    queryKey: budgetKeys.categories(budgetId),
    queryFn: async () => {
      const rows: BudgetCategorySummary[] = [];
      for (let page = 1, pages = 1; page <= pages; page++) {
        const query = { budget_id: budgetId, per_page: '100', page: String(page) };
        const answer = await unwrap(api.GET('/api/v1/budget_categories', { params: { query, header } }));
        rows.push(...answer.budget_categories);
        pages = answer.pagination.total_pages;
      }
      return rows;
    },
  });
  const details = useQueries({
    queries: (list.data ?? []).map((row) => ({
      queryKey: budgetKeys.category(budgetId, row.id),
      queryFn: () => unwrap(api.GET('/api/v1/budget_categories/{id}', { params: { path: { id: row.id }, header } })),
    })),
  });
  return { list, details };
}

export function useStartBudget() {
  const client = useQueryClient();
  return useMutation({
    // The month's last day lies in the budget month starting in it, whatever the family's month_start_day.
    mutationFn: (month: string) => unwrap(api.POST('/api/v1/budgets', { params: { header }, // The DTO declares start_date loosely (the service validates it), so its generated type is too narrow.
      body: { start_date: monthRange(month).end } as unknown as components['schemas']['CreateBudgetDto'] })),
    onSuccess: (budget, month) => client.setQueryData(budgetKeys.month(month), budget),
  });
}

export function useUpdateBudget(month: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string; budgeted_spending: string | null; expected_income: string | null }) =>
      unwrap(api.PATCH('/api/v1/budgets/{id}', { params: { path: { id }, header }, body })),
    onSuccess: (budget) => client.setQueryData(budgetKeys.month(month), budget),
  });
}

export function useUpdateBudgetCategory(month: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, budgeted_spending }: { id: string; budgeted_spending: string }) =>
      unwrap(api.PATCH('/api/v1/budget_categories/{id}', { params: { path: { id }, header }, body: { budgeted_spending } })),
    onSuccess: (row) => {
      client.setQueryData(budgetKeys.category(row.budget_id, row.id), row);
      // A subcategory's own limit moves its parent's, and what the parent and its sharing subcategories have left.
      void client.invalidateQueries({ queryKey: budgetKeys.categoryDetails(row.budget_id) });
      void client.invalidateQueries({ queryKey: budgetKeys.categories(row.budget_id) });
      void client.invalidateQueries({ queryKey: budgetKeys.month(month) });
    },
  });
}
