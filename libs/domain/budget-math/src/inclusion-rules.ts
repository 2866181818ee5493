import type { MinorUnits } from '@hearth/domain/money';
import { TRANSACTION_KINDS } from '@hearth/contracts';
import type { TransactionKind } from '@hearth/contracts';

/*
 * Which entries count toward a budget's actual spending and income. The SQL layer filters with these;
 * an entry counts only when every rule holds:
 *  1. entry date within [start_date, end_date], both inclusive;
 *  2. account status in INCLUDED_ACCOUNT_STATUSES;
 *  3. account belongs to the family and exclude_from_reports = false;
 *  4. account is not tax-advantaged (isTaxAdvantagedAccount);
 *  5. account is in the budget's account set: a personal budget uses its owner's accounts; a household budget uses
 *     every account of the family, whoever views it (Sure counts the viewer's own and shared accounts; Hearth has
 *     no per-member sharing, and accounts an import created have no owner); an empty set gives zeros;
 *  6. entries.excluded = false (split parents are excluded; their children count instead);
 *  7. transactions.pending = false;
 *  8. transactions.kind not in BUDGET_EXCLUDED_KINDS;
 *  9. investment_activity_label is NULL or not in EXCLUDED_INVESTMENT_ACTIVITY_LABELS;
 * 10. entryable_type in COUNTED_ENTRYABLE_TYPES (trades and valuations never count).
 * Amounts are converted to the family currency at the exchange rate of the entry's own date (rate 1 when missing),
 * and classified with budgetContribution (by the raw, unconverted sign).
 */

export const INCLUDED_ACCOUNT_STATUSES = ['draft', 'active'] as const;

export const COUNTED_ENTRYABLE_TYPES = ['Transaction'] as const;

/** Transfers between own accounts (both sides after matching), credit-card payments and user-flagged one-offs. */
export const BUDGET_EXCLUDED_KINDS = [
  'funds_movement',
  'one_time',
  'cc_payment',
] as const satisfies readonly TransactionKind[];

/** Every other kind: budgets count it, as spending or income (budgetContribution). */
export const BUDGET_COUNTED_KINDS: readonly TransactionKind[] = TRANSACTION_KINDS.filter(
  (kind) => !(BUDGET_EXCLUDED_KINDS as readonly string[]).includes(kind),
);

/** Outflow sides of transfers to a loan or an investment: expenses by abs(amount) even when the amount is negative. */
export const ALWAYS_EXPENSE_KINDS = [
  'loan_payment',
  'investment_contribution',
] as const satisfies readonly TransactionKind[];

export const EXCLUDED_INVESTMENT_ACTIVITY_LABELS = ['Transfer', 'Sweep In', 'Sweep Out', 'Exchange'] as const;

/** Depository subtypes whose money is tax-advantaged (health savings). */
export const TAX_ADVANTAGED_DEPOSITORY_SUBTYPES = ['hsa'] as const;

/**
 * Investment subtypes taxed as deferred, exempt or advantaged. Any other subtype, or none, is a taxable account and
 * counts. Crypto accounts always count: our schema has no per-account tax treatment.
 */
export const TAX_ADVANTAGED_INVESTMENT_SUBTYPES = [
  // United States
  '401k', 'roth_401k', '403b', '457b', 'tsp', 'ira', 'roth_ira', 'sep_ira', 'simple_ira', '529_plan', 'hsa',
  // United Kingdom
  'isa', 'lisa', 'sipp', 'workplace_pension_uk',
  // Canada
  'tfsa', 'rrsp', 'fhsa', 'rdsp', 'resp', 'dpsp', 'prpp', 'lira', 'rrif', 'lif', 'lrif', 'prif', 'rlif',
  // Australia
  'super', 'smsf',
  // Europe
  'assurance_vie', 'pea', 'pillar_3a', 'riester',
  // India
  'nps', 'apy', 'life_insurance', 'ppf', 'ssy', 'nsc', 'infrastructure_bond', 'tax_free_bond', 'sgb',
  // Anywhere
  'pension', 'retirement',
] as const;

const hasMember = (list: readonly string[], value: string | null | undefined): boolean =>
  value != null && list.includes(value);

export function isTaxAdvantagedAccount(accountableType: string, subtype: string | null): boolean {
  if (accountableType === 'Investment') return hasMember(TAX_ADVANTAGED_INVESTMENT_SUBTYPES, subtype);
  if (accountableType === 'Depository') return hasMember(TAX_ADVANTAGED_DEPOSITORY_SUBTYPES, subtype);
  return false;
}

export interface BudgetContribution {
  classification: 'expense' | 'income';
  /** Always >= 0: the magnitude added to the category's expense or income total. */
  amount: MinorUnits;
}

/**
 * How one qualifying transaction feeds the budget (entry sign: positive = outflow), or null when its kind or
 * investment label keeps it out. Zero counts as expense.
 */
export function budgetContribution(entry: {
  kind: TransactionKind;
  amount: MinorUnits;
  investmentActivityLabel?: string | null;
}): BudgetContribution | null {
  if (hasMember(BUDGET_EXCLUDED_KINDS, entry.kind)) return null;
  if (hasMember(EXCLUDED_INVESTMENT_ACTIVITY_LABELS, entry.investmentActivityLabel)) return null;
  const magnitude = entry.amount < 0n ? -entry.amount : entry.amount;
  const isExpense = hasMember(ALWAYS_EXPENSE_KINDS, entry.kind) || entry.amount >= 0n;
  return { classification: isExpense ? 'expense' : 'income', amount: magnitude };
}
