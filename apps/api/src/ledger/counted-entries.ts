import {
  ALWAYS_EXPENSE_KINDS,
  BUDGET_EXCLUDED_KINDS,
  COUNTED_ENTRYABLE_TYPES,
  EXCLUDED_INVESTMENT_ACTIVITY_LABELS,
  INCLUDED_ACCOUNT_STATUSES,
  TAX_ADVANTAGED_DEPOSITORY_SUBTYPES,
  TAX_ADVANTAGED_INVESTMENT_SUBTYPES,
} from '@hearth/domain/budget-math';

/** SQL of the counting rules, over `entries e JOIN transactions t ON t.entry_id = e.id JOIN accounts a ON a.id = e.account_id`. */
export interface CountedEntriesSql {
  /** The entries that count toward spending and income (inclusion-rules.ts, rules 2, 3, 4, 6 to 10); the caller scopes the family and dates. */
  where: string;
  /** True for an entry counted as spending, false for income (budgetContribution, by the raw sign). */
  isExpense: string;
}

/**
 * What budgets and the cash-flow and spending reports count, written once so that they cannot drift apart: the
 * parameters are appended to `params` and referred to by their numbers.
 */
export function countedEntriesSql(params: unknown[]): CountedEntriesSql {
  const param = (value: readonly string[]) => {
    params.push(value);
    return `$${params.length}::text[]`;
  };
  return {
    where: `e.entryable_type = ANY(${param(COUNTED_ENTRYABLE_TYPES)}) AND NOT e.excluded
      AND a.status = ANY(${param(INCLUDED_ACCOUNT_STATUSES)}) AND NOT a.exclude_from_reports
      AND NOT (a.accountable_type = 'Investment' AND coalesce(a.subtype, '') = ANY(${param(TAX_ADVANTAGED_INVESTMENT_SUBTYPES)}))
      AND NOT (a.accountable_type = 'Depository' AND coalesce(a.subtype, '') = ANY(${param(TAX_ADVANTAGED_DEPOSITORY_SUBTYPES)}))
      AND NOT t.pending
      AND t.kind <> ALL(${param(BUDGET_EXCLUDED_KINDS)})
      AND (t.investment_activity_label IS NULL OR t.investment_activity_label <> ALL(${param(EXCLUDED_INVESTMENT_ACTIVITY_LABELS)}))`,
    isExpense: `(t.kind = ANY(${param(ALWAYS_EXPENSE_KINDS)}) OR e.amount_minor >= 0)`,
  };
}
